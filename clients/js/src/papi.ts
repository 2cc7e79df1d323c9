// polkadot-api: a `PolkadotSigner` for every scheme and form, for an unmodified
// `createClient(getWsProvider(url))`: the runtime's extensions are the stock ones, whose data
// polkadot-api builds itself.
//
// ```ts
// const api = client.getUnsafeApi();
// const signer = pqSigner(Keypair.fromSuri('ml-dsa-65', '//Alice'), 'key-inline');
// await api.tx.Balances.transfer_keep_alive({ dest, value }).signAndSubmit(signer);
// ```

import { decAnyMetadata, unifyMetadata } from '@polkadot-api/substrate-bindings';
import { Binary, Enum, type PolkadotSigner } from 'polkadot-api';
import { buildTransaction, senderAccount, type Extension, type Form, type Sender, type TransactionOptions } from './extrinsic.js';
import type { Keypair } from './keys.js';
import { FACTS, inDescribedPieces } from './schemes.js';

/** The stock extensions whose implicit data binds a transaction to one chain, runtime and era,
 * with that data's length. `signTx` signs only payloads that carry them: a site could otherwise
 * pass a 32-byte "call" and empty extensions, the `blake2_256` of another transaction's long
 * payload — which is what a payload over 256 bytes is signed as — and get that transaction
 * signed, as `signBytes` would (docs/security.md). */
const CHAIN_BINDING: Record<string, number> = { CheckSpecVersion: 4, CheckTxVersion: 4, CheckGenesis: 32, CheckMortality: 32 };

/** A polkadot-api signer that sends from `sender` in `form`; `signTx` returns the whole
 * extrinsic. Its `publicKey` is the sending account's id (what polkadot-api reads the nonce
 * of), not the ML-DSA key. */
export function pqSigner(sender: Keypair | Sender, form: Form, options: TransactionOptions = {}): PolkadotSigner {
  return {
    publicKey: senderAccount(sender),
    async signTx(callData, signedExtensions, metadata) {
      // polkadot-api hands the extensions by name; the payload and extrinsic take them in the
      // metadata's order.
      const order = unifyMetadata(decAnyMetadata(metadata)).extrinsic.signedExtensions[0] ?? [];
      // What the caller passes is taken as bytes only: an object that merely has a `length`
      // (a negative one, say) would shift what `concat` writes.
      const bytes = (data: unknown, what: string): Uint8Array => {
        if (!(data instanceof Uint8Array)) throw new Error(`pq-verifier keys sign transactions only: ${what} is not bytes`);
        // A copy of what it holds: a subclass or an own `length` property could misstate it.
        return new Uint8Array(data);
      };
      const call = bytes(callData, 'the call');
      const extensions: Extension[] = order.map(({ identifier }) => {
        const extension = signedExtensions[identifier];
        if (!extension) throw new Error(`polkadot-api gave no data for the ${identifier} extension`);
        const value = bytes(extension.value, `${identifier}'s data`);
        const additionalSigned = bytes(extension.additionalSigned, `${identifier}'s implicit data`);
        return { identifier, value, additionalSigned };
      });
      for (const [identifier, length] of Object.entries(CHAIN_BINDING)) {
        const bound = extensions.find((extension) => extension.identifier === identifier);
        if (bound?.additionalSigned.length !== length) {
          throw new Error(`pq-verifier keys sign transactions only: no ${identifier} data of ${length} bytes binds this one to a chain`);
        }
      }
      return buildTransaction(sender, form, call, extensions, options);
    },
    async signBytes() {
      // Every signature of this chain is bound to one purpose; arbitrary bytes have none, and
      // signing them under a transaction's would let a site obtain a transaction signature.
      throw new Error('pq-verifier keys sign transactions only, not arbitrary bytes');
    },
  };
}

/** `key`'s public key as polkadot-api's value of an `AccountSigner` (`register_key`'s `key`):
 * fixed byte arrays are hex, in the pieces the metadata describes. */
export function accountSignerValue(key: Keypair) {
  const pieces = inDescribedPieces(key.publicKey);
  return Enum(FACTS[key.scheme].variantName, Array.isArray(pieces) ? pieces.map(Binary.toHex) : Binary.toHex(pieces));
}
