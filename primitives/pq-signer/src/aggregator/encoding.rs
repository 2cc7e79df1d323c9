//! The bit packing only key generation and signing need (FIPS 204 §7.2, Algorithms 24 and
//! 26), for ML-DSA-87. Verification's is [`fips204::encoding`]; a committee's share encoding
//! and `pkEncode` are `pq_crypto::aggregate::encoding`'s.

use alloc::vec::Vec;
use fips204::encoding::pack;
use pq_crypto::{
	aggregate::ring::{D, ETA, GAMMA1, K, L, N, OMEGA},
	keys::MlDsa87Signature,
};

/// Bytes of an ML-DSA-87 `skEncode` key: `ρ`, `K`, `tr`, then `s1`, `s2` at 3 bits and `t0` at
/// `d` bits per coefficient (FIPS 204 Table 2: 4,896).
pub const SK_BYTES: usize = 32 + 32 + 64 + N / 8 * (3 * (L + K) + D as usize * K);

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
