// The few SCALE encodings the transaction formats need (https://docs.polkadot.com/polkadot-protocol/parachain-basics/data-encoding/).

import { blake2b } from '@noble/hashes/blake2.js';

/** `a ‖ b ‖ …` */
export function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/** SCALE compact encoding of an unsigned integer. */
export function compact(value: number | bigint): Uint8Array {
  let n = BigInt(value);
  if (n < 0n) throw new RangeError('compact encodes unsigned integers');
  if (n < 1n << 6n) return Uint8Array.of(Number(n << 2n));
  if (n < 1n << 14n) return littleEndian((n << 2n) | 1n, 2);
  if (n < 1n << 30n) return littleEndian((n << 2n) | 2n, 4);
  const bytes: number[] = [];
  while (n > 0n) {
    bytes.push(Number(n & 0xffn));
    n >>= 8n;
  }
  if (bytes.length > 67) throw new RangeError('compact encodes at most 67 bytes (below 2^536)');
  return Uint8Array.of(((bytes.length - 4) << 2) | 3, ...bytes);
}

/** `value` as `width` little-endian bytes. */
export function littleEndian(value: number | bigint, width: number): Uint8Array {
  let n = BigInt(value);
  if (n < 0n || n >= 1n << BigInt(8 * width)) throw new RangeError(`${value} does not fit in ${width} bytes`);
  const out = new Uint8Array(width);
  for (let i = 0; i < width; i++) {
    out[i] = Number(n & 0xffn);
    n >>= 8n;
  }
  return out;
}

/** A SCALE `String`/`Vec<u8>`: compact length, then the bytes. */
export function lengthPrefixed(bytes: Uint8Array): Uint8Array {
  return concat(compact(bytes.length), bytes);
}

/** `blake2b-256`, Substrate's `blake2_256`. */
export function blake2_256(data: Uint8Array): Uint8Array {
  return blake2b(data, { dkLen: 32 });
}

export const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);

export function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}
