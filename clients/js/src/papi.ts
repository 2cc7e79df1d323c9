// polkadot-api: a `PolkadotSigner` for every scheme and form.
//
// ```ts
// const api = client.getUnsafeApi();
// const signer = pqSigner(Keypair.fromSuri('ml-dsa-65', '//Alice'), 'key-inline');
// await api.tx.Balances.transfer_keep_alive({ dest, value })
//   .signAndSubmit(signer, { customSignedExtensions: AUTHORIZE_PQ_EXTENSION });
// ```

import { decAnyMetadata, unifyMetadata } from '@polkadot-api/substrate-bindings';
import { Binary, Enum, type PolkadotSigner } from 'polkadot-api';
import { AUTHORIZE_PQ, buildTransaction, type Extension, type Form, type Sender } from './extrinsic.js';
import { Keypair, type SignOptions } from './keys.js';
import { FACTS, inDescribedPieces } from './schemes.js';

/** The value polkadot-api needs for `AuthorizePq`, an extension it does not know, before it
 * calls a signer (`customSignedExtensions`); {@link pqSigner} replaces it with the form's own. */
export const AUTHORIZE_PQ_EXTENSION = { [AUTHORIZE_PQ]: { value: Uint8Array.of(0) } };

/** A polkadot-api signer that sends from `sender` in `form`. Its `publicKey` is the sending
 * account's id (what polkadot-api reads the nonce of), not the ML-DSA key. */
export function pqSigner(sender: Keypair | Sender, form: Form, options: SignOptions = {}): PolkadotSigner {
  const from = sender instanceof Keypair ? sender.accountId() : (sender.account ?? sender.key.accountId());
  return {
    publicKey: from,
    async signTx(callData, signedExtensions, metadata) {
      const unified = unifyMetadata(decAnyMetadata(metadata));
      const order = unified.extrinsic.signedExtensions[0] ?? [];
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

/** `key`'s public key as polkadot-api's value of a `MultiSigner` (`register_key`'s `key`):
 * fixed byte arrays are hex, in the pieces the metadata describes. */
export function multiSignerValue(key: Keypair) {
  const pieces = inDescribedPieces(key.publicKey);
  return Enum(FACTS[key.scheme].variantName, Array.isArray(pieces) ? pieces.map(Binary.toHex) : Binary.toHex(pieces));
}
