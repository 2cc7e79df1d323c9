// The reference vectors of docs/wire-format.md, made by the Rust builder: this package derives
// the same keys and accounts and, step by step, signs the same bytes.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { shake256 } from '@noble/hashes/sha3.js';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import {
  FACTS,
  FORM_PURPOSES,
  Keypair,
  PQ_REFUSALS,
  PURPOSES,
  SecretUriError,
  buildTransaction,
  compact,
  concat,
  extensionsFor,
  signingPayload,
  ss58Decode,
  transactionPayload,
  transactionStatement,
  verify,
  type Form,
  type Purpose,
  type Scheme,
} from '../src/index.js';
import { utf8 } from '../src/scale.js';

interface Transfer {
  scheme: string;
  form: string;
  sender_suri?: string;
  account_id: string;
  payload: string;
  signing_payload: string;
  message: string;
  /** ML-DSA only (Ed25519 signs transactions without a prefix): the FIPS 204 steps. */
  context?: string;
  m_prime?: string;
  tr?: string;
  mu?: string;
  /** The key that verifies, where the extrinsic does not carry it (registered, committee). */
  verifying_key?: string;
  /** Committee only: the committee id and the encoded signer bitfield. */
  committee?: string;
  signer_bitfield?: string;
  extrinsic: string;
}

interface Vectors {
  chain: {
    genesis_hash: string;
    spec_version: number;
    transaction_version: number;
    checkpoint: { number: number; hash: string };
    nonce: number;
    tip: string;
    extensions: string[];
  };
  call: { encoded: string };
  keys: { scheme: Scheme; seed?: string; suri?: string; public_key: string; account_id: string; address: string }[];
  transfers: Transfer[];
  /** A call whose payload is longer than 256 bytes, so it is signed as its hash. */
  long_payload: Transfer & { call: string };
  refusals: Record<string, string>;
}

const vectors: Vectors = JSON.parse(readFileSync(new URL('../../../../docs/wire-format-vectors.json', import.meta.url), 'utf8'));
const hex = (bytes: Uint8Array) => `0x${bytesToHex(bytes)}`;
const bytes = (text: string) => hexToBytes(text.slice(2));

/** The extensions' data every vector is signed with. */
const extensions = extensionsFor(vectors.chain.extensions, {
  genesisHash: bytes(vectors.chain.genesis_hash),
  specVersion: vectors.chain.spec_version,
  transactionVersion: vectors.chain.transaction_version,
  checkpoint: { number: vectors.chain.checkpoint.number, hash: bytes(vectors.chain.checkpoint.hash) },
  nonce: vectors.chain.nonce,
  tip: BigInt(vectors.chain.tip),
});
const call = bytes(vectors.call.encoded);
const explicit = concat(...extensions.map((extension) => extension.value));

/** The Rust builder's form labels. */
const FORM_LABELS: Record<string, Form | 'committee'> = { 'key inline': 'key-inline', registered: 'registered', committee: 'committee' };
const formOf = (vector: Transfer) => {
  const form = FORM_LABELS[vector.form];
  assert.ok(form, `unknown form ${vector.form}`);
  return form;
};
const name = (vector: Transfer) => `${vector.scheme} ${vector.form} for ${vector.account_id}`;

/** The signature bytes of `extrinsic`: those before the explicit data and the call. */
function signatureIn(extrinsic: Uint8Array, signatureBytes: number): Uint8Array {
  const end = extrinsic.length - explicit.length - call.length;
  return extrinsic.subarray(end - signatureBytes, end);
}

test('keys and accounts from seeds and secret URIs are the Rust ones', () => {
  assert.equal(vectors.keys.length, 8);
  for (const vector of vectors.keys) {
    const key = vector.seed ? Keypair.fromSeed(vector.scheme, bytes(vector.seed)) : Keypair.fromSuri(vector.scheme, vector.suri!);
    const name = `${vector.scheme} ${vector.seed ?? vector.suri}`;
    assert.equal(hex(key.publicKey), vector.public_key, name);
    assert.equal(hex(key.accountId()), vector.account_id, name);
    assert.equal(key.address(), vector.address, name);
    assert.equal(hex(ss58Decode(vector.address)), vector.account_id, name);
  }
});

test('every scheme and form signs, step by step, the bytes the Rust builder signs', () => {
  const covered = new Set<string>();
  for (const vector of vectors.transfers) {
    const form = formOf(vector);
    const account = bytes(vector.account_id);
    const payload = transactionPayload(call, extensions);
    assert.equal(hex(payload), vector.payload, name(vector));
    const signing = signingPayload(payload);
    assert.equal(hex(signing), vector.signing_payload, name(vector));
    if (form === 'committee') {
      // Committees sign with the Rust aggregator, a multi-party protocol this package does not
      // implement; their message and layout are still checked.
      const [committee, signers] = [bytes(vector.committee!), bytes(vector.signer_bitfield!)];
      assert.equal(hex(concat(committee, signers, signing)), vector.message, name(vector));
      assert.equal(vector.context, PURPOSES.transactionCommittee, name(vector));
      const signature = signatureIn(bytes(vector.extrinsic), FACTS['ml-dsa-87'].signatureBytes);
      const body = concat(Uint8Array.of(0x84, 0x00), account, Uint8Array.of(9), committee, signers, signature, explicit, call);
      assert.equal(hex(concat(compact(body.length), body)), vector.extrinsic, name(vector));
    } else {
      assert.equal(hex(transactionStatement(form, account, signing)), vector.message, name(vector));
      const scheme = vector.scheme as Scheme;
      if (scheme !== 'ed25519') assert.equal(vector.context, PURPOSES[FORM_PURPOSES[form]], name(vector));
      const sender = { key: Keypair.fromSuri(scheme, vector.sender_suri!), account };
      assert.equal(hex(buildTransaction(sender, form, call, extensions, { deterministic: true })), vector.extrinsic, name(vector));
    }
    covered.add(`${vector.scheme} ${form}`);
  }
  const expected = ['ed25519 key-inline', 'aggregate-ml-dsa-87 committee'];
  for (const scheme of ['ml-dsa-44', 'ml-dsa-65', 'ml-dsa-87']) expected.push(`${scheme} key-inline`, `${scheme} registered`);
  assert.deepEqual([...covered].sort(), expected.sort());
});

test('the Rust signatures verify here, after the FIPS 204 steps the vectors show', () => {
  let verified = 0;
  for (const vector of vectors.transfers) {
    const form = formOf(vector);
    const [scheme, purpose]: [Scheme, Purpose] =
      form === 'committee' ? ['ml-dsa-87', 'transactionCommittee'] : [vector.scheme as Scheme, FORM_PURPOSES[form]];
    const publicKey = vector.verifying_key ? bytes(vector.verifying_key) : Keypair.fromSuri(scheme, vector.sender_suri!).publicKey;
    const message = bytes(vector.message);
    if (scheme !== 'ed25519') {
      // FIPS 204 Algorithm 3: M′ = 0 ‖ |ctx| ‖ ctx ‖ M, tr = H(pk, 64), μ = H(tr ‖ M′, 64).
      const context = utf8(PURPOSES[purpose]);
      const mPrime = concat(Uint8Array.of(0, context.length), context, message);
      const tr = shake256(publicKey, { dkLen: 64 });
      assert.equal(hex(mPrime), vector.m_prime, name(vector));
      assert.equal(hex(tr), vector.tr, name(vector));
      assert.equal(hex(shake256(concat(tr, mPrime), { dkLen: 64 })), vector.mu, name(vector));
    }
    const signature = signatureIn(bytes(vector.extrinsic), FACTS[scheme].signatureBytes);
    assert.ok(verify(scheme, publicKey, message, purpose, signature), name(vector));
    assert.ok(!verify(scheme, publicKey, message, 'proofOfPossession', signature), `${name(vector)}: one purpose only`);
    verified++;
  }
  assert.equal(verified, vectors.transfers.length);
});

test('a payload longer than 256 bytes is signed as its blake2-256 hash, as in Rust', () => {
  const vector = vectors.long_payload;
  const longCall = bytes(vector.call);
  const payload = transactionPayload(longCall, extensions);
  assert.ok(payload.length > 256);
  assert.equal(hex(payload), vector.payload);
  assert.equal(hex(signingPayload(payload)), vector.signing_payload);
  assert.equal(bytes(vector.signing_payload).length, 32);
  const key = Keypair.fromSuri(vector.scheme as Scheme, vector.sender_suri!);
  assert.equal(hex(buildTransaction(key, 'key-inline', longCall, extensions, { deterministic: true })), vector.extrinsic);
});

test('secret URIs are refused with a named reason', () => {
  const refusal = (suri: string) => {
    try {
      Keypair.fromSuri('ml-dsa-44', suri);
    } catch (error) {
      assert.ok(error instanceof SecretUriError);
      return error.kind;
    }
    assert.fail(`${suri} was accepted`);
  };
  assert.equal(refusal('//Alice/soft'), 'SoftJunction');
  assert.equal(refusal('not a mnemonic at all//Alice'), 'InvalidPhrase');
  assert.equal(refusal('0x1234'), 'InvalidPhrase');
  assert.equal(refusal('Alice//'), 'InvalidUri');
  // An unset variable in `ml-dsa-44:$SECRET` would otherwise be the public dev phrase's key.
  assert.equal(refusal(''), 'NoSecret');
  assert.equal(refusal('///password'), 'NoSecret');
  assert.equal(refusal(`0x${'11'.repeat(32)}///password`), 'PasswordOnSeed');
});

test('a key signs for another account only in the registered form, which Ed25519 has not', () => {
  const key = Keypair.fromSuri('ml-dsa-44', '//Alice');
  const ed25519 = Keypair.fromSuri('ed25519', '//Alice');
  assert.throws(() => buildTransaction({ key, account: ed25519.accountId() }, 'key-inline', call, extensions), /registered form/);
  assert.throws(() => buildTransaction(ed25519, 'registered', call, extensions), /never registered/);
});

test('a placeholder signature has the variant and size of the real one, and signs nothing', () => {
  for (const scheme of ['ed25519', 'ml-dsa-87'] as const) {
    const key = Keypair.fromSuri(scheme, '//Alice');
    const real = buildTransaction(key, 'key-inline', call, extensions);
    const placeholder = buildTransaction(key, 'key-inline', call, extensions, { placeholder: true });
    const zeroed = real.slice();
    signatureIn(zeroed, FACTS[scheme].signatureBytes).fill(0);
    assert.deepEqual(placeholder, zeroed, scheme);
  }
});

test("the pallet's refusal codes are named as the Rust enum names them", () => {
  assert.deepEqual(
    Object.fromEntries(Object.entries(PQ_REFUSALS).map(([code, name]) => [String(code), name])),
    vectors.refusals,
  );
});
