//! The bit packing only key generation and signing need (FIPS 204 §7.2, Algorithms 22, 24
//! and 26), for ML-DSA-87, and the share encoding. What verification needs is
//! [`fips204::encoding`].

use super::ring::{PolyVec, D, ETA, GAMMA1, K, L, N, OMEGA};
use crate::keys::{MlDsa87Public, MlDsa87Signature};
use alloc::vec::Vec;
use fips204::encoding::pack;

/// Bytes of an ML-DSA-87 `skEncode` key: `ρ`, `K`, `tr`, then `s1`, `s2` at 3 bits and `t0` at
/// `d` bits per coefficient (FIPS 204 Table 2: 4,896).
pub const SK_BYTES: usize = 32 + 32 + 64 + N / 8 * (3 * (L + K) + D as usize * K);

/// Bits of a coefficient in `[0, q)`: a share packs the full `t`, not `t1`.
pub const T_BITS: usize = 23;
/// Bytes of a packed `t` (k polynomials of 256 coefficients, 23 bits each).
pub const PACKED_T_BYTES: usize = K * N * T_BITS / 8;

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
/// `SimpleBitUnpack`, eight at a time). Coefficient `i` starts at bit `23·i`, so one 32-bit
/// little-endian load at its first byte holds it whole (a shift below 8 plus 23 bits): no
/// 128-bit arithmetic, which Wasm would emulate. They are 23-bit and may be `≥ q` if not
/// checked.
pub fn unpack_t_group(group: &[u8]) -> [u32; 8] {
	const MASK: u32 = (1 << T_BITS) - 1;
	// The group and one byte of padding, so the last load stays inside.
	let mut bytes = [0u8; T_GROUP_BYTES + 1];
	bytes[..T_GROUP_BYTES].copy_from_slice(&group[..T_GROUP_BYTES]);
	core::array::from_fn(|i| {
		let (byte, shift) = (i * T_BITS / 8, i * T_BITS % 8);
		let word =
			u32::from_le_bytes([bytes[byte], bytes[byte + 1], bytes[byte + 2], bytes[byte + 3]]);
		(word >> shift) & MASK
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
	pack(
		t0.iter().flat_map(|t| t.iter().map(|&c| ((1 << (D - 1)) - c) as u32)),
		D as usize,
		&mut out,
	);
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

#[cfg(test)]
mod tests {
	use super::*;
	use crate::aggregate::ring::{Poly, Q};

	#[test]
	fn t_packs_into_5888_bytes_and_back() {
		let t: PolyVec<K> = core::array::from_fn(|i| {
			Poly(core::array::from_fn(|j| ((i * N + j) as u32 * 40_503) % Q))
		});
		let packed = pack_t(&t);
		assert_eq!(packed.len(), 5888);
		let unpacked: Vec<u32> = unpack_t(&packed.try_into().unwrap()).collect();
		assert_eq!(unpacked, coefficients(&t).collect::<Vec<_>>());
	}
}
