// What the polkadot-api signer will and will not sign.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FORMS, Keypair, signingPayload } from '../src/index.js';
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
