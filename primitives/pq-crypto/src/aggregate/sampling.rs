//! Pseudorandom sampling (FIPS 204 §7.3) and the hash `H` (SHAKE256, §3.7), for ML-DSA-87.

use super::ring::{Poly, PolyVec, ETA, K, L, N, Q, TAU};
use shake::{ExtendableOutput, Shake128, Shake256, Shake256Reader, Update, XofReader};

/// `H(parts…)`: SHAKE256 over the concatenation, as a reader of any output length.
pub fn h(parts: &[&[u8]]) -> Shake256Reader {
	let mut hasher = Shake256::default();
	for part in parts {
		hasher.update(part);
	}
	hasher.finalize_xof()
}

/// `H(parts…, LEN)`.
pub fn h_bytes<const LEN: usize>(parts: &[&[u8]]) -> [u8; LEN] {
	let mut out = [0u8; LEN];
	h(parts).read(&mut out);
	out
}

/// Algorithm 30 `RejNTTPoly`: a uniform polynomial in the NTT domain from SHAKE128(`seed`).
fn rej_ntt_poly(seed: &[u8]) -> Poly {
	let mut xof = {
		let mut hasher = Shake128::default();
		hasher.update(seed);
		hasher.finalize_xof()
	};
	let mut poly = Poly::default();
	let mut filled = 0;
	// One SHAKE128 block (168 bytes, 56 candidates) at a time.
	let mut block = [0u8; 168];
	while filled < N {
		xof.read(&mut block);
		for bytes in block.chunks_exact(3) {
			// Algorithm 14 `CoeffFromThreeBytes`.
			let candidate = u32::from_le_bytes([bytes[0], bytes[1], bytes[2] & 0x7f, 0]);
			if candidate < Q && filled < N {
				poly.0[filled] = candidate;
				filled += 1;
			}
		}
	}
	poly
}

/// Algorithm 32 `ExpandA`: `Â[r][s] = RejNTTPoly(ρ ‖ s ‖ r)`.
pub fn expand_a(rho: &[u8; 32]) -> [PolyVec<L>; K] {
	core::array::from_fn(|r| {
		core::array::from_fn(|s| {
			let mut seed = [0u8; 34];
			seed[..32].copy_from_slice(rho);
			seed[32] = s as u8;
			seed[33] = r as u8;
			rej_ntt_poly(&seed)
		})
	})
}

/// Algorithm 31 `RejBoundedPoly` for `η = 2`, from SHAKE256(`seed`).
fn rej_bounded_poly(seed: &[u8]) -> Poly {
	let mut xof = h(&[seed]);
	let mut coefficients = [0i32; N];
	let mut filled = 0;
	// Algorithm 15 `CoeffFromHalfByte` for η = 2.
	let mut take = |half: u8, filled: &mut usize| {
		if half < 15 && *filled < N {
			coefficients[*filled] = ETA as i32 - (half % 5) as i32;
			*filled += 1;
		}
	};
	let mut byte = [0u8; 1];
	while filled < N {
		xof.read(&mut byte);
		take(byte[0] & 0x0f, &mut filled);
		take(byte[0] >> 4, &mut filled);
	}
	Poly::from_signed(&coefficients)
}

/// Algorithm 33 `ExpandS`: the short secrets `(s1, s2)` from the 64-byte seed `ρ′`.
pub fn expand_s(rho_prime: &[u8; 64]) -> (PolyVec<L>, PolyVec<K>) {
	let bounded = |index: usize| {
		let mut seed = [0u8; 66];
		seed[..64].copy_from_slice(rho_prime);
		seed[64..].copy_from_slice(&(index as u16).to_le_bytes());
		rej_bounded_poly(&seed)
	};
	(core::array::from_fn(bounded), core::array::from_fn(|r| bounded(r + L)))
}

/// Algorithm 29 `SampleInBall`: the challenge `c` with `τ` coefficients ±1, from `c̃`.
pub fn sample_in_ball(c_tilde: &[u8]) -> Poly {
	let mut xof = h(&[c_tilde]);
	let mut signs = [0u8; 8];
	xof.read(&mut signs);
	let signs = u64::from_le_bytes(signs);
	let mut c = [0i32; N];
	for i in N - TAU..N {
		let j = loop {
			let mut byte = [0u8; 1];
			xof.read(&mut byte);
			if byte[0] as usize <= i {
				break byte[0] as usize;
			}
		};
		c[i] = c[j];
		c[j] = if signs >> (i + TAU - N) & 1 == 1 { -1 } else { 1 };
	}
	Poly::from_signed(&c)
}

/// A mask vector with coefficients uniform in `[−bound, bound]`, from SHAKE256(`seed`) by
/// rejection. (FIPS 204's `ExpandMask` samples `[−γ1 + 1, γ1]`; aggregate masks are narrower,
/// see [`super::aggregator`].)
pub fn bounded_mask(seed: &[u8], bound: u32) -> PolyVec<L> {
	let range = 2 * bound + 1;
	let bits = u32::BITS - range.leading_zeros();
	let mut xof = h(&[seed]);
	core::array::from_fn(|_| {
		let mut coefficients = [0i32; N];
		let mut bytes = [0u8; 4];
		for coefficient in coefficients.iter_mut() {
			*coefficient = loop {
				xof.read(&mut bytes[..3]);
				let candidate = u32::from_le_bytes(bytes) & ((1 << bits) - 1);
				if candidate < range {
					break candidate as i32 - bound as i32;
				}
			};
		}
		Poly::from_signed(&coefficients)
	})
}
