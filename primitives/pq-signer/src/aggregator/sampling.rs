//! The sampling only signing needs (FIPS 204 §7.3), for ML-DSA-87: the short secrets and the
//! aggregate masks. What verification needs is [`fips204::sampling`].

use fips204::sampling::h;
use pq_crypto::aggregate::ring::{Poly, PolyVec, ETA, K, L, N};

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

/// A mask vector with coefficients uniform in `[−bound, bound]`, from SHAKE256(`seed`) by
/// rejection. (FIPS 204's `ExpandMask` samples `[−γ1 + 1, γ1]`; aggregate masks are narrower,
/// see [`super`].)
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
