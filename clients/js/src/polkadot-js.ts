// polkadot.js (`@polkadot/api`): what an unmodified ApiPromise needs to sign for this chain.
//
// ```ts
// const api = await ApiPromise.create({ provider, signedExtensions: PQ_SIGNED_EXTENSIONS });
// const alice = Keypair.fromSuri('ml-dsa-44', '//Alice');
// // The signed form, through polkadot.js' own signing:
// await api.tx.balances.transferKeepAlive(dest, value).signAndSend(alice.address(), { signer: new PqSigner(api.registry, [alice]) });
// // The general forms, which polkadot.js cannot sign itself:
// const extrinsic = await signGeneral(api, api.tx.balances.transferKeepAlive(dest, value), alice, 'registered');
// await api.rpc.author.submitExtrinsic(extrinsic);
// ```

import type { ApiPromise } from '@polkadot/api';
import type { ProviderInterface } from '@polkadot/rpc-provider/types';
import type { Registry, Signer, SignerPayloadJSON, SignerResult } from '@polkadot/types/types';
import { bytesToHex } from '@noble/hashes/utils.js';
import {
  AUTHORIZE_PQ,
  buildTransaction,
  extensionsFor,
  type ChainState,
  type Form,
  type Sender,
} from './extrinsic.js';
import { Keypair, ss58Encode, type SignOptions } from './keys.js';
import { nameRefusal } from './refusals.js';
import { blake2_256, concat, littleEndian } from './scale.js';
import { FACTS, inDescribedPieces } from './schemes.js';

/** `ApiPromise.create({ signedExtensions })`: `AuthorizePq`'s explicit data, which polkadot.js
 * does not know and would otherwise leave out of every transaction it builds. */
export const PQ_SIGNED_EXTENSIONS = {
  [AUTHORIZE_PQ]: { extrinsic: { authorization: 'PalletPqVerifierExtensionAuthorization' }, payload: {} },
};

/** A polkadot.js `Signer` for the signed form (`tx.signAndSend(address, { signer })`), of
 * every scheme: it signs polkadot.js' payload and returns the `SignatureWithKey` the runtime
 * decodes (the key travels in it for ML-DSA). */
export class PqSigner implements Signer {
  private readonly keys: Map<string, Keypair>;
  private nextId = 0;

  constructor(
    private readonly registry: Registry,
    keys: Keypair[],
    private readonly options: SignOptions = {},
  ) {
    this.keys = new Map(keys.map((key) => [key.address(), key]));
  }

  async signPayload(payload: SignerPayloadJSON): Promise<SignerResult> {
    const key = this.keys.get(ss58Encode(this.registry.createType('AccountId32', payload.address).toU8a()));
    if (!key) throw new Error(`no key for ${payload.address}`);
    const signed = this.registry.createType('ExtrinsicPayload', payload, { version: payload.version }).toU8a({ method: true });
    const signature = key.sign(signed.length > 256 ? blake2_256(signed) : signed, 'transaction', this.options);
    const publicKey = key.scheme === 'ed25519' ? new Uint8Array() : key.publicKey;
    const withKey = concat(Uint8Array.of(FACTS[key.scheme].variant), publicKey, signature);
    return { id: this.nextId++, signature: `0x${bytesToHex(withKey)}` };
  }
}

/** What the extensions sign, read from the chain through `api`: the genesis hash, the
 * runtime version, `from`'s next nonce and, unless `immortal`, the finalized head as the
 * checkpoint. */
export async function chainState(api: ApiPromise, from: Uint8Array, options: { tip?: bigint; immortal?: boolean } = {}): Promise<ChainState> {
  const nonce = await api.rpc.system.accountNextIndex(ss58Encode(from));
  let checkpoint: ChainState['checkpoint'];
  if (!options.immortal) {
    const hash = await api.rpc.chain.getFinalizedHead();
    const header = await api.rpc.chain.getHeader(hash);
    checkpoint = { number: header.number.toNumber(), hash: hash.toU8a() };
  }
  return {
    genesisHash: api.genesisHash.toU8a(),
    specVersion: api.runtimeVersion.specVersion.toNumber(),
    transactionVersion: api.runtimeVersion.transactionVersion.toNumber(),
    checkpoint,
    nonce: nonce.toNumber(),
    tip: options.tip,
  };
}

/** Builds and signs `call` from `sender` in `form` (any form; the general ones polkadot.js
 * cannot build), returning the extrinsic to submit with {@link submitAndWatch}. */
export async function signGeneral(
  api: ApiPromise,
  call: { method: { toU8a(): Uint8Array } },
  sender: Keypair | Sender,
  form: Form,
  options: SignOptions & { tip?: bigint; immortal?: boolean } = {},
): Promise<Uint8Array> {
  const from = sender instanceof Keypair ? sender.accountId() : (sender.account ?? sender.key.accountId());
  const chain = await chainState(api, from, options);
  return buildTransaction(sender, form, call.method.toU8a(), extensionsFor(api.registry.signedExtensions, chain), options);
}

/** The fee of `extrinsic` as the runtime computes it (`TransactionPaymentApi_query_info`) from
 * its real bytes: polkadot.js' `paymentInfo` signs with a dummy 64-byte signature, which is
 * neither this chain's signature type nor an ML-DSA transaction's size. The bytes go to the
 * runtime as they are, not re-encoded through polkadot.js' extrinsic type. */
export async function queryFee(api: ApiPromise, extrinsic: Uint8Array): Promise<bigint> {
  // Hex, not a Uint8Array, which polkadot.js would read as length-prefixed `Bytes`.
  const input = `0x${bytesToHex(concat(extrinsic, littleEndian(extrinsic.length, 4)))}`;
  const answer = await api.rpc.state.call('TransactionPaymentApi_query_info', input);
  // `RuntimeDispatchInfo { weight, class, partial_fee: u128 }`: the fee is its last 16 bytes.
  const fee = answer.toU8a(true).subarray(-16);
  return fee.reduceRight((value, byte) => (value << 8n) | BigInt(byte), 0n);
}

/** How far {@link submitAndWatch} follows a transaction. */
export type WaitFor = 'inBlock' | 'finalized';

/** Submits `extrinsic` as it is (`author_submitAndWatchExtrinsic` on `provider`) and resolves
 * with the hash of the block it is in (or finalized in); rejects with the node's refusal,
 * the pallet's codes named. polkadot.js' own `author.submitExtrinsic` re-encodes a general
 * transaction through its extrinsic type, wrongly as of 16.5, so the bytes go around it. */
export async function submitAndWatch(provider: ProviderInterface, extrinsic: Uint8Array, waitFor: WaitFor = 'finalized'): Promise<string> {
  const hex = `0x${bytesToHex(extrinsic)}`;
  return new Promise((resolve, reject) => {
    let subscription: string | number | undefined;
    const finish = (outcome: () => void) => {
      if (subscription !== undefined) {
        provider.unsubscribe('author_extrinsicUpdate', 'author_unwatchExtrinsic', subscription).catch(() => undefined);
      }
      outcome();
    };
    provider
      .subscribe('author_extrinsicUpdate', 'author_submitAndWatchExtrinsic', [hex], (error: Error | null, status: unknown) => {
        if (error) return finish(() => reject(error));
        if (typeof status !== 'object' || status === null) return;
        const update = status as Record<string, string>;
        const done = update[waitFor];
        if (done) return finish(() => resolve(done));
        for (const failure of ['dropped', 'invalid', 'usurped', 'finalityTimeout']) {
          if (failure in update) return finish(() => reject(new Error(`transaction ${failure}`)));
        }
      })
      .then((id) => (subscription = id))
      .catch((error: Error) => reject(new Error(nameRefusal(error.message))));
  });
}

/** `key`'s public key as polkadot.js' value of a `MultiSigner` (`register_key`'s `key`), in
 * the pieces the metadata describes. */
export function multiSignerValue(key: Keypair): Record<string, Uint8Array | Uint8Array[]> {
  return { [FACTS[key.scheme].variantName]: inDescribedPieces(key.publicKey) };
}
