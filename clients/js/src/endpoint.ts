// Which node addresses a client may trust with what it signs. The node supplies the call
// indices (metadata), genesis hash and runtime version that go into every signed payload: over
// an unencrypted connection to another host, anyone on the network path could change them.
// The same rule as the Rust client's `Client::connect` (docs/security.md).

/** Whether `url` is encrypted (`wss:`, `https:`) or an unencrypted loopback address
 * (`localhost`, 127.0.0.0/8, `::1`); throws on what is not a URL. */
export function isSecureEndpoint(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new TypeError('not a URL');
  }
  if (parsed.protocol === 'wss:' || parsed.protocol === 'https:') return true;
  if (parsed.protocol !== 'ws:' && parsed.protocol !== 'http:') throw new TypeError(`not a node address: ${parsed.protocol}`);
  const host = parsed.hostname;
  return host === 'localhost' || host === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/** Refuses an unencrypted address of another host unless `insecure` says the path is trusted. */
export function assertSecureEndpoint(url: string, { insecure = false }: { insecure?: boolean } = {}): void {
  if (!insecure && !isSecureEndpoint(url)) {
    throw new Error(
      `refusing the unencrypted address ${url} of another host: anyone on the network path could change what is signed; use wss://, or allow it explicitly`,
    );
  }
}
