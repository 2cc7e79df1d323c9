// Post-quantum account ids are never classical keys: derived as docs/wire-format.md specifies,
// step by step as the Rust vectors show, and refused by noble-curves' own Ed25519 (ZIP 215,
// the most permissive) and Ristretto255 (sr25519) decoders.

import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { ed25519, ristretto255 } from '@noble/curves/ed25519.js';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import { accountIdOf, decodesAsEdwardsPoint, deriveAccountId, type Scheme } from '../src/index.js';
import { utf8 } from '../src/scale.js';

interface Derivation {
  tag: string;
  seed: string;
  candidates: { candidate: string; edwards25519_point: boolean }[];
  account_id: string;
}

const vectors: {
  keys: { scheme: Scheme; public_key: string; account_id: string; account_derivation?: Derivation }[];
  transfers: { form: string; committee_seed?: string; account_derivation?: Derivation }[];
} = JSON.parse(readFileSync(new URL('../../../../docs/wire-format-vectors.json', import.meta.url), 'utf8'));
const hex = (bytes: Uint8Array) => `0x${bytesToHex(bytes)}`;
const bytes = (text: string) => hexToBytes(text.slice(2));

const isEd25519Key = (id: Uint8Array) => {
  try {
    ed25519.Point.fromBytes(id, true);
    return true;
  } catch {
    return false;
  }
};
const isSr25519Key = (id: Uint8Array) => {
  try {
    ristretto255.Point.fromBytes(id);
    return true;
  } catch {
    return false;
  }
};

test('account ids are derived step by step as the Rust vectors show', () => {
  const committee = vectors.transfers.find((transfer) => transfer.form === 'committee')?.account_derivation;
  const derivations = [...vectors.keys.flatMap((key) => key.account_derivation ?? []), committee!];
  assert.equal(derivations.length, 7, 'six ML-DSA keys and a committee');
  for (const derivation of derivations) {
    const last = derivation.candidates.at(-1)!;
    assert.equal(last.candidate, derivation.account_id);
    for (const { candidate, edwards25519_point } of derivation.candidates) {
      assert.equal(decodesAsEdwardsPoint(bytes(candidate)), edwards25519_point, candidate);
      assert.equal(isEd25519Key(bytes(candidate)), edwards25519_point, `noble-curves on ${candidate}`);
    }
  }
  for (const key of vectors.keys.filter((key) => key.account_derivation)) {
    const { tag, account_id } = key.account_derivation!;
    assert.equal(hex(deriveAccountId(utf8(tag), bytes(key.public_key))), account_id);
    assert.equal(hex(accountIdOf(key.scheme, bytes(key.public_key))), key.account_id);
  }
});

test('no account id of 3,000 random ML-DSA keys is an Ed25519 or sr25519 key', () => {
  const sizes = { 'ml-dsa-44': 1312, 'ml-dsa-65': 1952, 'ml-dsa-87': 2592 } as const;
  for (const [scheme, size] of Object.entries(sizes) as [Scheme, number][]) {
    for (let i = 0; i < 1000; i++) {
      const id = accountIdOf(scheme, randomBytes(size));
      assert.ok(!isEd25519Key(id), `${scheme}: ${hex(id)} decodes as an Ed25519 key`);
      assert.ok(!isSr25519Key(id), `${scheme}: ${hex(id)} decodes as an sr25519 key`);
    }
  }
});

test('the point rule is noble-curves ZIP 215 decoding, on random bytes and at y = ±1', () => {
  for (let i = 0; i < 2000; i++) {
    const candidate = randomBytes(32);
    assert.equal(decodesAsEdwardsPoint(candidate), isEd25519Key(candidate), hex(candidate));
  }
  const one = new Uint8Array(32);
  one[0] = 1;
  const signedOne = one.slice();
  signedOne[31] = 0x80;
  for (const edge of [one, signedOne]) assert.equal(decodesAsEdwardsPoint(edge), isEd25519Key(edge), hex(edge));
});
