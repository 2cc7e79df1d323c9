// Keys of every scheme, from 32-byte seeds and from Substrate secret URIs, exactly as pq-cli
// and `pq_signer::signing::Keypair` derive them; account ids and SS58 addresses.

import { ed25519 } from '@noble/curves/ed25519.js';
import { blake2b } from '@noble/hashes/blake2.js';
import { pbkdf2 } from '@noble/hashes/pbkdf2.js';
import { sha512 } from '@noble/hashes/sha2.js';
import { hexToBytes } from '@noble/hashes/utils.js';
import { ml_dsa44, ml_dsa65, ml_dsa87 } from '@noble/post-quantum/ml-dsa.js';
import { base58 } from '@scure/base';
import { mnemonicToEntropy } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english.js';
import { deriveAccountId } from './account.js';
import { blake2_256, concat, lengthPrefixed, littleEndian, utf8 } from './scale.js';
import { context, ed25519Prefix, FACTS, PURPOSES, SCHEMES, SS58_PREFIX, type Purpose, type Scheme } from './schemes.js';
import { checkForm, FORM_PURPOSES, signingPayload, transactionStatement, type Form } from './statement.js';

/** The phrase of `//Alice` and every other secret URI without one (sp-core's `DEV_PHRASE`). */
export const DEV_PHRASE = 'bottom drive obey lake curtain smoke basket hold race lonely fit walk';

/** Why a secret URI gave no key. */
export class SecretUriError extends Error {
  constructor(
    readonly kind: 'InvalidUri' | 'InvalidPhrase' | 'SoftJunction' | 'NoSecret' | 'PasswordOnSeed',
    message: string,
  ) {
    super(message);
    this.name = 'SecretUriError';
  }
}

const ML_DSA = { 'ml-dsa-44': ml_dsa44, 'ml-dsa-65': ml_dsa65, 'ml-dsa-87': ml_dsa87 } as const;

/** Signing options. */
export interface SignOptions {
  /** FIPS 204 deterministic signing (`rnd = 0³²`), for reference vectors; hedged otherwise.
   * Ed25519 is deterministic either way. */
  deterministic?: boolean;
}

/** The purposes whose signatures authorize a transaction: only {@link signTransactionStatement}
 * signs for them, from the unhashed payload it checks. */
const TRANSACTION_PURPOSES: readonly Purpose[] = ['transaction', 'transactionKeyRegistered', 'transactionCommittee'];

/** Set by `Keypair`'s static block: the one way to its private signing. */
let signWithKey: (key: Keypair, message: Uint8Array, purpose: Purpose, options: SignOptions) => Uint8Array;

/** Signs the statement of a transaction of `payload` (unhashed: {@link signingPayload} is
 * applied here, refusing one as short as a hash) from `account` in `form`. For
 * `signTransaction`; not exported from the package. */
export function signTransactionStatement(key: Keypair, form: Form, account: Uint8Array, payload: Uint8Array, options: SignOptions): Uint8Array {
  checkForm(form);
  return signWithKey(key, transactionStatement(form, account, signingPayload(payload)), FORM_PURPOSES[form], options);
}

/** Refuses a purpose this package does not know (an empty context, or Ed25519's transaction
 * prefix, otherwise). */
function checkPurpose(purpose: Purpose): void {
  // A string only: an object's `toString` could name one purpose to the check and another to
  // the signing.
  if (typeof purpose !== 'string' || !Object.hasOwn(PURPOSES, purpose)) throw new TypeError(`unknown purpose: one of ${Object.keys(PURPOSES).join(', ')}`);
}

/** A signing key of one scheme. Its secret is a private field: `JSON.stringify` and
 * `console.log` show the scheme and address, structured clones the scheme and public key. */
export class Keypair {
  readonly #secretKey: Uint8Array;

  private constructor(
    readonly scheme: Scheme,
    readonly publicKey: Uint8Array,
    secretKey: Uint8Array,
  ) {
    this.#secretKey = secretKey;
  }

  /** The key of a 32-byte seed: FIPS 204 `KeyGen_internal(ξ)` for ML-DSA, the RFC 8032 secret
   * key for Ed25519. */
  static fromSeed(scheme: Scheme, seed: Uint8Array): Keypair {
    if (!SCHEMES.includes(scheme)) throw new TypeError(`unknown scheme: one of ${SCHEMES.join(', ')}`);
    if (!(seed instanceof Uint8Array) || seed.length !== 32) throw new RangeError('a seed is 32 bytes');
    if (scheme === 'ed25519') return new Keypair(scheme, ed25519.getPublicKey(seed), seed.slice());
    const { publicKey, secretKey } = ML_DSA[scheme].keygen(seed);
    return new Keypair(scheme, publicKey, secretKey);
  }

  /** The key of a Substrate secret URI — `//Alice`, `<mnemonic>//hard//path///password` or a
   * `0x` seed — as pq-cli derives it: Ed25519 keys are sp-core's (so `//Alice` is the
   * well-known dev account); ML-DSA seeds follow the same hard derivation under the tag
   * `"MlDsaHDKD"`. */
  static fromSuri(scheme: Scheme, suri: string): Keypair {
    const parsed = /^([a-zA-Z0-9 ]+)?((?:\/\/?[^/]+)*)(?:\/\/\/([^\n]*))?$/.exec(suri);
    if (!parsed) throw new SecretUriError('InvalidUri', 'not a secret URI');
    const [, givenPhrase, path = '', password] = parsed;
    // A missing phrase is the public development phrase: only `//Alice`-style dev keys name it
    // on purpose, by a junction. An empty URI is a mistake (an unset variable), not a key.
    if (givenPhrase === undefined && path === '') {
      throw new SecretUriError('NoSecret', 'no phrase, seed or //junction: that would be the public development key');
    }
    const phrase = givenPhrase ?? DEV_PHRASE;
    if (phrase.startsWith('0x') && password !== undefined) {
      throw new SecretUriError('PasswordOnSeed', 'a 0x seed takes no ///password');
    }
    let seed = rootSeed(phrase, password);
    const tag = lengthPrefixed(utf8(scheme === 'ed25519' ? 'Ed25519HDKD' : 'MlDsaHDKD'));
    for (const [, junction] of path.matchAll(/\/(\/?[^/]+)/g)) {
      if (!junction!.startsWith('/')) {
        throw new SecretUriError('SoftJunction', `soft derivation (/name) is undefined for ${scheme}; use //`);
      }
      seed = blake2_256(concat(tag, seed, chainCode(junction!.slice(1))));
    }
    return Keypair.fromSeed(scheme, seed);
  }

  /** The account this key controls: an Ed25519 key itself, or derived from `tag ‖ key`
   * ({@link deriveAccountId}), never an Ed25519 or sr25519 key. */
  accountId(): Uint8Array {
    return accountIdOf(this.scheme, this.publicKey);
  }

  /** The SS58 address of {@link accountId}. */
  address(prefix = SS58_PREFIX): string {
    return ss58Encode(this.accountId(), prefix);
  }

  /** Signs `message` for `purpose` — a proof of possession; transactions are signed by
   * `buildTransaction` and the signers, which check what they sign: FIPS 204 ML-DSA.Sign with the purpose's
   * context, or Ed25519 over the purpose's prefix and the message. */
  sign(message: Uint8Array, purpose: Purpose, options: SignOptions = {}): Uint8Array {
    checkPurpose(purpose);
    if (TRANSACTION_PURPOSES.includes(purpose)) {
      throw new TypeError('a transaction is signed by buildTransaction or a signer, which check its payload');
    }
    return this.#sign(message, purpose, options);
  }

  #sign(message: Uint8Array, purpose: Purpose, options: SignOptions): Uint8Array {
    checkPurpose(purpose);
    if (this.scheme === 'ed25519') return ed25519.sign(concat(ed25519Prefix(purpose), message), this.#secretKey);
    const extraEntropy = options.deterministic ? (false as const) : undefined;
    return ML_DSA[this.scheme].sign(message, this.#secretKey, { context: context(purpose), extraEntropy });
  }

  static {
    signWithKey = (key, message, purpose, options) => key.#sign(message, purpose, options);
  }

  /** What `JSON.stringify` shows: the scheme and address, never the secret. */
  toJSON(): { scheme: Scheme; address: string } {
    return { scheme: this.scheme, address: this.address() };
  }

  /** What Node.js' `console.log` and `util.inspect` show. */
  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return `Keypair { ${this.scheme} ${this.address()} }`;
  }
}

/** Whether `signature` by the `scheme` key `publicKey` covers `message` for `purpose`, as
 * {@link Keypair.sign} signs (Ed25519 under RFC 8032's rules; the chain's are stricter still,
 * see docs/security.md). */
export function verify(scheme: Scheme, publicKey: Uint8Array, message: Uint8Array, purpose: Purpose, signature: Uint8Array): boolean {
  checkPurpose(purpose);
  if (scheme === 'ed25519') return ed25519.verify(signature, concat(ed25519Prefix(purpose), message), publicKey, { zip215: false });
  return ML_DSA[scheme].verify(signature, message, publicKey, { context: context(purpose) });
}

/** The account id a public key of `scheme` controls. */
export function accountIdOf(scheme: Scheme, publicKey: Uint8Array): Uint8Array {
  const { accountTag, publicKeyBytes } = FACTS[scheme];
  if (publicKey.length !== publicKeyBytes) throw new RangeError(`a ${scheme} key is ${publicKeyBytes} bytes`);
  return accountTag ? deriveAccountId(accountTag, publicKey) : publicKey.slice();
}

/** A BIP-39 mnemonic's seed as Substrate computes it (substrate-bip39: PBKDF2 over the
 * entropy, not the words), or a `0x` hex seed (which takes no password). */
function rootSeed(phrase: string, password: string | undefined): Uint8Array {
  if (phrase.startsWith('0x')) {
    let seed: Uint8Array;
    try {
      seed = hexToBytes(phrase.slice(2));
    } catch {
      throw new SecretUriError('InvalidPhrase', 'a 0x seed must be hex');
    }
    if (seed.length !== 32) throw new SecretUriError('InvalidPhrase', 'a 0x seed is 32 bytes');
    return seed;
  }
  let entropy: Uint8Array;
  try {
    entropy = mnemonicToEntropy(phrase.trim().split(/\s+/).join(' '), wordlist);
  } catch {
    throw new SecretUriError('InvalidPhrase', 'neither a BIP-39 mnemonic nor a 0x seed');
  }
  return pbkdf2(sha512, entropy, utf8(`mnemonic${password ?? ''}`), { c: 2048, dkLen: 64 }).slice(0, 32);
}

/** sp-core's `DeriveJunction` chain code: a number as a little-endian `u64`, anything else as
 * a SCALE string; hashed when longer than 32 bytes, else zero-padded. */
function chainCode(junction: string): Uint8Array {
  const encoded =
    /^\+?\d+$/.test(junction) && BigInt(junction) < 1n << 64n
      ? littleEndian(BigInt(junction), 8)
      : lengthPrefixed(utf8(junction));
  if (encoded.length > 32) return blake2_256(encoded);
  const code = new Uint8Array(32);
  code.set(encoded);
  return code;
}

const SS58_CONTEXT = utf8('SS58PRE');

/** The SS58 address of a 32-byte account id. */
export function ss58Encode(accountId: Uint8Array, prefix = SS58_PREFIX): string {
  if (accountId.length !== 32) throw new RangeError('an account id is 32 bytes');
  if (!Number.isInteger(prefix) || prefix < 0 || prefix > 16383) throw new RangeError('an SS58 prefix is 0 to 16383');
  const format =
    prefix < 64 ? Uint8Array.of(prefix) : Uint8Array.of(((prefix & 0xfc) >> 2) | 0x40, (prefix >> 8) | ((prefix & 0x03) << 6));
  const body = concat(format, accountId);
  return base58.encode(concat(body, ss58Checksum(body)));
}

/** The account id of an SS58 address (any prefix); throws on a bad checksum. */
export function ss58Decode(address: string): Uint8Array {
  const bytes = base58.decode(address);
  // sp-core's rule: a first byte of 0x80 or more is no address format (`InvalidPrefix`).
  if (bytes.length === 0 || bytes[0]! >= 0x80) throw new RangeError('not an SS58 address: bad format byte');
  const formatLength = (bytes[0]! & 0x40) !== 0 ? 2 : 1;
  if (bytes.length !== formatLength + 32 + 2) throw new RangeError('not an SS58 address of a 32-byte account');
  const body = bytes.subarray(0, formatLength + 32);
  const checksum = ss58Checksum(body);
  if (checksum[0] !== bytes[formatLength + 32] || checksum[1] !== bytes[formatLength + 33]) {
    throw new RangeError('bad SS58 checksum');
  }
  return body.slice(formatLength);
}

function ss58Checksum(body: Uint8Array): Uint8Array {
  return blake2b(concat(SS58_CONTEXT, body), { dkLen: 64 }).subarray(0, 2);
}
