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
import { senderAccount, signingPayload, signTransaction, type Form, type Sender, type TransactionOptions } from './extrinsic.js';
import type { Keypair } from './keys.js';
import { FACTS, inDescribedPieces } from './schemes.js';

/** A polkadot.js `Signer` (`tx.signAndSend(address, { signer })`, the interface browser
 * extensions implement) that signs for `senders` in `form`. It returns the whole encoded
 * `TransactionSignature` — variant, inline key, signature — which polkadot.js decodes as the
 * metadata's signature type and puts into the extrinsic. */
export class PqSigner implements Signer {
  /** Senders by account id, in hex. */
  private readonly senders: Map<string, Keypair | Sender>;
  private nextId = 0;

  constructor(
    private readonly registry: Registry,
    senders: (Keypair | Sender)[],
    private readonly form: Form,
    private readonly options: TransactionOptions = {},
  ) {
    this.senders = new Map(senders.map((sender) => [bytesToHex(senderAccount(sender)), sender]));
  }

  async signPayload(payload: SignerPayloadJSON): Promise<SignerResult> {
    const sender = this.senders.get(bytesToHex(this.registry.createType('AccountId32', payload.address).toU8a()));
    if (!sender) throw new Error(`no key for ${payload.address}`);
    // `call ‖ explicit ‖ implicit`, in the metadata's extension order; polkadot.js hashes long
    // payloads only when it signs itself, so the rule is applied here.
    const encoded = this.registry.createType('ExtrinsicPayload', payload, { version: payload.version }).toU8a({ method: true });
    const signature = signTransaction(sender, this.form, signingPayload(encoded), this.options);
    return { id: this.nextId++, signature: `0x${bytesToHex(signature)}` };
  }
}

/** `key`'s public key as polkadot.js' value of an `AccountSigner` (`register_key`'s `key`), in
 * the pieces the metadata describes. */
export function accountSignerValue(key: Keypair): Record<string, Uint8Array | Uint8Array[]> {
  return { [FACTS[key.scheme].variantName]: inDescribedPieces(key.publicKey) };
}
