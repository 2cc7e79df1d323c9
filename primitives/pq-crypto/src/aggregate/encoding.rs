//! Bit packing (FIPS 204 §7.1–7.2, Algorithms 16–28) for ML-DSA-87, and the share encoding.

use super::ring::{Poly, PolyVec, D, ETA, GAMMA1, K, L, N, OMEGA};
use crate::keys::{MlDsa87Public, MlDsa87Signature};
use alloc::vec::Vec;

/// Bytes of an ML-DSA-87 `skEncode` key: `ρ`, `K`, `tr`, then `s1`, `s2` at 3 bits and `t0` at
/// `d` bits per coefficient (FIPS 204 Table 2: 4,896).
pub const SK_BYTES: usize = 32 + 32 + 64 + N / 8 * (3 * (L + K) + D as usize * K);

/// Bits of a coefficient in `[0, q)`: a share packs the full `t`, not `t1`.
pub const T_BITS: usize = 23;
/// Bytes of a packed `t` (k polynomials of 256 coefficients, 23 bits each).
pub const PACKED_T_BYTES: usize = K * N * T_BITS / 8;

/// Algorithm 16 `SimpleBitPack` on every polynomial (values must fit `bits` bits), appended to `out`.
fn pack(values: impl Iterator<Item = u32>, bits: usize, out: &mut Vec<u8>) {
	let (mut buffer, mut held) = (0u64, 0usize);
	for value in values {
		buffer |= (value as u64) << held;
		held += bits;
		while held >= 8 {
			out.push(buffer as u8);
			buffer >>= 8;
			held -= 8;
		}
	}
	debug_assert_eq!(held, 0, "whole polynomials always fill whole bytes");
}

fn coefficients<const M: usize>(v: &PolyVec<M>) -> impl Iterator<Item = u32> + '_ {
	v.iter().flat_map(|poly| poly.0.iter().copied())
}

/// Packs `t` (coefficients in `[0, q)`) into [`PACKED_T_BYTES`] bytes.
pub fn pack_t(t: &PolyVec<K>) -> Vec<u8> {
	let mut out = Vec::with_capacity(PACKED_T_BYTES);
	pack(coefficients(t), T_BITS, &mut out);
	out
}

/// Bytes of eight packed 23-bit coefficients.
pub const T_GROUP_BYTES: usize = T_BITS;

/// Eight coefficients of [`pack_t`]'s encoding from their 23 bytes (Algorithm 18
/// `SimpleBitUnpack`, eight at a time): two little-endian loads instead of bit by bit. They are
/// 23-bit and may be `≥ q` if not checked.
pub fn unpack_t_group(group: &[u8]) -> [u32; 8] {
	const MASK: u128 = (1 << T_BITS) - 1;
	let mut word = [0u8; 24];
	word[..T_GROUP_BYTES].copy_from_slice(&group[..T_GROUP_BYTES]);
	let low = u128::from_le_bytes(word[..16].try_into().expect("16 of 24 bytes"));
	let high = u64::from_le_bytes(word[16..].try_into().expect("8 of 24 bytes")) as u128;
	// Bits 0..184 of the group, as one 192-bit value split at bit 128.
	core::array::from_fn(|i| {
		let shift = i * T_BITS;
		let value = if shift + T_BITS <= 128 {
			low >> shift
		} else if shift >= 128 {
			high >> (shift - 128)
		} else {
			(low >> shift) | (high << (128 - shift))
		};
		(value & MASK) as u32
	})
}

/// Every coefficient of [`pack_t`]'s encoding, polynomial by polynomial.
pub fn unpack_t(bytes: &[u8; PACKED_T_BYTES]) -> impl Iterator<Item = u32> + '_ {
	bytes.chunks_exact(T_GROUP_BYTES).flat_map(unpack_t_group)
}

/// Algorithm 22 `pkEncode(ρ, t1)`: 32 + 8·320 = 2,592 bytes.
pub fn pk_encode(rho: &[u8; 32], t1: &PolyVec<K>) -> MlDsa87Public {
	let mut out = Vec::with_capacity(MlDsa87Public::LEN);
	out.extend_from_slice(rho);
	pack(coefficients(t1), 10, &mut out);
	MlDsa87Public::from_slice(&out).expect("pkEncode writes an ML-DSA-87 public key's bytes")
}

/// Algorithm 24 `skEncode(ρ, K, tr, s1, s2, t0)`: 4,896 bytes. `s1`, `s2` and `t0` are given
/// as signed coefficients.
pub fn sk_encode(
	rho: &[u8; 32],
	key: &[u8; 32],
	tr: &[u8; 64],
	s1: &[[i32; N]; L],
	s2: &[[i32; N]; K],
	t0: &[[i32; N]; K],
) -> Vec<u8> {
	let mut out = Vec::with_capacity(SK_BYTES);
	out.extend_from_slice(rho);
	out.extend_from_slice(key);
	out.extend_from_slice(tr);
	// Algorithm 17 `BitPack(w, a, b)` stores `b − w`.
	let eta = |s: &[i32; N]| s.iter().map(|&c| (ETA as i32 - c) as u32).collect::<Vec<_>>();
	pack(s1.iter().flat_map(eta), 3, &mut out);
	pack(s2.iter().flat_map(eta), 3, &mut out);
	pack(t0.iter().flat_map(|t| t.iter().map(|&c| ((1 << (D - 1)) - c) as u32)), D as usize, &mut out);
	out
}

/// Algorithm 28 `w1Encode`: 4 bits per coefficient of `w1 ∈ [0, 15]`.
pub fn w1_encode(w1: &PolyVec<K>) -> Vec<u8> {
	let mut out = Vec::with_capacity(K * N / 2);
	pack(coefficients(w1), 4, &mut out);
	out
}

/// Algorithm 26 `sigEncode(c̃, z, h)`: 64 + 7·640 + 83 = 4,627 bytes. `z` is given as signed
/// coefficients in `(−γ1, γ1]`; `h` has at most `ω` bits set.
pub fn sig_encode(c_tilde: &[u8; 64], z: &[[i32; N]; L], h: &[[bool; N]; K]) -> MlDsa87Signature {
	let mut out = Vec::with_capacity(MlDsa87Signature::LEN);
	out.extend_from_slice(c_tilde);
	pack(z.iter().flat_map(|poly| poly.iter().map(|&c| (GAMMA1 as i32 - c) as u32)), 20, &mut out);
	// Algorithm 20 `HintBitPack`.
	let mut hints = [0u8; OMEGA + K];
	let mut index = 0;
	for (i, row) in h.iter().enumerate() {
		for (j, _) in row.iter().enumerate().filter(|(_, set)| **set) {
			hints[index] = j as u8;
			index += 1;
		}
		hints[OMEGA + i] = index as u8;
	}
	out.extend_from_slice(&hints);
	MlDsa87Signature::from_slice(&out).expect("sigEncode writes an ML-DSA-87 signature's bytes")
}

/// Bytes of `c̃` for ML-DSA-87 (`λ/4`).
pub const C_TILDE_BYTES: usize = 64;
/// Bytes of one packed polynomial of `z` (20 bits per coefficient).
const Z_POLY_BYTES: usize = N * 20 / 8;

/// Coefficient `index` of a polynomial packed at `bits` bits per coefficient, little-endian
/// (Algorithm 18 `SimpleBitUnpack`).
pub fn unpack_bits(packed: &[u8], index: usize, bits: usize) -> u32 {
	let first_bit = index * bits;
	let mut word = [0u8; 4];
	let available = packed.len() - first_bit / 8;
	word[..available.min(4)].copy_from_slice(&packed[first_bit / 8..][..available.min(4)]);
	(u32::from_le_bytes(word) >> (first_bit % 8)) & ((1 << bits) - 1)
}

/// Algorithm 27 `sigDecode`: `(c̃, z, h)`, or `None` where Algorithm 21 `HintBitUnpack` returns
/// `⊥` (hint counts out of order or above `ω`, indices not strictly increasing within a
/// polynomial, or nonzero padding).
pub fn sig_decode(signature: &[u8]) -> Option<(&[u8], PolyVec<L>, [[bool; N]; K])> {
	let (c_tilde, rest) = signature.split_at(C_TILDE_BYTES);
	let (packed_z, hints) = rest.split_at(L * Z_POLY_BYTES);
	// Algorithm 19 `BitUnpack(·, γ1 − 1, γ1)`: z = γ1 − value.
	let z = core::array::from_fn(|column| {
		let packed = &packed_z[column * Z_POLY_BYTES..][..Z_POLY_BYTES];
		Poly::from_signed(&core::array::from_fn(|i| GAMMA1 as i32 - unpack_bits(packed, i, 20) as i32))
	});
	let mut hint = [[false; N]; K];
	let mut index = 0usize;
	for (row, hint_row) in hint.iter_mut().enumerate() {
		let end = hints[OMEGA + row] as usize;
		if end < index || end > OMEGA {
			return None;
		}
		let first = index;
		while index < end {
			if index > first && hints[index - 1] >= hints[index] {
				return None;
			}
			hint_row[hints[index] as usize] = true;
			index += 1;
		}
	}
	if hints[index..OMEGA].iter().any(|&byte| byte != 0) {
		return None;
	}
	Some((c_tilde, z, hint))
}

#[cfg(test)]
mod tests {
	use super::*;
	use crate::aggregate::ring::Q;

	#[test]
	fn bits_unpack_across_byte_boundaries() {
		// Coefficients 0..8 at 10 bits: 0x3ff, 1, 2, …
		let values = [0x3ff, 1, 2, 3, 0x200, 5, 6, 0x155];
		let mut packed = [0u8; 10];
		for (i, value) in values.iter().enumerate() {
			for bit in 0..10 {
				if value >> bit & 1 == 1 {
					packed[(i * 10 + bit) / 8] |= 1 << ((i * 10 + bit) % 8);
				}
			}
		}
		for (i, value) in values.iter().enumerate() {
			assert_eq!(unpack_bits(&packed, i, 10), *value);
		}
	}

	#[test]
	fn t_packs_into_5888_bytes_and_back() {
		let t: PolyVec<K> =
			core::array::from_fn(|i| Poly(core::array::from_fn(|j| ((i * N + j) as u32 * 40_503) % Q)));
		let packed = pack_t(&t);
		assert_eq!(packed.len(), 5888);
		let unpacked: Vec<u32> = unpack_t(&packed.try_into().unwrap()).collect();
		assert_eq!(unpacked, coefficients(&t).collect::<Vec<_>>());
	}
}
