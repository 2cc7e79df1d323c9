// A `pq-node --dev` for the interop tests, as the Rust tests start one
// (runtime-client/src/node_process.rs): the binary of the shared build, or PQ_NODE. The node binds port
// 0 and its log says which port it got: a port chosen for it beforehand could be taken by
// another process before it binds it, and the tests would then talk to someone else's node.

import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';

/** How long a node may take to open JSON-RPC (a cold Wasm compilation included). */
const STARTUP_MS = 120_000;

export interface DevNode {
  url: string;
  log(): string;
  stop(): Promise<void>;
}

/** `name` in the shared build's release directory, or `override`. */
function builtBinary(name: string, override: string | undefined, variable: string): string {
  const target = process.env.CARGO_TARGET_DIR ?? join(homedir(), '.cache', 'pq-verifier', 'target');
  const binary = override ?? join(target, 'release', name);
  if (!existsSync(binary)) throw new Error(`no ${name} at ${binary}: build it (scripts/test.sh) or set ${variable}`);
  return binary;
}

/** The `pq-node` of the shared build, or PQ_NODE: the dev node, and the chain specifications it exports. */
export function pqNodeBinary(): string {
  return builtBinary('pq-node', process.env.PQ_NODE, 'PQ_NODE');
}

/** The `pq-cli` of the same build, or PQ_CLI: it signs committee transactions for the tests. */
export function pqCliBinary(): string {
  return builtBinary('pq-cli', process.env.PQ_CLI, 'PQ_CLI');
}

/** sc-service's line once JSON-RPC listens: `Running JSON-RPC server: addr=127.0.0.1:36895,[::1]:34321`. */
const RPC_LISTENING = /Running JSON-RPC server: addr=(?:[^\s,]*,)*?127\.0\.0\.1:(\d+)/;

async function answers(rpcPort: number): Promise<boolean> {
  try {
    const response = await fetch(`http://127.0.0.1:${rpcPort}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'system_health', params: [] }),
    });
    return response.ok;
  } catch {
    return false;
  }
}

export async function startDevNode(): Promise<DevNode> {
  const basePath = mkdtempSync(join(tmpdir(), 'pq-node-js-'));
  const logPath = join(basePath, 'pq-node.log');
  const output = openSync(logPath, 'w');
  // An archive node (`--state-pruning archive`) serves the `archive_v1_*` methods, through which
  // polkadot-api reads blocks its chainHead subscription no longer pins: the tests decode every
  // block of the chain.
  const args = ['--dev', '--base-path', basePath, '--state-pruning', 'archive', '--rpc-port', '0', '--port', '0', '--prometheus-port', '0'];
  const child: ChildProcess = spawn(pqNodeBinary(), args, { stdio: ['ignore', output, output] });
  const log = () => readFileSync(logPath, 'utf8');
  const deadline = Date.now() + STARTUP_MS;
  let rpcPort: number | undefined;
  while (rpcPort === undefined || !(await answers(rpcPort))) {
    // Complete lines only: the node may be writing the last one (a cut port would be wrong).
    const written = log();
    const listening = RPC_LISTENING.exec(written.slice(0, written.lastIndexOf('\n') + 1));
    if (listening) rpcPort = Number(listening[1]);
    if (child.exitCode !== null) throw new Error(`pq-node exited during startup:\n${log()}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`pq-node did not open JSON-RPC in ${STARTUP_MS} ms:\n${log()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url: `ws://127.0.0.1:${rpcPort}`,
    log,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGINT');
        await exited;
      }
      rmSync(basePath, { recursive: true, force: true });
    },
  };
}
