// The reference vectors of docs/wire-format.md, made by the Rust builder: this package derives
// the same keys and accounts and signs the same bytes.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import {
  buildTransaction,
  extensionsFor,
  FORMS,
  Keypair,
  PQ_REFUSALS,
  authorizationStatement,
  signedPayload,
  verify,
  SecretUriError,
  ss58Decode,
  FACTS,
  type Form,
  type Scheme,
} from '../src/index.js';

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
  transfers: { scheme: string; form: string; sender_suri?: string; account_id: string; extrinsic: string }[];
  refusals: Record<string, string>;
}

const vectors: Vectors = JSON.parse(readFileSync(new URL('../../../../docs/wire-format-vectors.json', import.meta.url), 'utf8'));
const hex = (bytes: Uint8Array) => `0x${bytesToHex(bytes)}`;
const bytes = (text: string) => hexToBytes(text.slice(2));
/** The extensions' data every vector is signed with. */
function vectorExtensions() {
  const { chain } = vectors;
  return extensionsFor(chain.extensions, {
    genesisHash: bytes(chain.genesis_hash),
    specVersion: chain.spec_version,
    transactionVersion: chain.transaction_version,
    checkpoint: { number: chain.checkpoint.number, hash: bytes(chain.checkpoint.hash) },
    nonce: chain.nonce,
    tip: BigInt(chain.tip),
  });
}

/** The Rust builder's form labels. */
const FORM_LABELS: Record<string, Form> = { signed: 'signed', 'key inline': 'key-inline', registered: 'registered' };

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

test('every scheme and form signs the bytes the Rust builder signs', () => {
  const extensions = vectorExtensions();
  const covered = new Set<string>();
  for (const vector of vectors.transfers) {
    const form = FORM_LABELS[vector.form];
    if (form === undefined) {
      // Committees sign with the Rust aggregator (a multi-party protocol this package does not implement).
      assert.equal(vector.form, 'committee');
      continue;
    }
    const key = Keypair.fromSuri(vector.scheme as Scheme, vector.sender_suri!);
    const sender = { key, account: bytes(vector.account_id) };
    const extrinsic = buildTransaction(sender, form, bytes(vectors.call.encoded), extensions, { deterministic: true });
    assert.equal(hex(extrinsic), vector.extrinsic, `${vector.scheme} ${vector.form} for ${vector.account_id}`);
    covered.add(`${vector.scheme} ${form}`);
  }
  for (const form of FORMS) {
    for (const scheme of ['ml-dsa-44', 'ml-dsa-65', 'ml-dsa-87']) assert.ok(covered.has(`${scheme} ${form}`), `${scheme} ${form}`);
  }
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
});

test('a key signs for another account only in the registered form', () => {
  const key = Keypair.fromSuri('ml-dsa-44', '//Alice');
  const other = Keypair.fromSuri('ed25519', '//Alice').accountId();
  const extensions = extensionsFor(vectors.chain.extensions, {
    genesisHash: bytes(vectors.chain.genesis_hash),
    specVersion: 1,
    transactionVersion: 1,
    nonce: 0,
  });
  for (const form of ['signed', 'key-inline'] as const) {
    assert.throws(() => buildTransaction({ key, account: other }, form, bytes(vectors.call.encoded), extensions), /registered form/);
  }
});

test("the pallet's refusal codes are named as the Rust enum names them", () => {
  assert.deepEqual(
    Object.fromEntries(Object.entries(PQ_REFUSALS).map(([code, name]) => [String(code), name])),
    vectors.refusals,
  );
});

test('the Rust signatures in the vectors verify here, over the bytes each form signs', () => {
  const extensions = vectorExtensions();
  const call = bytes(vectors.call.encoded);
  let verified = 0;
  for (const vector of vectors.transfers) {
    const form = FORM_LABELS[vector.form];
    if (form === undefined || vector.scheme === 'ed25519') continue;
    const scheme = vector.scheme as Scheme;
    const { publicKeyBytes, signatureBytes } = FACTS[scheme];
    const extrinsic = bytes(vector.extrinsic);
    // The signature comes right before the explicit data (in the signed form with
    // `AuthorizePq`'s byte) and the call, both of known length here.
    const explicitRest = extensions.slice(1).reduce((sum, extension) => sum + extension.value.length, 0);
    const tail = (form === 'signed' ? 1 : 0) + explicitRest + call.length;
    const signature = extrinsic.subarray(extrinsic.length - tail - signatureBytes, extrinsic.length - tail);
    const publicKey = Keypair.fromSuri(scheme, vector.sender_suri!).publicKey;
    assert.equal(publicKey.length, publicKeyBytes);
    const [message, purpose] =
      form === 'signed'
        ? [signedPayload(call, extensions), 'transaction' as const]
        : [
            authorizationStatement(form, bytes(vector.account_id), call, extensions),
            form === 'key-inline' ? ('extensionKeyInline' as const) : ('extensionKeyRegistered' as const),
          ];
    assert.ok(verify(scheme, publicKey, message, purpose, signature), `${vector.scheme} ${vector.form}`);
    assert.ok(!verify(scheme, publicKey, message, 'proofOfPossession', signature), `${vector.scheme} ${vector.form}: one purpose only`);
    verified++;
  }
  assert.equal(verified, 10);
});
