// Transactions, byte for byte as the runtime decodes and verifies them (docs/wire-format.md).
// Every form is an ordinary signed (v4) extrinsic: the form and the scheme are the variant of
// its signature (`TransactionSignature`), which stock clients read from the metadata, and every
// form signs the standard signed payload stock wallets sign.

import { Keypair, signTransactionStatement, type SignOptions } from './keys.js';
import { compact, concat, equalBytes, littleEndian } from './scale.js';
import { FACTS } from './schemes.js';
import { checkForm, FORMS, FORM_PURPOSES, signingPayload, transactionStatement, type Form } from './statement.js';

export { FORMS, FORM_PURPOSES, signingPayload, transactionStatement, type Form };

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
  /** Sign an immortal transaction (era `0x00`), which can be replayed whenever its account's
   * nonce comes back to it (the account reaped and funded again): refused unless set. */
  allowImmortal?: boolean;
}

/** `0x84`: extrinsic format 4, signed. */
const SIGNED_V4 = 0x84;
/** `MultiAddress::Id`. */
const ADDRESS_ID = 0;

/** Why an immortal transaction is not signed unless asked for. */
export const IMMORTAL_REFUSAL =
  'an immortal transaction can be replayed once its account is reaped and funded again: sign a mortal one, or set allowImmortal';

/** Why a transaction could not be built. */
export class TransactionError extends Error {
  override name = 'TransactionError';
}

/** The account `sender` sends from. */
export function senderAccount(sender: Keypair | Sender): Uint8Array {
  if (sender instanceof Keypair) return sender.accountId();
  if (!(sender?.key instanceof Keypair)) throw new TransactionError('a sender is a Keypair, or { key: Keypair, account? }');
  if (sender.account === undefined) return sender.key.accountId();
  if (!(sender.account instanceof Uint8Array) || sender.account.length !== 32) {
    throw new TransactionError("a sender's account is a 32-byte account id");
  }
  return new Uint8Array(sender.account);
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
  checkExplicitData(extensions, options.allowImmortal ?? false);
  const signature = signTransaction(sender, form, transactionPayload(callData, extensions), options);
  const explicit = extensions.map((extension) => extension.value);
  const body = concat(Uint8Array.of(SIGNED_V4, ADDRESS_ID), senderAccount(sender), signature, ...explicit, callData);
  return concat(compact(body.length), body);
}

/** The stock extensions that put data into the transaction, in the order every FRAME runtime
 * (this one too) has them. */
const WITH_EXPLICIT_DATA = ['CheckMortality', 'CheckNonce', 'ChargeTransactionPayment'];

/** Checks the explicit data of the extensions, which the chain decodes as one run of bytes in
 * its own order: a byte moved from one extension's data into another's (`CheckMortality` empty
 * after a `CheckGenesis` of `0x00`), or the extensions named in another order (by metadata a
 * site supplies), would be read as an immortal era that nothing here saw. So: each extension
 * once; the stock ones' data well formed and in the stock order; no data for any other; and
 * the run starts with a mortal era unless `allowImmortal`. */
function checkExplicitData(extensions: Extension[], allowImmortal: boolean): void {
  const identifiers = extensions.map((extension) => extension.identifier);
  if (new Set(identifiers).size !== identifiers.length) throw new TransactionError('an extension is named twice');
  const withData = identifiers.filter((identifier) => WITH_EXPLICIT_DATA.includes(identifier));
  if (withData.join() !== WITH_EXPLICIT_DATA.join()) {
    throw new TransactionError(`the extensions that carry data are ${WITH_EXPLICIT_DATA.join(', ')}, in that order`);
  }
  const run = concat(...extensions.map((extension) => extension.value));
  if (run[0] === 0 && !allowImmortal) throw new TransactionError(IMMORTAL_REFUSAL);
  for (const { identifier, value } of extensions) {
    if (!WITH_EXPLICIT_DATA.includes(identifier) && value.length !== 0) {
      throw new TransactionError(`${identifier} puts no data into the transaction`);
    }
    if (identifier === 'CheckMortality') {
      const immortal = value.length === 1 && value[0] === 0;
      if (immortal && !allowImmortal) throw new TransactionError(IMMORTAL_REFUSAL);
      if (!immortal && !(value.length === 2 && value[0] !== 0)) {
        throw new TransactionError('CheckMortality data is an era: 0x00 (immortal) or two bytes');
      }
    }
    if ((identifier === 'CheckNonce' || identifier === 'ChargeTransactionPayment') && compactLength(value) !== value.length) {
      throw new TransactionError(`${identifier} data is one compact integer`);
    }
  }
}

/** The length of the SCALE compact integer `bytes` starts with (0 for none). */
function compactLength(bytes: Uint8Array): number {
  if (bytes.length === 0) return 0;
  const mode = bytes[0]! & 3;
  return mode === 0 ? 1 : mode === 1 ? 2 : mode === 2 ? 4 : (bytes[0]! >> 2) + 5;
}

/** The standard signed payload: `call ‖ explicit ‖ implicit` of every extension, in order. */
export function transactionPayload(callData: Uint8Array, extensions: Extension[]): Uint8Array {
  return concat(
    callData,
    ...extensions.map((extension) => extension.value),
    ...extensions.map((extension) => extension.additionalSigned),
  );
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

/** Signs the transaction of `payload` (the standard signed payload, `call ‖ explicit ‖
 * implicit`, unhashed: {@link signingPayload} is applied here, so a payload as short as a hash
 * is refused) from `sender` in `form`: the encoded `TransactionSignature`, the extrinsic's
 * signature. */
export function signTransaction(
  sender: Keypair | Sender,
  form: Form,
  payload: Uint8Array,
  options: TransactionOptions = {},
): Uint8Array {
  checkForm(form);
  if (!(payload instanceof Uint8Array)) throw new TransactionError('a payload is bytes');
  const key = sender instanceof Keypair ? sender : sender.key;
  const account = senderAccount(sender);
  if (form === 'key-inline' && !equalBytes(account, key.accountId())) {
    throw new TransactionError('only the registered form signs for an account the key does not derive');
  }
  // A placeholder signs nothing, and refuses what a signature would.
  const signature = options.placeholder
    ? (signingPayload(payload), new Uint8Array(FACTS[key.scheme].signatureBytes))
    : signTransactionStatement(key, form, account, new Uint8Array(payload), options);
  return transactionSignature(key, form, signature);
}

/** What the runtime's extensions need from the chain for one transaction. */
export interface ChainState {
  genesisHash: Uint8Array;
  specVersion: number;
  transactionVersion: number;
  /** A recent finalized block the transaction is valid from, for {@link MORTAL_PERIOD}
   * blocks; `undefined` makes an immortal transaction, which the builder signs only with
   * `allowImmortal` (see docs/security.md). */
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
  const hash = (value: unknown, what: string): Uint8Array => {
    if (!(value instanceof Uint8Array) || value.length !== 32) throw new TransactionError(`${what} is a 32-byte hash`);
    return new Uint8Array(value);
  };
  chain = {
    ...chain,
    genesisHash: hash(chain.genesisHash, 'the genesis hash'),
    checkpoint: chain.checkpoint && { number: chain.checkpoint.number, hash: hash(chain.checkpoint.hash, "the checkpoint's hash") },
  };
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
