// Transactions of every form, byte for byte as the runtime decodes and verifies them
// (docs/wire-format.md): the ordinary signed extrinsic (v4) and the general transactions (v5)
// that `AuthorizePq` authorizes with the key inline or registered.

import { Keypair, type SignOptions } from './keys.js';
import { blake2_256, compact, concat, equalBytes, littleEndian } from './scale.js';
import { FACTS } from './schemes.js';

/** The pallet's transaction extension, which authorizes general transactions. */
export const AUTHORIZE_PQ = 'AuthorizePq';

/** How a transaction proves who sent it. */
export type Form = 'signed' | 'key-inline' | 'registered';
export const FORMS: readonly Form[] = ['signed', 'key-inline', 'registered'];

/** One transaction extension's data, as polkadot-api hands it to a signer: `value` goes into
 * the extrinsic, `additionalSigned` (implicit) is only signed. */
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

/** `0x84`: extrinsic format 4, signed. */
const SIGNED_V4 = 0x84;
/** `0x45`: extrinsic format 5, general. */
const GENERAL_V5 = 0x45;
/** The version of the extension pipeline a general transaction names (`0`). */
const EXTENSION_VERSION = 0;
/** `MultiAddress::Id`. */
const ADDRESS_ID = 0;
/** `Authorization` variants. */
const AUTHORIZATION = { none: 0, keyInline: 1, keyRegistered: 2 } as const;
/** The form byte of an `AuthorizationStatement`. */
const STATEMENT_FORM = { 'key-inline': 0, registered: 1 } as const;

/** Why a transaction could not be built. */
export class TransactionError extends Error {
  override name = 'TransactionError';
}

/** Builds and signs a transaction of `callData` (the encoded call) from `sender` in `form`,
 * with `extensions` in the runtime's order (`AuthorizePq` first; the value given for it is
 * replaced by the form's own). Returns the extrinsic with its length prefix, ready to submit. */
export function buildTransaction(
  sender: Keypair | Sender,
  form: Form,
  callData: Uint8Array,
  extensions: Extension[],
  options: SignOptions = {},
): Uint8Array {
  const { key, account = undefined } = sender instanceof Keypair ? { key: sender } : sender;
  const from = account ?? key.accountId();
  if (form !== 'registered' && !equalBytes(from, key.accountId())) {
    throw new TransactionError(`only the registered form signs for an account the key does not derive`);
  }
  const explicitRest = concat(...checkedOrder(extensions).slice(1).map((extension) => extension.value));
  if (form === 'signed') {
    const signature = key.sign(signedPayload(callData, extensions), 'transaction', options);
    const explicit = concat(Uint8Array.of(AUTHORIZATION.none), explicitRest);
    const body = concat(Uint8Array.of(SIGNED_V4, ADDRESS_ID), from, signatureWithKey(key, signature), explicit, callData);
    return concat(compact(body.length), body);
  }
  const statement = authorizationStatement(form, from, callData, extensions);
  const authorization =
    form === 'key-inline'
      ? concat(Uint8Array.of(AUTHORIZATION.keyInline), from, signatureWithKey(key, key.sign(statement, 'extensionKeyInline', options)))
      : concat(
          Uint8Array.of(AUTHORIZATION.keyRegistered),
          from,
          Uint8Array.of(FACTS[key.scheme].variant),
          key.sign(statement, 'extensionKeyRegistered', options),
        );
  const body = concat(Uint8Array.of(GENERAL_V5, EXTENSION_VERSION), authorization, explicitRest, callData);
  return concat(compact(body.length), body);
}

/** What the signed form signs: `call ‖ explicit ‖ implicit` of every extension (`AuthorizePq`
 * explicitly `None`), hashed with `blake2_256` when longer than 256 bytes. */
export function signedPayload(callData: Uint8Array, extensions: Extension[]): Uint8Array {
  const [, ...after] = checkedOrder(extensions);
  const payload = concat(
    callData,
    Uint8Array.of(AUTHORIZATION.none),
    ...after.map((extension) => extension.value),
    ...after.map((extension) => extension.additionalSigned),
  );
  return payload.length > 256 ? blake2_256(payload) : payload;
}

/** What a general form signs: `genesis ‖ form byte ‖ account ‖ blake2_256(implication)`,
 * the implication being `0 ‖ call ‖ explicit ‖ implicit` of the extensions after `AuthorizePq`. */
export function authorizationStatement(
  form: Exclude<Form, 'signed'>,
  account: Uint8Array,
  callData: Uint8Array,
  extensions: Extension[],
): Uint8Array {
  const [, ...after] = checkedOrder(extensions);
  const genesis = after.find((extension) => extension.identifier === 'CheckGenesis')?.additionalSigned;
  if (genesis?.length !== 32) throw new TransactionError('CheckGenesis must give the 32-byte genesis hash');
  const implication = concat(
    Uint8Array.of(EXTENSION_VERSION),
    callData,
    ...after.map((extension) => extension.value),
    ...after.map((extension) => extension.additionalSigned),
  );
  return concat(genesis, Uint8Array.of(STATEMENT_FORM[form]), account, blake2_256(implication));
}

/** `extensions`, once checked to start with `AuthorizePq`: the forms sign what follows it. */
function checkedOrder(extensions: Extension[]): Extension[] {
  if (extensions[0]?.identifier !== AUTHORIZE_PQ) {
    throw new TransactionError(`${AUTHORIZE_PQ} must be the first extension; got ${extensions.map((e) => e.identifier)}`);
  }
  return extensions;
}

/** `SignatureWithKey`: the scheme's variant, the key (ML-DSA; an Ed25519 key is the account),
 * the signature. */
function signatureWithKey(key: Keypair, signature: Uint8Array): Uint8Array {
  const publicKey = key.scheme === 'ed25519' ? new Uint8Array() : key.publicKey;
  return concat(Uint8Array.of(FACTS[key.scheme].variant), publicKey, signature);
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
 * client without polkadot-api's extension builder (polkadot.js, the reference vectors) signs.
 * Throws on an extension it does not know. */
export function extensionsFor(identifiers: string[], chain: ChainState): Extension[] {
  const empty = new Uint8Array();
  const era = chain.checkpoint ? mortalEra(MORTAL_PERIOD, chain.checkpoint.number) : Uint8Array.of(0);
  const known: Record<string, [Uint8Array, Uint8Array]> = {
    [AUTHORIZE_PQ]: [Uint8Array.of(AUTHORIZATION.none), empty],
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
