// Transactions, byte for byte as the runtime decodes and verifies them (docs/wire-format.md).
// Every form is an ordinary signed (v4) extrinsic: the form and the scheme are the variant of
// its signature (`TransactionSignature`), which stock clients read from the metadata, and every
// form signs the standard signed payload stock wallets sign.

import { Keypair, type SignOptions } from './keys.js';
import { blake2_256, compact, concat, equalBytes, littleEndian } from './scale.js';
import { FACTS, type Purpose } from './schemes.js';

/** How a transaction proves who sent it: the key travels with the signature (`key-inline`), or
 * the account's registered key signed (`registered`). Committees sign with pq-cli. */
export type Form = 'key-inline' | 'registered';
export const FORMS: readonly Form[] = ['key-inline', 'registered'];

/** The purpose (FIPS 204 context; for Ed25519, a prefix) each form's statement is signed for. */
export const FORM_PURPOSES: Readonly<Record<Form, Purpose>> = {
  'key-inline': 'transaction',
  registered: 'transactionKeyRegistered',
};

/** One transaction extension's data, as polkadot-api hands it to a signer: `value` (explicit)
 * goes into the extrinsic, `additionalSigned` (implicit) is only signed. */
export interface Extension {
  identifier: string;
  value: Uint8Array;
  additionalSigned: Uint8Array;
}

/** Who signs: a key, for the account it derives or — in the registered form only — for
 * `account`, an account that migrated to it. */
export interface Sender {
  key: Keypair;
  account?: Uint8Array;
}

/** How a transaction is signed. */
export interface TransactionOptions extends SignOptions {
  /** Sign nothing: an all-zero signature of the form's variant and size, for a fee quote. The
   * runtime charges a transaction by its signature's variant and its length, and
   * `TransactionPaymentApi_query_info` checks no signature, so the quote of such a transaction
   * is the fee of the signed one. */
  placeholder?: boolean;
}

/** `0x84`: extrinsic format 4, signed. */
const SIGNED_V4 = 0x84;
/** `MultiAddress::Id`. */
const ADDRESS_ID = 0;
/** Longer payloads are signed as their `blake2_256`, as every Substrate runtime does. */
const MAX_UNHASHED_PAYLOAD = 256;

/** Why a transaction could not be built. */
export class TransactionError extends Error {
  override name = 'TransactionError';
}

/** The account `sender` sends from. */
export function senderAccount(sender: Keypair | Sender): Uint8Array {
  return sender instanceof Keypair ? sender.accountId() : (sender.account ?? sender.key.accountId());
}

/** Builds and signs a transaction of `callData` (the encoded call) from `sender` in `form`,
 * with `extensions` in the runtime's order. Returns the extrinsic with its length prefix, ready
 * to submit: `compact(length) ‖ 0x84 ‖ 0x00 ‖ account ‖ signature ‖ explicit ‖ call`. */
export function buildTransaction(
  sender: Keypair | Sender,
  form: Form,
  callData: Uint8Array,
  extensions: Extension[],
  options: TransactionOptions = {},
): Uint8Array {
  const signature = signTransaction(sender, form, signingPayload(transactionPayload(callData, extensions)), options);
  const explicit = extensions.map((extension) => extension.value);
  const body = concat(Uint8Array.of(SIGNED_V4, ADDRESS_ID), senderAccount(sender), signature, ...explicit, callData);
  return concat(compact(body.length), body);
}

/** The standard signed payload: `call ‖ explicit ‖ implicit` of every extension, in order. */
export function transactionPayload(callData: Uint8Array, extensions: Extension[]): Uint8Array {
  return concat(
    callData,
    ...extensions.map((extension) => extension.value),
    ...extensions.map((extension) => extension.additionalSigned),
  );
}

/** What of `payload` is signed: the payload, or its `blake2_256` when longer than 256 bytes.
 * A payload no longer than a hash is refused: it could be the hash of another, long payload,
 * which is signed as exactly those bytes (a real one, with its chain's implicit data, is over
 * 70 bytes). */
export function signingPayload(payload: Uint8Array): Uint8Array {
  if (payload.length <= 32) throw new Error('pq-verifier keys sign transactions only: a payload as short as a hash is none');
  return payload.length > MAX_UNHASHED_PAYLOAD ? blake2_256(payload) : payload;
}

/** The message a form signs: the signing payload (key inline: the key names the account), or
 * `account ‖ signing payload` (registered: one key may be registered for several accounts). */
export function transactionStatement(form: Form, account: Uint8Array, signingPayload: Uint8Array): Uint8Array {
  return form === 'key-inline' ? signingPayload : concat(account, signingPayload);
}

/** The encoded `TransactionSignature` of `signature` by `key` in `form`: the variant, then for
 * an inline ML-DSA key the key (an Ed25519 key is the account, which the address carries), then
 * the signature. */
export function transactionSignature(key: Keypair, form: Form, signature: Uint8Array): Uint8Array {
  const { keyInlineVariant, registeredVariant } = FACTS[key.scheme];
  if (form === 'key-inline') {
    const inlineKey = key.scheme === 'ed25519' ? new Uint8Array() : key.publicKey;
    return concat(Uint8Array.of(keyInlineVariant), inlineKey, signature);
  }
  if (registeredVariant === undefined) throw new TransactionError(`a ${key.scheme} key is its account and is never registered`);
  return concat(Uint8Array.of(registeredVariant), signature);
}

/** Signs the transaction of `signingPayload` from `sender` in `form`: the encoded
 * `TransactionSignature`, the extrinsic's signature. */
export function signTransaction(
  sender: Keypair | Sender,
  form: Form,
  signingPayload: Uint8Array,
  options: TransactionOptions = {},
): Uint8Array {
  const key = sender instanceof Keypair ? sender : sender.key;
  const account = senderAccount(sender);
  if (form === 'key-inline' && !equalBytes(account, key.accountId())) {
    throw new TransactionError('only the registered form signs for an account the key does not derive');
  }
  const signature = options.placeholder
    ? new Uint8Array(FACTS[key.scheme].signatureBytes)
    : key.sign(transactionStatement(form, account, signingPayload), FORM_PURPOSES[form], options);
  return transactionSignature(key, form, signature);
}

/** What the runtime's extensions need from the chain for one transaction. */
export interface ChainState {
  genesisHash: Uint8Array;
  specVersion: number;
  transactionVersion: number;
  /** A recent finalized block the transaction is valid from, for {@link MORTAL_PERIOD}
   * blocks; `undefined` signs an immortal transaction (see docs/security.md). */
  checkpoint?: { number: number; hash: Uint8Array };
  nonce: number;
  tip?: bigint;
}

/** How many blocks a mortal transaction stays valid, as pq-cli and most wallets sign. */
export const MORTAL_PERIOD = 64;

/** The data of each of `identifiers` (the runtime's extensions, in order) for `chain`: what a
 * client without polkadot-api's extension builder signs (the reference vectors). Throws on an
 * extension it does not know. */
export function extensionsFor(identifiers: string[], chain: ChainState): Extension[] {
  const empty = new Uint8Array();
  const era = chain.checkpoint ? mortalEra(MORTAL_PERIOD, chain.checkpoint.number) : Uint8Array.of(0);
  const known: Record<string, [Uint8Array, Uint8Array]> = {
    CheckNonZeroSender: [empty, empty],
    CheckSpecVersion: [empty, littleEndian(chain.specVersion, 4)],
    CheckTxVersion: [empty, littleEndian(chain.transactionVersion, 4)],
    CheckGenesis: [empty, chain.genesisHash],
    CheckMortality: [era, chain.checkpoint?.hash ?? chain.genesisHash],
    CheckNonce: [compact(chain.nonce), empty],
    CheckWeight: [empty, empty],
    ChargeTransactionPayment: [compact(chain.tip ?? 0n), empty],
    WeightReclaim: [empty, empty],
  };
  return identifiers.map((identifier) => {
    const data = known[identifier];
    if (!data) throw new TransactionError(`unknown transaction extension ${identifier}`);
    return { identifier, value: data[0], additionalSigned: data[1] };
  });
}

/** sp-runtime's `Era::mortal(period, current)`, encoded. */
export function mortalEra(period: number, current: number): Uint8Array {
  const rounded = Math.min(Math.max(2 ** Math.ceil(Math.log2(period)), 4), 1 << 16);
  const phase = current % rounded;
  const quantizeFactor = Math.max(rounded >> 12, 1);
  const quantizedPhase = Math.floor(phase / quantizeFactor) * quantizeFactor;
  const encoded = Math.min(15, Math.max(1, Math.log2(rounded) - 1)) | ((quantizedPhase / quantizeFactor) << 4);
  return littleEndian(encoded, 2);
}
