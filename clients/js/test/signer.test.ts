// What the polkadot-api signer will and will not sign.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { inspect } from 'node:util';
import { bytesToHex } from '@noble/hashes/utils.js';
import { ml_dsa44 } from '@noble/post-quantum/ml-dsa.js';
import { base58 } from '@scure/base';
import {
  assertSecureEndpoint,
  FORMS,
  Keypair,
  TransactionError,
  verify,
  PURPOSES,
  buildTransaction,
  compact,
  extensionsFor,
  signingPayload,
  ss58Decode,
  type Form,
  type Purpose,
  type Scheme,
} from '../src/index.js';
import { signTransaction } from '../src/extrinsic.js';
import { pqSigner } from '../src/papi.js';

test('a site asking signBytes for arbitrary bytes gets no signature', async () => {
  // The bytes a site presents could be a transaction payload; a signature of them under the
  // transaction purpose would be a transaction signature the user never approved.
  const key = Keypair.fromSuri('ml-dsa-44', '//Alice');
  for (const form of FORMS) {
    await assert.rejects(pqSigner(key, form).signBytes(new Uint8Array([1, 2, 3])), /sign transactions only/);
  }
});

test("the signer's public key is the sending account, which polkadot-api reads the nonce of", () => {
  const key = Keypair.fromSuri('ml-dsa-87', '//Alice');
  assert.deepEqual(pqSigner(key, 'key-inline').publicKey, key.accountId());
  const migrated = Keypair.fromSuri('ed25519', '//Alice').accountId();
  assert.deepEqual(pqSigner({ key, account: migrated }, 'registered').publicKey, migrated);
});

test('no signer signs a payload as short as a hash, which could stand for another, long one', () => {
  // A payload over 256 bytes is signed as its blake2_256: 32 bytes signed as they are would be
  // that payload's signature. A real payload carries its chain's implicit data, over 70 bytes.
  for (const length of [0, 31, 32]) {
    assert.throws(() => signingPayload(new Uint8Array(length)), /as short as a hash/);
  }
  assert.equal(signingPayload(new Uint8Array(33)).length, 33);
});

/** A payload of a real transaction's length (over a hash's). */
const payload = new Uint8Array(100).fill(7);
const chain = { genesisHash: new Uint8Array(32), specVersion: 1, transactionVersion: 1, nonce: 0 };
const identifiers = ['CheckSpecVersion', 'CheckTxVersion', 'CheckGenesis', 'CheckMortality', 'CheckNonce', 'ChargeTransactionPayment'];

test("a keypair's secret appears in no JSON, inspection or clone", () => {
  const seed = new Uint8Array(32).fill(0xa5);
  for (const scheme of ['ed25519', 'ml-dsa-44'] as const) {
    const key = Keypair.fromSeed(scheme, seed);
    const shown = [JSON.stringify(key), inspect(key), inspect({ sender: key }, { depth: 5 }), JSON.stringify({ ...key })];
    // The secret the key holds: the seed (Ed25519), the expanded key (ML-DSA) — past its first
    // 32 bytes, ρ, which the public key starts with too.
    const secret = scheme === 'ed25519' ? seed : ml_dsa44.keygen(seed).secretKey;
    const from = scheme === 'ed25519' ? 0 : 32;
    const forms = [
      bytesToHex(secret.subarray(from)),
      secret.subarray(from, from + 4).join(', '),
      `"${from}":${secret[from]},"${from + 1}":${secret[from + 1]}`,
    ];
    for (const text of shown) {
      for (const form of forms) assert.ok(!text.includes(form), `${scheme}: ${text}`);
    }
    assert.deepEqual(JSON.parse(JSON.stringify(key)), { scheme, address: key.address() });
    assert.deepEqual(Object.keys(structuredClone(key)).sort(), ['publicKey', 'scheme']);
  }
});

test('signTransaction refuses a payload as short as a hash, and Keypair.sign every transaction purpose', () => {
  // A wallet handed "the signing payload" of a long transaction — its blake2_256 — would sign
  // that transaction: signTransaction hashes, so it is handed the payload and refuses 32 bytes.
  const key = Keypair.fromSuri('ml-dsa-44', '//Alice');
  for (const form of FORMS) {
    assert.throws(() => signTransaction(key, form, new Uint8Array(32)), /as short as a hash/);
    assert.ok(signTransaction(key, form, payload).length > 2420);
  }
  for (const purpose of ['transaction', 'transactionKeyRegistered', 'transactionCommittee'] as const) {
    assert.throws(() => key.sign(new Uint8Array(32), purpose), /signed by buildTransaction or a signer/);
  }
  assert.equal(key.sign(payload, 'proofOfPossession').length, 2420);
});

test('an unknown purpose or form signs nothing', () => {
  // An unknown purpose was an empty context, and for Ed25519 the transaction purpose's empty
  // prefix: a mistyped purpose made a transaction signature.
  for (const scheme of ['ed25519', 'ml-dsa-44'] as Scheme[]) {
    const key = Keypair.fromSuri(scheme, '//Alice');
    for (const purpose of ['bogus', 'toString', '__proto__']) {
      assert.throws(() => key.sign(payload, purpose as Purpose), /unknown purpose/, `${scheme} ${purpose}`);
    }
    // An object naming one purpose to the check and another to the signing is no purpose.
    let asked = 0;
    const shifty = { toString: () => (asked++ < 2 ? 'proofOfPossession' : 'transaction') } as unknown as Purpose;
    assert.throws(() => key.sign(new Uint8Array(32), shifty), /unknown purpose/, scheme);
    assert.throws(() => verify(scheme, key.publicKey, payload, 'bogus' as Purpose, new Uint8Array(64)), /unknown purpose/);
    for (const form of ['committee', 'toString', '']) {
      assert.throws(() => signTransaction(key, form as Form, payload), /unknown form/, `${scheme} ${form}`);
    }
  }
  assert.equal(Object.keys(PURPOSES).length, 4);
});

test('the builder refuses an immortal era unless allowed, and data moved between extensions', () => {
  const key = Keypair.fromSuri('ml-dsa-44', '//Alice');
  const immortal = extensionsFor(identifiers, chain);
  assert.deepEqual(immortal.find((extension) => extension.identifier === 'CheckMortality')!.value, Uint8Array.of(0));
  assert.throws(() => buildTransaction(key, 'key-inline', payload, immortal), /immortal/);
  assert.ok(buildTransaction(key, 'key-inline', payload, immortal, { allowImmortal: true }).length > 2420);
  const mortal = extensionsFor(identifiers, { ...chain, checkpoint: { number: 10, hash: new Uint8Array(32) } });
  assert.ok(buildTransaction(key, 'key-inline', payload, mortal).length > 2420);
  // The chain reads the extensions' data as one run: a 0x00 moved into another extension's
  // data, or an era with more after it, would be an immortal era there.
  const shifted = (changes: Record<string, Uint8Array>) =>
    mortal.map((extension) => ({ ...extension, value: changes[extension.identifier] ?? extension.value }));
  const era = mortal.find((extension) => extension.identifier === 'CheckMortality')!.value;
  for (const [what, changes] of [
    ['0x00 in CheckGenesis, no era', { CheckGenesis: Uint8Array.of(0), CheckMortality: new Uint8Array() }],
    ['an era of 0x00 and the nonce', { CheckMortality: Uint8Array.of(0, 0), CheckNonce: new Uint8Array() }],
    ['a nonce with a byte after it', { CheckNonce: Uint8Array.of(0, 0) }],
    ['an era with a byte after it', { CheckMortality: Uint8Array.of(...era, 0) }],
  ] as const) {
    assert.throws(() => buildTransaction(key, 'key-inline', payload, shifted(changes), { allowImmortal: true }), TransactionError, what);
  }
  // Extensions named in another order than the chain's (metadata a site supplies): the nonce
  // 0x00 first is the chain's immortal era, the era's bytes its nonce and tip.
  const byName = (name: string) => mortal.find((extension) => extension.identifier === name)!;
  const reordered = [byName('CheckNonce'), byName('CheckMortality'), byName('ChargeTransactionPayment')];
  assert.throws(() => buildTransaction(key, 'key-inline', payload, reordered), /in that order/);
  const invented = [{ identifier: 'Foo', value: Uint8Array.of(0), additionalSigned: new Uint8Array() }, ...mortal];
  assert.throws(() => buildTransaction(key, 'key-inline', payload, invented), /immortal/);
  assert.throws(() => buildTransaction(key, 'key-inline', payload, invented, { allowImmortal: true }), /Foo puts no data/);
  assert.throws(() => buildTransaction(key, 'key-inline', payload, [...mortal, byName('CheckNonce')]), /named twice/);
  const withoutEra = mortal.filter((extension) => extension.identifier !== 'CheckMortality');
  assert.throws(() => buildTransaction(key, 'key-inline', payload, withoutEra, { allowImmortal: true }), /in that order/);
});

test('malformed chain state, senders, addresses and numbers are refused by name', () => {
  const key = Keypair.fromSuri('ml-dsa-44', '//Alice');
  const asHex = '0x' + '00'.repeat(32);
  assert.throws(() => extensionsFor(identifiers, { ...chain, genesisHash: asHex as unknown as Uint8Array }), /genesis hash is a 32-byte hash/);
  assert.throws(
    () => extensionsFor(identifiers, { ...chain, checkpoint: { number: 1, hash: new Uint8Array(31) } }),
    /checkpoint's hash is a 32-byte hash/,
  );
  assert.throws(() => signTransaction({ key, account: new Uint8Array(31) }, 'registered', payload), /32-byte account id/);
  // A first byte of 0x80 or more is no SS58 format (sp-core: `InvalidPrefix`).
  assert.throws(() => ss58Decode(base58.encode(new Uint8Array(35).fill(0x80))), /bad format byte/);
  assert.throws(() => compact(1n << 536n), /at most 67 bytes/);
  assert.equal(compact((1n << 536n) - 1n).length, 68);
  assert.throws(() => Keypair.fromSeed('rsa' as Scheme, new Uint8Array(32)), /unknown scheme/);
});

test('a node address is encrypted or on this machine, unless allowed', async () => {
  for (const url of ['wss://rpc.example.org', 'https://rpc.example.org', 'ws://127.0.0.1:9944', 'ws://localhost:9944', 'ws://[::1]:9944', 'ws://127.8.9.10']) {
    assert.doesNotThrow(() => assertSecureEndpoint(url), url);
  }
  for (const url of ['ws://10.0.0.1:9944', 'ws://rpc.example.org', 'http://127.0.0.1.example.org', 'ws://localhost.example.org']) {
    assert.throws(() => assertSecureEndpoint(url), /unencrypted address/, url);
    assert.doesNotThrow(() => assertSecureEndpoint(url, { insecure: true }), url);
  }
  assert.throws(() => assertSecureEndpoint('not a url'), /not a URL/);
  assert.throws(() => assertSecureEndpoint('file:///etc/passwd'), /not a node address/);
  // The example refuses before connecting.
  const { transfer } = await import('../examples/transfer.js');
  await assert.rejects(transfer('ws://10.0.0.1:9944', '5FHneW46xGXgs5mUiveU4sbTyGBzmstUspZC92UhjJM694ty', 1n), /unencrypted address/);
});
