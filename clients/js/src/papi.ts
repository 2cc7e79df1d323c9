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
      const extensions: Extension[] = order.map(({ identifier }) => {
        const extension = signedExtensions[identifier];
        if (!extension) throw new Error(`polkadot-api gave no data for the ${identifier} extension`);
        return extension;
      });
      return buildTransaction(sender, form, callData, extensions, options);
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
