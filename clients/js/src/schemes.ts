// Every fact about a scheme that goes on the wire: variant indices, sizes, account tags and the
// FIPS 204 contexts of each purpose. Mirrors `pq_crypto` (keys.rs, params.rs, purpose.rs,
// transaction.rs); the reference vectors (docs/wire-format.md) check the two agree.

import { utf8 } from './scale.js';

/** The signature schemes a single key signs with, in the order of their SCALE variants. */
// Frozen, as every table here: the package exports them, and a caller changing one (a purpose's
// context, say) would change what the keys sign.
export const SCHEMES = Object.freeze(['ed25519', 'ml-dsa-44', 'ml-dsa-65', 'ml-dsa-87'] as const);
export type Scheme = (typeof SCHEMES)[number];

export interface SchemeFacts {
  /** The variant's name in `AccountSigner` and `AccountSignature` (`register_key`'s key and proof). */
  readonly variantName: string;
  /** Index of the key-inline variant in `TransactionSignature`, the extrinsic's signature. */
  readonly keyInlineVariant: number;
  /** Index of the registered variant in `TransactionSignature`; none for Ed25519, whose key is
   * its account and is never registered. */
  readonly registeredVariant?: number;
  /** Encoded public key (RFC 8032; FIPS 204 `pkEncode`). */
  readonly publicKeyBytes: number;
  /** Encoded signature (RFC 8032; FIPS 204 `sigEncode`). */
  readonly signatureBytes: number;
  /** Domain tag of the account id (`deriveAccountId`); Ed25519 accounts are their key. */
  readonly accountTag?: Uint8Array;
}

export const FACTS: Readonly<Record<Scheme, SchemeFacts>> = Object.freeze({
  ed25519: Object.freeze({ variantName: 'Ed25519', keyInlineVariant: 0, publicKeyBytes: 32, signatureBytes: 64 }),
  'ml-dsa-44': Object.freeze({
    variantName: 'MlDsa44',
    keyInlineVariant: 3,
    registeredVariant: 6,
    publicKeyBytes: 1312,
    signatureBytes: 2420,
    accountTag: utf8('pq-verifier/account/ml-dsa-44'),
  }),
  'ml-dsa-65': Object.freeze({
    variantName: 'MlDsa65',
    keyInlineVariant: 4,
    registeredVariant: 7,
    publicKeyBytes: 1952,
    signatureBytes: 3309,
    accountTag: utf8('pq-verifier/account/ml-dsa-65'),
  }),
  'ml-dsa-87': Object.freeze({
    variantName: 'MlDsa87',
    keyInlineVariant: 5,
    registeredVariant: 8,
    publicKeyBytes: 2592,
    signatureBytes: 4627,
    accountTag: utf8('pq-verifier/account/ml-dsa-87'),
  }),
});

/** What a signature is for; each purpose is its own FIPS 204 context (for Ed25519, a prefix). */
export const PURPOSES = Object.freeze({
  /** A transaction whose key travels with its signature: the signing payload as it is. */
  transaction: 'pq-verifier/transaction/v1',
  /** A transaction signed by the account's registered key: the account, then the payload. */
  transactionKeyRegistered: 'pq-verifier/transaction-key-registered/v1',
  /** A committee's aggregate signature (made by pq-cli's aggregator, not here). */
  transactionCommittee: 'pq-verifier/transaction-committee/v1',
  proofOfPossession: 'pq-verifier/proof-of-possession/v1',
} as const);
export type Purpose = keyof typeof PURPOSES;

/** The FIPS 204 context string of `purpose`. */
export function context(purpose: Purpose): Uint8Array {
  return utf8(PURPOSES[purpose]);
}

/** What Ed25519 puts before the message: nothing for transactions (as every Substrate wallet
 * signs), the context for every other purpose. */
export function ed25519Prefix(purpose: Purpose): Uint8Array {
  return purpose === 'transaction' ? new Uint8Array() : context(purpose);
}

/** The SS58 address format of this chain (`System::SS58Prefix`). */
export const SS58_PREFIX = 42;

/** The longest fixed array the runtime's metadata describes (polkadot.js decodes no longer):
 * longer keys and signatures are described as consecutive pieces of at most this many bytes. */
export const MAX_DESCRIBED_ARRAY = 2048;

/** `bytes` (a key or signature) in the shape the metadata describes it, for libraries that
 * build calls from metadata (polkadot.js, polkadot-api): the bytes themselves up to 2,048,
 * otherwise their pieces. The encoding is the same bytes either way. */
export function inDescribedPieces(bytes: Uint8Array): Uint8Array | Uint8Array[] {
  if (bytes.length <= MAX_DESCRIBED_ARRAY) return bytes;
  const pieces: Uint8Array[] = [];
  for (let offset = 0; offset < bytes.length; offset += MAX_DESCRIBED_ARRAY) {
    pieces.push(bytes.subarray(offset, offset + MAX_DESCRIBED_ARRAY));
  }
  return pieces;
}
