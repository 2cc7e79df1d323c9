// Account ids of post-quantum keys: ids no classical signature can authorize. Mirrors
// `pq_crypto::account`; docs/wire-format.md specifies the derivation and the reference vectors
// check the two agree.

import { blake2_256, concat, littleEndian } from './scale.js';

/** `p = 2^255 − 19`. */
const P = 2n ** 255n - 19n;
/** The edwards25519 constant `d = −121665/121666 mod p` (RFC 8032, section 5.1). */
const D = 37095705934669439343138083508754565189542113879843219016388785533085940283555n;

/** Bit 7 of byte 31, set in every derived id: the top bit of a little-endian field element, so
 * the id is never a canonical one, which every Ristretto255 (sr25519) decoder requires. */
export const NON_CANONICAL_BIT = 0x80;

function modPow(base: bigint, exponent: bigint): bigint {
  let result = 1n;
  for (base %= P; exponent > 0n; exponent >>= 1n) {
    if (exponent & 1n) result = (result * base) % P;
    base = (base * base) % P;
  }
  return result;
}

/** Whether 32 bytes decode as an edwards25519 point (an Ed25519 public key) under the most
 * permissive decoding, the one curve25519-dalek, ed25519-zebra (ZIP 215) and so Substrate's
 * Ed25519 host function use: `y` (the low 255 bits, read mod `p`) is a point's exactly when
 * `(y² − 1)/(d·y² + 1)` is a square mod `p`, zero included. */
export function decodesAsEdwardsPoint(bytes: Uint8Array): boolean {
  if (bytes.length !== 32) throw new RangeError('an encoding is 32 bytes');
  let y = 0n;
  for (let i = 31; i >= 0; i--) y = (y << 8n) | BigInt(i === 31 ? bytes[i]! & 0x7f : bytes[i]!);
  y %= P;
  const ySquared = (y * y) % P;
  const u = (ySquared - 1n + P) % P;
  const v = (D * ySquared + 1n) % P;
  // u/v is a square exactly when u·v is (v is never 0); Euler's criterion.
  const uv = (u * v) % P;
  return uv === 0n || modPow(uv, (P - 1n) / 2n) === 1n;
}

/** The account id of `bytes` (a public key, or a committee id) under domain `tag`:
 * `seed = blake2_256(tag ‖ bytes)`, then the first `blake2_256(seed ‖ counter as u32 LE)`
 * with its top bit set, counter = 0, 1, 2, …, that is not an edwards25519 encoding. */
export function deriveAccountId(tag: Uint8Array, bytes: Uint8Array): Uint8Array {
  const seed = blake2_256(concat(tag, bytes));
  for (let counter = 0; ; counter++) {
    const candidate = blake2_256(concat(seed, littleEndian(counter, 4)));
    candidate[31]! |= NON_CANONICAL_BIT;
    if (!decodesAsEdwardsPoint(candidate)) return candidate;
  }
}
