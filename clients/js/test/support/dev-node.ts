// A `pq-node --dev` on free loopback ports for the interop tests, as the Rust tests start one
// (client/src/node_process.rs): the binary of the shared build, or PQ_NODE.

import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';

/** How long a node may take to open JSON-RPC (a cold Wasm compilation included). */
const STARTUP_MS = 120_000;

export interface DevNode {
  url: string;
  log(): string;
  stop(): Promise<void>;
}

function nodeBinary(): string {
  const target = process.env.CARGO_TARGET_DIR ?? join(homedir(), '.cache', 'pq-verifier', 'target');
  const binary = process.env.PQ_NODE ?? join(target, 'release', 'pq-node');
  if (!existsSync(binary)) throw new Error(`no pq-node at ${binary}: build it (scripts/test.sh) or set PQ_NODE`);
  return binary;
}

/** `count` distinct ports nobody listens on right now: all bound at once, so no two are the same. */
async function freePorts(count: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from({ length: count }, () => new Promise<ReturnType<typeof createServer>>((resolve, reject) => {
      const server = createServer();
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve(server));
    })),
  );
  const ports = servers.map((server) => {
    const address = server.address();
    return typeof address === 'object' && address ? address.port : 0;
  });
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  return ports;
}

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
  const [rpcPort, p2pPort, prometheusPort] = await freePorts(3);
  const logPath = join(basePath, 'pq-node.log');
  const output = openSync(logPath, 'w');
  const args = ['--dev', '--base-path', basePath, '--rpc-port', `${rpcPort}`, '--port', `${p2pPort}`, '--prometheus-port', `${prometheusPort}`];
  const child: ChildProcess = spawn(nodeBinary(), args, { stdio: ['ignore', output, output] });
  const log = () => readFileSync(logPath, 'utf8');
  const deadline = Date.now() + STARTUP_MS;
  while (!(await answers(rpcPort))) {
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
