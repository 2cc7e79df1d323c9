// Interop with a real `pq-node --dev` through stock clients given nothing but the node's
// address — polkadot.js `ApiPromise.create({ provider })` and polkadot-api
// `createClient(getWsProvider(url))`: polkadot.js' own keyring signs Ed25519, this package's
// signers sign ML-DSA in both forms; both clients then decode every block, quote fees, and the
// node's refusals come back named.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { after, before, test } from 'node:test';
import '@polkadot/api-augment';
import { ApiPromise, WsProvider } from '@polkadot/api';
import type { SubmittableExtrinsic } from '@polkadot/api/types';
import { Keyring } from '@polkadot/keyring';
import type { KeyringPair } from '@polkadot/keyring/types';
import type { GenericExtrinsic, GenericExtrinsicV4 } from '@polkadot/types';
import type { Signer, SignerPayloadJSON } from '@polkadot/types/types';
import { cryptoWaitReady } from '@polkadot/util-crypto';
import { generateMultipleDescriptors, knownTypes } from '@polkadot-api/codegen';
import { compactNumber, decAnyMetadata, unifyMetadata } from '@polkadot-api/substrate-bindings';
import { getExtrinsicDecoder } from '@polkadot-api/tx-utils';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import { createClient, Enum, InvalidTxError, type PolkadotClient } from 'polkadot-api';
import { getWsProvider } from 'polkadot-api/ws';
import { WebSocket } from 'ws';
import { FACTS, Keypair, PQ_REFUSALS, SS58_PREFIX, blake2_256, nameRefusal, ss58Encode, type Form, type Scheme } from '../src/index.js';
import { accountSignerValue as papiKey, pqSigner } from '../src/papi.js';
import { PqSigner, accountSignerValue as pjsKey } from '../src/polkadot-js.js';
import { transfer as exampleTransfer } from '../examples/transfer.js';
import { pqCliBinary, startDevNode, type DevNode } from './support/dev-node.js';

const UNIT = 1_000_000_000_000n;
const AMOUNT = 10n * UNIT;
const TIP = 1_000n;
const ML_DSA = ['ml-dsa-44', 'ml-dsa-65', 'ml-dsa-87'] as const;

let node: DevNode;
let pjs: ApiPromise;
let papi: PolkadotClient;

before(async () => {
  node = await startDevNode();
  pjs = await ApiPromise.create({ provider: new WsProvider(node.url) });
  // Node.js 20 has no global WebSocket: the transport, not anything about the chain.
  papi = createClient(getWsProvider(node.url, { websocketClass: WebSocket as unknown as typeof globalThis.WebSocket }));
  await cryptoWaitReady(); // polkadot.js' sr25519 keyring
});

after(async () => {
  papi?.destroy();
  await pjs?.disconnect();
  await node?.stop();
});

/** A transfer as it was sent: what both clients must decode it as. */
interface SentTransfer {
  signer: string;
  to: string;
  nonce: number;
  tip: bigint;
  /** The `TransactionSignature` variant, as the metadata names it. */
  signature: string;
}

/** The transfers sent, by transaction hash. */
const sent = new Map<string, SentTransfer>();

/** An event as polkadot-api gives it. */
type PapiEvent = { type: string; value: { type: string; value: Record<string, unknown> } };

const hex = (bytes: Uint8Array) => `0x${bytesToHex(bytes)}`;
const freshAddress = () => ss58Encode(new Uint8Array(randomBytes(32)));
const balance = async (address: string) => (await pjs.query.system.account(address)).data.free.toBigInt();
const variantOf = (scheme: Scheme, form: Form) => `${FACTS[scheme].variantName}${form === 'registered' ? 'Registered' : ''}`;
const keyring = (type: 'ed25519' | 'sr25519') => new Keyring({ type, ss58Format: SS58_PREFIX });

/** The variant of a signed (format 4) extrinsic's signature, as polkadot.js decodes it from the
 * metadata. */
const signatureVariant = (extrinsic: GenericExtrinsic) => (extrinsic.inner as unknown as GenericExtrinsicV4).signature.multiSignature.type;

/** polkadot.js' own `signAndSend` of `tx` until finalized; rejects with the node's refusal, its
 * code named. */
function signAndSend(
  tx: SubmittableExtrinsic<'promise'>,
  from: KeyringPair | string,
  options: { signer?: Signer; nonce?: number; tip?: bigint } = {},
): Promise<{ block: string; hash: string }> {
  return new Promise((resolve, reject) => {
    tx.signAndSend(from, options, (result) => {
      if (result.isError) reject(new Error(`${result.status}`));
      if (result.status.isFinalized) resolve({ block: result.status.asFinalized.toHex(), hash: result.txHash.toHex() });
    }).catch((error: Error) => reject(new Error(nameRefusal(error.message))));
  });
}

/** The events of transaction `hash` in block `block`, as polkadot.js decodes them. */
async function eventsOf(block: string, hash: string) {
  const { extrinsics } = (await pjs.rpc.chain.getBlock(block)).block;
  const index = extrinsics.findIndex((extrinsic) => extrinsic.hash.toHex() === hash);
  const events = await pjs.query.system.events.at(block);
  return events.filter(({ phase }) => phase.isApplyExtrinsic && phase.asApplyExtrinsic.eqn(index)).map(({ event }) => event);
}

/** Sends AMOUNT with TIP to a fresh account through polkadot.js: signed by the keyring pair
 * `from`, or for the address `from` by `signer`. */
async function transferWithPolkadotJs(from: KeyringPair | string, signature: string, signer?: Signer) {
  const signerAddress = typeof from === 'string' ? from : from.address;
  const to = freshAddress();
  const nonce = (await pjs.rpc.system.accountNextIndex(signerAddress)).toNumber();
  const { hash } = await signAndSend(pjs.tx.balances.transferKeepAlive({ Id: to }, AMOUNT), from, { signer, nonce, tip: TIP });
  sent.set(hash, { signer: signerAddress, to, nonce, tip: TIP, signature });
  assert.equal(await balance(to), AMOUNT, signature);
}

/** Sends AMOUNT with TIP to a fresh account through polkadot-api, from `key` in `form`. */
async function transferWithPapi(key: Keypair, form: Form) {
  const api = papi.getUnsafeApi();
  const to = freshAddress();
  const nonce = Number(await api.apis.AccountNonceApi.account_nonce(key.address()));
  const transfer = api.tx.Balances.transfer_keep_alive({ dest: Enum('Id', to), value: AMOUNT });
  const result = await transfer.signAndSubmit(pqSigner(key, form), { nonce, tip: TIP });
  assert.ok(result.ok, `${key.scheme} ${form}`);
  sent.set(result.txHash, { signer: key.address(), to, nonce, tip: TIP, signature: variantOf(key.scheme, form) });
  assert.equal(await balance(to), AMOUNT, `${key.scheme} ${form}`);
}

/** Registers `key` for its own account through polkadot.js; whether `KeyRegistered` followed. */
async function registerWithPolkadotJs(key: Keypair): Promise<boolean> {
  const register = pjs.tx.pqVerifier.registerKey(pjsKey(key), null, false);
  const { block, hash } = await signAndSend(register, key.address(), { signer: new PqSigner(pjs.registry, [key], 'key-inline') });
  return (await eventsOf(block, hash)).some((event) => event.section === 'pqVerifier' && event.method === 'KeyRegistered');
}

/** Registers `key` for its own account through polkadot-api; whether `KeyRegistered` followed. */
async function registerWithPapi(key: Keypair): Promise<boolean> {
  const register = papi.getUnsafeApi().tx.PqVerifier.register_key({ key: papiKey(key), proof: undefined, only_registered_key: false });
  const result = await register.signAndSubmit(pqSigner(key, 'key-inline'));
  return result.ok && (result.events as PapiEvent[]).some((event) => event.type === 'PqVerifier' && event.value.type === 'KeyRegistered');
}

test('unmodified polkadot.js connects and reads balances of every scheme', async () => {
  for (const scheme of ['ed25519', ...ML_DSA] as const) {
    const account = await pjs.query.system.account(Keypair.fromSuri(scheme, '//Alice').address());
    assert.ok(account.data.free.toBigInt() > 0n, `${scheme} //Alice is endowed`);
  }
});

test("polkadot.js sends Ed25519 signed by its own keyring, and ML-DSA's key-inline form through PqSigner", async () => {
  const alice = keyring('ed25519').addFromUri('//Alice');
  assert.equal(alice.address, Keypair.fromSuri('ed25519', '//Alice').address(), "the keyring's //Alice is the endowed one");
  await transferWithPolkadotJs(alice, 'Ed25519');
  for (const scheme of ML_DSA) {
    const key = Keypair.fromSuri(scheme, '//Bob');
    await transferWithPolkadotJs(key.address(), variantOf(scheme, 'key-inline'), new PqSigner(pjs.registry, [key], 'key-inline'));
  }
});

test('a key registered through either client sends the registered form through polkadot-api', async () => {
  for (const scheme of ML_DSA) {
    const key = Keypair.fromSuri(scheme, '//Charlie');
    // `register_key` carries the key, so its payload is over 256 bytes and signed as its hash:
    // through polkadot.js for ML-DSA-65, through polkadot-api for the others.
    const registered = scheme === 'ml-dsa-65' ? await registerWithPolkadotJs(key) : await registerWithPapi(key);
    assert.ok(registered, `${scheme}: KeyRegistered`);
    await transferWithPapi(key, 'registered');
  }
});

test('an sr25519 signature from polkadot.js\' keyring decodes as one and is refused as ClassicalSignature', async () => {
  const tx = pjs.tx.balances.transferKeepAlive({ Id: freshAddress() }, AMOUNT);
  await tx.signAsync(keyring('sr25519').addFromUri('//Alice'), { nonce: 0 });
  const papiDecoded = getExtrinsicDecoder(await papi.getMetadata((await papi.getFinalizedBlock()).hash))(tx.toU8a());
  assert.equal(papiDecoded.type === 'signed' && papiDecoded.signature.type, 'Sr25519');
  assert.equal(signatureVariant(pjs.createType('Extrinsic', tx.toU8a())), 'Sr25519');
  await assert.rejects(pjs.rpc.author.submitExtrinsic(tx), (error: Error) => {
    assert.match(nameRefusal(error.message), /Custom error: 10 \(ClassicalSignature\)/);
    return true;
  });
});

/** Runs `pq-cli` against the test's node; what it printed. */
const pqCli = (args: string[]) => execFileSync(pqCliBinary(), ['--url', node.url, ...args], { encoding: 'utf8' });

test('a committee transfer signed by pq-cli is submitted through polkadot.js', async () => {
  const committee = ['--seed', 'js council', '--size', '4', '--threshold', '3'];
  const account = /^account: (\S+)$/m.exec(pqCli(['committee', 'inspect', ...committee]))?.[1];
  assert.ok(account, 'pq-cli names the committee account');
  assert.match(pqCli(['committee', 'create', ...committee, '--from', 'ml-dsa-87://Alice']), /CommitteeCreated/);
  await signAndSend(pjs.tx.balances.transferKeepAlive({ Id: account }, 5n * AMOUNT), keyring('ed25519').addFromUri('//Alice'));
  const to = freshAddress();
  // One planck is 10^-12 UNIT: the tip, in the CLI's units.
  const transfer = ['--signers', '0,1,3', '--to', to, '--amount', String(AMOUNT / UNIT), '--tip', `0.${String(TIP).padStart(12, '0')}`];
  const signed = pqCli(['committee', 'transfer', ...committee, ...transfer, '--print-only']).trim();
  await pjs.rpc.author.submitExtrinsic(signed);
  sent.set(hex(blake2_256(hexToBytes(signed.slice(2)))), { signer: account, to, nonce: 0, tip: TIP, signature: 'Committee' });
  const deadline = Date.now() + 60_000;
  while ((await balance(to)) !== AMOUNT) {
    assert.ok(Date.now() < deadline, 'the committee transfer was included');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
});

test('both stock clients decode every block: signer, call, arguments, nonce, tip, signature and events of each transfer', async () => {
  assert.equal(sent.size, 8, 'Ed25519, ML-DSA key inline and registered, a committee');
  const api = papi.getUnsafeApi();
  const papiDecode = getExtrinsicDecoder(await papi.getMetadata((await papi.getFinalizedBlock()).hash));
  const found = { pjs: new Set<string>(), papi: new Set<string>() };
  const head = (await pjs.rpc.chain.getHeader()).number.toNumber();
  for (let number = 1; number <= head; number++) {
    const hash = (await pjs.rpc.chain.getBlockHash(number)).toHex();

    const { block } = await pjs.rpc.chain.getBlock(hash);
    const pjsEvents = await pjs.query.system.events.at(hash);
    block.extrinsics.forEach((extrinsic, index) => {
      const transfer = sent.get(extrinsic.hash.toHex());
      if (!transfer) return;
      const label = `polkadot.js: ${transfer.signature} in block ${number}`;
      assert.equal(extrinsic.signer.toString(), transfer.signer, label);
      assert.equal(signatureVariant(extrinsic), transfer.signature, label);
      assert.equal(`${extrinsic.method.section}.${extrinsic.method.method}`, 'balances.transferKeepAlive', label);
      const [dest, value] = extrinsic.method.args;
      assert.deepEqual(dest!.toJSON(), { id: transfer.to }, label);
      assert.equal(BigInt(value!.toString()), AMOUNT, label);
      assert.equal(extrinsic.nonce.toNumber(), transfer.nonce, label);
      assert.equal(extrinsic.tip.toBigInt(), transfer.tip, label);
      const events = pjsEvents.filter(({ phase }) => phase.isApplyExtrinsic && phase.asApplyExtrinsic.eqn(index)).map(({ event }) => event);
      const transferred = events.find((event) => event.section === 'balances' && event.method === 'Transfer');
      assert.deepEqual(transferred?.data.map(String), [transfer.signer, transfer.to, AMOUNT.toString()], label);
      assert.ok(events.some((event) => event.section === 'system' && event.method === 'ExtrinsicSuccess'), label);
      found.pjs.add(extrinsic.hash.toHex());
    });

    const body = await papi.getBlockBody(hash);
    const papiEvents = (await api.query.System.Events.getValue({ at: hash })) as { phase: { type: string; value?: number }; event: PapiEvent }[];
    body.forEach((bytes, index) => {
      const decoded = papiDecode(bytes);
      const transfer = sent.get(hex(blake2_256(bytes)));
      if (!transfer) return;
      const label = `polkadot-api: ${transfer.signature} in block ${number}`;
      assert.ok(decoded.type === 'signed', label);
      assert.deepEqual(decoded.address, { type: 'Id', value: transfer.signer }, label);
      assert.equal(decoded.signature.type, transfer.signature, label);
      assert.deepEqual(decoded.call, {
        type: 'Balances',
        value: { type: 'transfer_keep_alive', value: { dest: { type: 'Id', value: transfer.to }, value: AMOUNT } },
      }, label);
      assert.equal(decoded.extra.CheckNonce, transfer.nonce, label);
      assert.equal(decoded.extra.ChargeTransactionPayment, transfer.tip, label);
      const events = papiEvents.filter(({ phase }) => phase.type === 'ApplyExtrinsic' && phase.value === index).map(({ event }) => event);
      const transferred = events.find((event) => event.type === 'Balances' && event.value.type === 'Transfer');
      assert.deepEqual(transferred?.value.value, { from: transfer.signer, to: transfer.to, amount: AMOUNT }, label);
      assert.ok(events.some((event) => event.type === 'System' && event.value.type === 'ExtrinsicSuccess'), label);
      found.papi.add(hex(blake2_256(bytes)));
    });
  }
  assert.deepEqual(found.pjs, new Set(sent.keys()), 'polkadot.js found every transfer');
  assert.deepEqual(found.papi, new Set(sent.keys()), 'polkadot-api found every transfer');
});

test("fees: a placeholder signature of the transaction's own variant and size quotes it exactly", async () => {
  // Stock clients quote a fee (polkadot.js `paymentInfo`, polkadot-api `getEstimatedFees`) by
  // asking the runtime (`TransactionPaymentApi_query_info`) about the transaction with a fake
  // sr25519 signature in place of the real one. The runtime charges a transaction by its
  // signature's variant and its length, an sr25519 one (refused, never verified) as Ed25519:
  // so the stock quote is exact for Ed25519 and too low for ML-DSA. The exact quote of any form
  // is query_info over the transaction with a placeholder — an all-zero signature of its own
  // variant and size (`{ placeholder: true }`), which signs nothing.
  const feePaid = async (block: string, hash: string) => {
    const paid = (await eventsOf(block, hash)).find((event) => event.section === 'transactionPayment' && event.method === 'TransactionFeePaid');
    assert.ok(paid, `a fee was paid in ${block}`);
    return BigInt(paid.data[1]!.toString());
  };

  // polkadot.js: Ed25519, signed by its keyring.
  const alice = keyring('ed25519').addFromUri('//Alice');
  const ed25519Transfer = pjs.tx.balances.transferKeepAlive({ Id: freshAddress() }, AMOUNT);
  const ed25519Quote = (await ed25519Transfer.paymentInfo(alice)).partialFee.toBigInt();
  const ed25519Sent = await signAndSend(ed25519Transfer, alice);
  assert.equal(await feePaid(ed25519Sent.block, ed25519Sent.hash), ed25519Quote, 'Ed25519: the stock quote is exact');

  // polkadot.js: ML-DSA-87, key inline.
  const key = Keypair.fromSuri('ml-dsa-87', '//Eve');
  const dest = { Id: freshAddress() };
  const stockQuote = (await pjs.tx.balances.transferKeepAlive(dest, AMOUNT).paymentInfo(key.address())).partialFee.toBigInt();
  const placeholder = pjs.tx.balances.transferKeepAlive(dest, AMOUNT);
  await placeholder.signAsync(key.address(), { signer: new PqSigner(pjs.registry, [key], 'key-inline', { placeholder: true }) });
  // As polkadot.js's own `paymentInfo` asks: the encoded extrinsic and its length.
  const placeholderBytes = placeholder.toU8a();
  const quote = (await pjs.call.transactionPaymentApi.queryInfo(placeholderBytes, placeholderBytes.length)).partialFee.toBigInt();
  const mlDsaSent = await signAndSend(pjs.tx.balances.transferKeepAlive(dest, AMOUNT), key.address(), {
    signer: new PqSigner(pjs.registry, [key], 'key-inline'),
  });
  const paid = await feePaid(mlDsaSent.block, mlDsaSent.hash);
  assert.equal(quote, paid, 'ML-DSA-87 key inline: the placeholder quote is exact');
  assert.ok(stockQuote < paid, `ML-DSA-87 key inline: the stock quote (${stockQuote}) is below the fee (${paid})`);

  // polkadot-api: ML-DSA-44, registered (by the test above).
  const api = papi.getUnsafeApi();
  const registered = Keypair.fromSuri('ml-dsa-44', '//Charlie');
  const transfer = api.tx.Balances.transfer_keep_alive({ dest: Enum('Id', freshAddress()), value: AMOUNT });
  const papiStockQuote = await transfer.getEstimatedFees(registered.address());
  const papiPlaceholder = await transfer.sign(pqSigner(registered, 'registered', { placeholder: true }));
  // query_info takes the extrinsic as the metadata describes it, an opaque `Vec<u8>`: the body,
  // whose length prefix polkadot-api writes again.
  const extrinsicBody = papiPlaceholder.subarray(compactNumber.enc(compactNumber.dec(papiPlaceholder)).length);
  const { partial_fee: papiQuote } = (await api.apis.TransactionPaymentApi.query_info(extrinsicBody, papiPlaceholder.length)) as {
    partial_fee: bigint;
  };
  const result = await transfer.signAndSubmit(pqSigner(registered, 'registered'));
  const papiPaid = (result.events as PapiEvent[]).find((event) => event.type === 'TransactionPayment' && event.value.type === 'TransactionFeePaid');
  assert.equal(papiPaid?.value.value.actual_fee, papiQuote, 'ML-DSA-44 registered: the placeholder quote is exact');
  assert.ok(papiStockQuote < papiQuote, `ML-DSA-44 registered: the stock quote (${papiStockQuote}) is below the fee (${papiQuote})`);
});

test('tampered and unregistered transactions are refused by name', async () => {
  const api = papi.getUnsafeApi();
  const key = Keypair.fromSuri('ml-dsa-65', '//Ferdie');
  const transfer = () => api.tx.Balances.transfer_keep_alive({ dest: Enum('Id', freshAddress()), value: AMOUNT });
  /** The `InvalidTransaction` reason polkadot-api reports for `submission`. */
  const invalid = (submission: Promise<unknown>) =>
    submission.then(
      () => assert.fail('accepted'),
      (error: unknown) => {
        assert.ok(error instanceof InvalidTxError, `${error}`);
        const validity = error.error as { type: string; value: { type: string; value?: number } };
        assert.equal(validity.type, 'Invalid');
        return validity.value;
      },
    );

  // Tampered: the amount (the call's last byte) changed after signing.
  const tampered = await transfer().sign(pqSigner(key, 'key-inline'));
  tampered[tampered.length - 1]! ^= 1;
  assert.equal((await invalid(papi.submit(tampered))).type, 'BadProof');

  // A registered-form transaction for an account this key is not registered for.
  const other = Keypair.fromSuri('ed25519', '//Ferdie').accountId();
  const unregistered = await invalid(transfer().signAndSubmit(pqSigner({ key, account: other }, 'registered')));
  assert.deepEqual([unregistered.type, PQ_REFUSALS[unregistered.value!]], ['Custom', 'NoRegisteredKey']);
});

test("the README's example transfers and returns the finalized block", async () => {
  const to = freshAddress();
  await exampleTransfer(node.url, to, AMOUNT);
  assert.equal(await balance(to), AMOUNT);
});

test('a site asking signTx for the hash of another payload gets no signature', async () => {
  // A payload over 256 bytes is signed as its blake2_256: a "transaction" of that hash as its
  // call and no extension data would be signed as exactly those 32 bytes.
  const answer = await pjs.rpc.state.call('Metadata_metadata_at_version', '0x10000000');
  const metadata = answer.toU8a(true).subarray(1);
  const order = unifyMetadata(decAnyMetadata(metadata)).extrinsic.signedExtensions[0]!;
  const empty = Object.fromEntries(
    order.map(({ identifier }) => [identifier, { identifier, value: new Uint8Array(), additionalSigned: new Uint8Array() }]),
  );
  const hashOfAnother = blake2_256(randomBytes(300));
  const key = Keypair.fromSuri('ml-dsa-44', '//Alice');
  for (const form of ['key-inline', 'registered'] as const) {
    await assert.rejects(pqSigner(key, form).signTx(hashOfAnother, empty, metadata, 0), /sign transactions only/);
  }
  // Objects that only look like bytes — a negative length moves where the next part is
  // written, so the "extensions" could pad and then unwrite themselves — are no bytes.
  const lookalikes = Object.fromEntries(
    order.map(({ identifier }) => [identifier, { identifier, value: new Uint8Array(), additionalSigned: { length: -32 } as unknown as Uint8Array }]),
  );
  await assert.rejects(pqSigner(key, 'key-inline').signTx(hashOfAnother, lookalikes, metadata, 0), /is not bytes/);
  // Real, empty arrays whose `length` is faked to the chain-binding data's: what they hold
  // counts, and they bind nothing (they were signed as zeros in their place).
  const bindingLengths: Record<string, number> = { CheckSpecVersion: 4, CheckTxVersion: 4, CheckGenesis: 32, CheckMortality: 32 };
  const faked = (length: number) => Object.defineProperty(new Uint8Array(), 'length', { value: length });
  const fakedBinding = Object.fromEntries(
    order.map(({ identifier }) => [
      identifier,
      { identifier, value: new Uint8Array(), additionalSigned: faked(bindingLengths[identifier] ?? 0) },
    ]),
  );
  await assert.rejects(pqSigner(key, 'key-inline').signTx(hashOfAnother, fakedBinding, metadata, 0), /binds this one to a chain/);
});

test('the polkadot.js signer refuses an immortal era, however spelled, unless allowed', async () => {
  const key = Keypair.fromSuri('ml-dsa-44', '//Alice');
  let captured: SignerPayloadJSON | undefined;
  const capture: Signer = {
    signPayload: async (payload) => {
      captured = payload;
      throw new Error('captured');
    },
  };
  const transfer = pjs.tx.balances.transferKeepAlive(Keypair.fromSuri('ed25519', '//Bob').address(), 1n);
  await assert.rejects(transfer.signAsync(key.address(), { signer: capture }), /captured/);
  const signer = new PqSigner(pjs.registry, [key], 'key-inline');
  // polkadot.js reads an empty era, or one starting with 0x00, as immortal.
  for (const era of ['0x00', '0x', '0x0000'] as const) {
    await assert.rejects(signer.signPayload({ ...captured!, era }), /immortal/, era);
  }
  const signatureHex = 2 * (1 + 1312 + 2420);
  assert.notEqual(captured!.era, '0x00', 'polkadot.js signs mortal by default');
  assert.equal((await signer.signPayload(captured!)).signature.length, 2 + signatureHex);
  // The call's last byte moved before an era of 0x00: a mortal-looking era (`0x0400`), signed
  // as the whole call with an immortal one (birth block: genesis).
  const method = captured!.method;
  const shifted = { ...captured!, method: method.slice(0, -2) as `0x${string}`, era: `0x${method.slice(-2)}00` as `0x${string}`, blockHash: captured!.genesisHash };
  await assert.rejects(signer.signPayload(shifted), /exactly one of this chain's calls/);
  const allowed = new PqSigner(pjs.registry, [key], 'key-inline', { allowImmortal: true });
  assert.equal((await allowed.signPayload({ ...captured!, era: '0x00' })).signature.length, 2 + signatureHex);
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
  for (const name of ['PqVerifier', 'register_key', 'MlDsa87']) assert.ok(types.includes(name), name);
  assert.ok(!types.includes('AuthorizePq'), 'no custom transaction extension');
});
