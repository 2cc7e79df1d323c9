// polkadot.js (`@polkadot/api`): a `Signer` for every scheme and form. An unmodified
// `ApiPromise.create({ provider })` reads the transaction signature type from the metadata, so
// it builds, submits and decodes every form with nothing more:
//
// ```ts
// const api = await ApiPromise.create({ provider });
// const alice = Keypair.fromSuri('ml-dsa-44', '//Alice');
// await api.tx.balances.transferKeepAlive(dest, value)
//   .signAndSend(alice.address(), { signer: new PqSigner(api.registry, [alice], 'key-inline') });
// ```

import type { Registry, Signer, SignerPayloadJSON, SignerResult } from '@polkadot/types/types';
import { bytesToHex } from '@noble/hashes/utils.js';
import { IMMORTAL_REFUSAL, senderAccount, signTransaction, TransactionError, type Form, type Sender, type TransactionOptions } from './extrinsic.js';
import type { Keypair } from './keys.js';
import { equalBytes } from './scale.js';
import { FACTS, inDescribedPieces } from './schemes.js';

/** A polkadot.js `Signer` (`tx.signAndSend(address, { signer })`, the interface browser
 * extensions implement) that signs for `senders` in `form`. It returns the whole encoded
 * `TransactionSignature` — variant, inline key, signature — which polkadot.js decodes as the
 * metadata's signature type and puts into the extrinsic. */
export class PqSigner implements Signer {
  /** Senders by account id, in hex. Private fields: whoever holds the signer reaches no key. */
  readonly #senders: Map<string, Keypair | Sender>;
  readonly #registry: Registry;
  readonly #form: Form;
  readonly #options: TransactionOptions;
  #nextId = 0;

  constructor(registry: Registry, senders: (Keypair | Sender)[], form: Form, options: TransactionOptions = {}) {
    this.#registry = registry;
    this.#senders = new Map(senders.map((sender) => [bytesToHex(senderAccount(sender)), sender]));
    this.#form = form;
    this.#options = { ...options };
  }

  async signPayload(payload: SignerPayloadJSON): Promise<SignerResult> {
    const sender = this.#senders.get(bytesToHex(this.#registry.createType('AccountId32', payload.address).toU8a()));
    if (!sender) throw new Error(`no key for ${payload.address}`);
    // `call ‖ explicit ‖ implicit`, in the metadata's extension order; polkadot.js hashes long
    // payloads only when it signs itself, so `signTransaction` applies the rule.
    // The call must be exactly its bytes: the payload is one run, and a call missing its last
    // byte followed by an era starting with it would be signed as that call with another era.
    const method = this.#registry.createType('Bytes', payload.method).toU8a(true);
    if (!equalBytes(this.#registry.createType('Call', method).toU8a(), method)) {
      throw new TransactionError("the call is not exactly one of this chain's calls");
    }
    const extrinsicPayload = this.#registry.createType('ExtrinsicPayload', payload, { version: payload.version });
    // The era as polkadot.js reads it (`0x00`, `0x`, `0x0000`… are all immortal).
    if (extrinsicPayload.era.isImmortalEra && !this.#options.allowImmortal) throw new TransactionError(IMMORTAL_REFUSAL);
    const signature = signTransaction(sender, this.#form, extrinsicPayload.toU8a({ method: true }), this.#options);
    return { id: this.#nextId++, signature: `0x${bytesToHex(signature)}` };
  }
}

/** `key`'s public key as polkadot.js' value of an `AccountSigner` (`register_key`'s `key`), in
 * the pieces the metadata describes. */
export function accountSignerValue(key: Keypair): Record<string, Uint8Array | Uint8Array[]> {
  return { [FACTS[key.scheme].variantName]: inDescribedPieces(key.publicKey) };
}
