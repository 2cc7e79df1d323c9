// Connect, transfer from the ML-DSA-65 dev account //Alice, watch to finalized.
// In your project, import from '@pq-verifier/client' and '@pq-verifier/client/papi'.

import { createClient, Enum } from 'polkadot-api';
import { getWsProvider } from 'polkadot-api/ws';
import { WebSocket } from 'ws'; // Node.js 20; Node.js 22 and browsers have a WebSocket
import { assertSecureEndpoint, Keypair } from '../src/index.js';
import { pqSigner } from '../src/papi.js';

/** Sends `amount` to the SS58 address `to` and returns the hash of the block that finalized it. */
export async function transfer(url: string, to: string, amount: bigint): Promise<string> {
  // The node supplies what is signed: wss://, or a node on this machine.
  assertSecureEndpoint(url);
  const client = createClient(getWsProvider(url, { websocketClass: WebSocket as unknown as typeof globalThis.WebSocket }));
  try {
    const alice = Keypair.fromSuri('ml-dsa-65', '//Alice');
    const api = client.getUnsafeApi();
    const call = api.tx.Balances.transfer_keep_alive({ dest: Enum('Id', to), value: amount });
    // `key-inline`: the key travels beside its signature; once the key is registered,
    // 'registered' leaves it out. Resolves when the block is finalized.
    const result = await call.signAndSubmit(pqSigner(alice, 'key-inline'));
    if (!result.ok) throw new Error(`transfer failed: ${JSON.stringify(result.dispatchError)}`);
    return result.block.hash;
  } finally {
    client.destroy();
  }
}

if (process.argv[1]?.endsWith('transfer.js')) {
  const [url = 'ws://127.0.0.1:9944', to = '5FHneW46xGXgs5mUiveU4sbTyGBzmstUspZC92UhjJM694ty'] = process.argv.slice(2);
  console.log('finalized in', await transfer(url, to, 1_000_000_000_000n));
}
