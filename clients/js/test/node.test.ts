// Interop with a real `pq-node --dev`: unmodified polkadot.js and polkadot-api, with this
// package's signers, send every scheme and form; the node's refusals come back named.

import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, test } from 'node:test';
import '@polkadot/api-augment';
import { ApiPromise, WsProvider } from '@polkadot/api';
import { generateMultipleDescriptors, knownTypes } from '@polkadot-api/codegen';
import { decAnyMetadata, unifyMetadata } from '@polkadot-api/substrate-bindings';
import { createClient, Enum, type PolkadotClient } from 'polkadot-api';
import { getWsProvider } from 'polkadot-api/ws';
import { WebSocket } from 'ws';
import { Keypair, SCHEMES, buildTransaction, extensionsFor, ss58Encode, type Form } from '../src/index.js';
import { AUTHORIZE_PQ_EXTENSION, multiSignerValue as papiKey, pqSigner } from '../src/papi.js';
import {
  PQ_SIGNED_EXTENSIONS,
  PqSigner,
  chainState,
  multiSignerValue as pjsKey,
  queryFee,
  signGeneral,
  submitAndWatch,
} from '../src/polkadot-js.js';
import { transfer as exampleTransfer } from '../examples/transfer.js';
import { startDevNode, type DevNode } from './support/dev-node.js';

const UNIT = 1_000_000_000_000n;
const AMOUNT = 10n * UNIT;

let node: DevNode;
let provider: WsProvider;
let pjs: ApiPromise;
let papi: PolkadotClient;

before(async () => {
  node = await startDevNode();
  provider = new WsProvider(node.url);
  pjs = await ApiPromise.create({ provider, signedExtensions: PQ_SIGNED_EXTENSIONS, noInitWarn: true });
  papi = createClient(getWsProvider(node.url, { websocketClass: WebSocket as unknown as typeof globalThis.WebSocket }));
});

after(async () => {
  papi?.destroy();
  await pjs?.disconnect();
  await node?.stop();
});

/** An event as polkadot-api's untyped API gives it. */
type PapiEvent = { type: string; value: { type: string } };

const freshAccount = () => new Uint8Array(randomBytes(32));
const balance = async (account: Uint8Array) => (await pjs.query.system.account(ss58Encode(account))).data.free.toBigInt();

/** The events of block `hash` as `section.method` with their data, for the extrinsics in it. */
async function blockEvents(hash: string) {
  const events = await pjs.query.system.events.at(hash);
  return events.map(({ event }) => ({ name: `${event.section}.${event.method}`, data: event.data.toJSON() as unknown[] }));
}

function assertTransferred(events: { name: string; data: unknown[] }[], to: Uint8Array, label: string) {
  const transfer = events.find((event) => event.name === 'balances.Transfer' && event.data[1] === ss58Encode(to));
  assert.ok(transfer, `${label}: a Transfer to the recipient in ${events.map((event) => event.name)}`);
  assert.equal(BigInt(transfer.data[2] as number | string), AMOUNT, label);
  assert.ok(events.some((event) => event.name === 'system.ExtrinsicSuccess'), label);
}

/** polkadot.js' own `signAndSend`, with `PqSigner`, until the transaction is finalized. */
function signAndSend(key: Keypair, to: Uint8Array): Promise<string> {
  const transfer = pjs.tx.balances.transferKeepAlive({ Id: ss58Encode(to) }, AMOUNT);
  return new Promise((resolve, reject) => {
    transfer
      .signAndSend(key.address(), { signer: new PqSigner(pjs.registry, [key]) }, (result) => {
        if (result.isError) reject(new Error(`${result.status}`));
        if (result.status.isFinalized) resolve(result.status.asFinalized.toHex());
      })
      .catch(reject);
  });
}

test('unmodified polkadot.js connects and reads balances of every scheme', async () => {
  const bare = await ApiPromise.create({ provider: new WsProvider(node.url), noInitWarn: true });
  try {
    for (const scheme of SCHEMES) {
      const alice = Keypair.fromSuri(scheme, '//Alice');
      const account = await bare.query.system.account(alice.address());
      assert.ok(account.data.free.toBigInt() > 0n, `${scheme} //Alice is endowed`);
    }
  } finally {
    await bare.disconnect();
  }
});

test('polkadot.js signs the signed form of every scheme through its own signAndSend', async () => {
  for (const scheme of SCHEMES) {
    const to = freshAccount();
    const block = await signAndSend(Keypair.fromSuri(scheme, '//Bob'), to);
    assertTransferred(await blockEvents(block), to, `${scheme} signed`);
    assert.equal(await balance(to), AMOUNT);
  }
});

test('polkadot.js sends every general form of every scheme', async () => {
  for (const scheme of SCHEMES) {
    const key = Keypair.fromSuri(scheme, '//Charlie');
    const forms: Form[] = scheme === 'ed25519' ? ['key-inline'] : ['key-inline', 'registered'];
    if (scheme !== 'ed25519') {
      const register = pjs.tx.pqVerifier.registerKey(pjsKey(key), null, false);
      const registered = await submitAndWatch(provider, await signGeneral(pjs, register, key, 'key-inline'));
      assert.ok((await blockEvents(registered)).some((event) => event.name === 'pqVerifier.KeyRegistered'), `${scheme} registered`);
    }
    for (const form of forms) {
      const to = freshAccount();
      const transfer = pjs.tx.balances.transferKeepAlive({ Id: ss58Encode(to) }, AMOUNT);
      const block = await submitAndWatch(provider, await signGeneral(pjs, transfer, key, form));
      assertTransferred(await blockEvents(block), to, `${scheme} ${form}`);
    }
  }
});

test('polkadot-api sends every scheme and form with pqSigner', async () => {
  const api = papi.getUnsafeApi();
  for (const scheme of SCHEMES) {
    const key = Keypair.fromSuri(scheme, '//Dave');
    const forms: Form[] = scheme === 'ed25519' ? ['signed', 'key-inline'] : ['signed', 'key-inline', 'registered'];
    for (const form of forms) {
      if (form === 'registered') {
        const register = api.tx.PqVerifier.register_key({ key: papiKey(key), proof: undefined, only_registered_key: false });
        const registered = await register.signAndSubmit(pqSigner(key, 'signed'), { customSignedExtensions: AUTHORIZE_PQ_EXTENSION });
        assert.ok(registered.ok, `${scheme} registered`);
      }
      const to = freshAccount();
      const transfer = api.tx.Balances.transfer_keep_alive({ dest: Enum('Id', ss58Encode(to)), value: AMOUNT });
      const result = await transfer.signAndSubmit(pqSigner(key, form), { customSignedExtensions: AUTHORIZE_PQ_EXTENSION });
      assert.ok(result.ok, `${scheme} ${form}`);
      assert.ok(result.events.some((event: PapiEvent) => event.type === 'Balances' && event.value.type === 'Transfer'), `${scheme} ${form}`);
      assert.equal(await balance(to), AMOUNT, `${scheme} ${form}`);
    }
  }
});

test('polkadot.js decodes every block and event of the chain', async () => {
  const head = (await pjs.rpc.chain.getHeader()).number.toNumber();
  assert.ok(head > 20, `the earlier tests made blocks (${head})`);
  const seen = new Set<string>();
  for (let number = 1; number <= head; number++) {
    const hash = await pjs.rpc.chain.getBlockHash(number);
    const { block } = await pjs.rpc.chain.getBlock(hash);
    for (const extrinsic of block.extrinsics) seen.add(`${extrinsic.method.section}.${extrinsic.method.method}`);
    assert.ok((await blockEvents(hash.toHex())).length > 0, `events of block ${number}`);
  }
  for (const call of ['timestamp.set', 'balances.transferKeepAlive', 'pqVerifier.registerKey']) assert.ok(seen.has(call), call);
});

test('fees are quoted from the real bytes and charged as quoted', async () => {
  const fees: Record<string, bigint> = {};
  for (const scheme of ['ed25519', 'ml-dsa-87'] as const) {
    const key = Keypair.fromSuri(scheme, '//Eve');
    const transfer = pjs.tx.balances.transferKeepAlive({ Id: ss58Encode(freshAccount()) }, AMOUNT);
    const extrinsic = await signGeneral(pjs, transfer, key, 'key-inline');
    fees[scheme] = await queryFee(pjs, extrinsic);
    const block = await submitAndWatch(provider, extrinsic);
    const paid = (await blockEvents(block)).find((event) => event.name === 'transactionPayment.TransactionFeePaid');
    assert.ok(paid, scheme);
    assert.equal(BigInt(paid.data[1] as number | string), fees[scheme], `${scheme}: charged what was quoted`);
  }
  assert.ok(fees['ml-dsa-87']! > fees.ed25519!, `ML-DSA-87's 7.3 KB cost more than Ed25519's: ${JSON.stringify(fees, (_, v) => `${v}`)}`);
});

test('tampered, wrong-account and replayed transactions are refused by name', async () => {
  const key = Keypair.fromSuri('ml-dsa-65', '//Ferdie');
  const refusal = (extrinsic: Uint8Array) =>
    submitAndWatch(provider, extrinsic).then(
      () => assert.fail('accepted'),
      (error: Error) => error.message,
    );
  const transfer = () => pjs.tx.balances.transferKeepAlive({ Id: ss58Encode(freshAccount()) }, AMOUNT);

  // Tampered: the amount (the call's last byte) changed after signing.
  const tampered = await signGeneral(pjs, transfer(), key, 'key-inline');
  tampered[tampered.length - 1]! ^= 1;
  assert.match(await refusal(tampered), /bad signature/i);

  // Wrong account: a registered-key transaction for an account this key is not registered for.
  const other = Keypair.fromSuri('ed25519', '//Ferdie').accountId();
  const unregistered = await signGeneral(pjs, transfer(), { key, account: other }, 'registered');
  assert.match(await refusal(unregistered), /NoRegisteredKey/);

  // Replayed: the same bytes again once included (the pool refuses them as known or banned,
  // depending on how long ago), and signed anew with the used nonce (the runtime refuses it
  // as outdated).
  const replayedCall = transfer();
  const genuine = await signGeneral(pjs, replayedCall, key, 'key-inline');
  await submitAndWatch(provider, genuine);
  assert.match(await refusal(genuine), /banned|already imported|outdated/i);
  const chain = await chainState(pjs, key.accountId());
  const resigned = buildTransaction(key, 'key-inline', replayedCall.method.toU8a(), extensionsFor(pjs.registry.signedExtensions, { ...chain, nonce: chain.nonce - 1 }));
  assert.notDeepEqual(resigned, genuine);
  assert.match(await refusal(resigned), /outdated/i);
});

test("the README's example transfers and returns the finalized block", async () => {
  const to = freshAccount();
  const block = await exampleTransfer(node.url, ss58Encode(to), AMOUNT);
  assertTransferred(await blockEvents(block), to, 'example');
});

test("polkadot-api's code generator types the served metadata", async () => {
  // `Metadata_metadata_at_version(16)`: `Some(OpaqueMetadata)`.
  const answer = await pjs.rpc.state.call('Metadata_metadata_at_version', '0x10000000');
  const served = answer.toU8a(true);
  assert.equal(served[0], 1, 'version 16 is served');
  const metadata = unifyMetadata(decAnyMetadata(served.subarray(1)));
  const paths = { client: 'polkadot-api', metadataTypes: './metadataTypes', types: './types', descriptorValues: './values', common: './common' };
  const generated = generateMultipleDescriptors([{ key: 'pq', metadata, knownTypes }], paths);
  const types = generated.typesFileContent + generated.descriptorTypesFiles.map((file) => file.content).join('\n');
  for (const name of ['PqVerifier', 'register_key', 'AuthorizePq', 'MlDsa87']) assert.ok(types.includes(name), name);
});
