// The pure-Wasm runtime needs none of this project's host functions, so chopsticks runs it from
// the chain specification a user exports (`pq-node build-spec --chain dev-pure-wasm --raw`, not
// patched): block 1 imports with the Aura slot chopsticks adds to every block, and a block of
// key-inline ML-DSA-44 and ML-DSA-87 transfers, signed by this package, applies.
//
// chopsticks-core, not the chopsticks package: the chain in process, without the CLI's RPC
// server, database and their dependencies. Pinned at 1.1.0: from 1.2.0 it requires Node.js 22,
// and this package supports 20.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { after, test } from 'node:test';
import { BuildBlockMode, GenesisProvider, destroyWorker, setup, type Blockchain } from '@acala-network/chopsticks-core';
import { bytesToHex } from '@noble/hashes/utils.js';
import { Keypair, buildTransaction, extensionsFor, ss58Encode } from '../src/index.js';
import { pqNodeBinary } from './support/dev-node.js';

const AMOUNT = 10_000_000_000_000n; // 10 tokens

const hex = (bytes: Uint8Array): `0x${string}` => `0x${bytesToHex(bytes)}`;
const freshAddress = () => ss58Encode(new Uint8Array(randomBytes(32)));

let chain: Blockchain | undefined;

after(
  async () => {
    await chain?.close();
    await destroyWorker(); // the executor's worker thread would keep the test process alive
  },
  { timeout: 30_000 },
);

test(
  'chopsticks loads the pure-Wasm chain spec exported by pq-node and builds a block of ML-DSA-44 and ML-DSA-87 transfers',
  { timeout: 300_000 },
  async () => {
    const raw = JSON.parse(
      execFileSync(pqNodeBinary(), ['build-spec', '--chain', 'dev-pure-wasm', '--raw'], {
        encoding: 'utf8',
        maxBuffer: 64 << 20,
        stdio: ['ignore', 'pipe', 'ignore'],
      }),
    );
    chain = await setup({ genesis: new GenesisProvider(raw), buildBlockMode: BuildBlockMode.Manual });
    const version = await chain.head.runtimeVersion;
    // Every build is spec `pq-runtime`; the pure-Wasm one is named by its implementation.
    assert.equal(version.implName, 'pq-runtime-pure-wasm', 'the pure-Wasm runtime, not the one needing host functions');
    // setup builds block 1 (inherents only) and, should the runtime refuse it, only logs that.
    assert.equal(chain.head.number, 1, 'block 1 was built (its refusal is in the log above)');

    const meta = await chain.head.meta;
    // What CheckGenesis signs: System::BlockHash(0), chopsticks' genesis hash (0x45…45, not a node's).
    const genesisHash = (await chain.head.read('H256', meta.query.system.blockHash, 0))!.toU8a();
    const transfers = [];
    for (const scheme of ['ml-dsa-44', 'ml-dsa-87'] as const) {
      const key = Keypair.fromSuri(scheme, '//Alice'); // endowed by the dev genesis
      const account = await chain.head.read('FrameSystemAccountInfo', meta.query.system.account, key.address());
      const to = freshAddress();
      const call = meta.tx.balances.transferKeepAlive({ Id: to }, AMOUNT).toU8a();
      const extensions = extensionsFor(meta.registry.signedExtensions, {
        genesisHash,
        specVersion: version.specVersion,
        transactionVersion: version.transactionVersion,
        nonce: account!.nonce.toNumber(),
      });
      // Immortal (no checkpoint): the test is of chopsticks running the runtime, not of eras.
      const bytes = buildTransaction(key, 'key-inline', call, extensions, { allowImmortal: true });
      const extrinsic = hex(bytes);
      const validity = await chain.validateExtrinsic(extrinsic);
      assert.ok(validity.isOk, `${scheme}: ${validity.toString()}`);
      // The runtime verifies under chopsticks too: the amount changed after signing is refused.
      const altered = bytes.slice();
      altered[altered.length - 1] ^= 1;
      const refused = await chain.validateExtrinsic(hex(altered));
      assert.ok(refused.isErr, `${scheme}, altered after signing: ${refused.toString()}`);
      transfers.push({ scheme, to, extrinsic });
    }

    const block = await chain.newBlock({ transactions: transfers.map(({ extrinsic }) => extrinsic) });
    assert.equal(block.number, 2);
    // chopsticks leaves out a transaction the runtime refuses to apply: after the timestamp, both
    // transfers, in order (their events' phases name these indices).
    assert.deepEqual((await block.extrinsics).slice(1), transfers.map(({ extrinsic }) => extrinsic));
    const events = (await block.read('Vec<FrameSystemEventRecord>', meta.query.system.events))!;
    for (const [index, { scheme, to }] of transfers.entries()) {
      const own = events
        .filter(({ phase }) => phase.isApplyExtrinsic && phase.asApplyExtrinsic.eqn(index + 1))
        .map(({ event }) => `${event.section}.${event.method}`);
      assert.ok(own.includes('balances.Transfer') && own.includes('system.ExtrinsicSuccess'), `${scheme}: ${own.join(', ')}`);
      const recipient = await block.read('FrameSystemAccountInfo', meta.query.system.account, to);
      assert.equal(recipient!.data.free.toBigInt(), AMOUNT, `${scheme}'s recipient`);
    }
  },
);
