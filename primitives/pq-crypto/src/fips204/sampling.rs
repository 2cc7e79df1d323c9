//! Pseudorandom sampling (FIPS 204 §7.3) and the hash `H` (SHAKE256, §3.7).

use super::{
	ring::{Poly, N, Q},
	Engine,
};
use alloc::{boxed::Box, vec::Vec};
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

/// Bytes of one SHAKE128 block: 56 candidates of Algorithm 14.
const SHAKE128_BLOCK: usize = 168;

/// The rejection sampling of Algorithm 30 `RejNTTPoly` over `stream`, the next bytes of a
/// SHAKE128 output: Algorithm 14 `CoeffFromThreeBytes` keeps each 23-bit candidate below `q`
/// until `poly` has 256 coefficients. Returns how many it has.
fn rej_ntt_fill(poly: &mut Poly, mut filled: usize, stream: &[u8]) -> usize {
	for bytes in stream.chunks_exact(3) {
		let candidate = u32::from_le_bytes([bytes[0], bytes[1], bytes[2] & 0x7f, 0]);
		if candidate < Q && filled < N {
			poly.0[filled] = candidate;
			filled += 1;
		}
	}
	filled
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
	let mut block = [0u8; SHAKE128_BLOCK];
	while filled < N {
		xof.read(&mut block);
		filled = rej_ntt_fill(&mut poly, filled, &block);
	}
	poly
}

/// The seed `ρ ‖ s ‖ r` of `Â[r][s]` (Algorithm 32), entry `index` of a row-major matrix of
/// `l` columns.
fn matrix_seed(rho: &[u8; 32], index: usize, l: usize) -> [u8; 34] {
	let mut seed = [0u8; 34];
	seed[..32].copy_from_slice(rho);
	(seed[32], seed[33]) = ((index % l) as u8, (index / l) as u8);
	seed
}

/// Algorithm 32 `ExpandA`: the `k × ℓ` matrix `Â[r][s] = RejNTTPoly(ρ ‖ s ‖ r)`, row by row.
/// Its `k·ℓ` SHAKE128 streams are independent: [`Engine::Avx2`] runs four at once.
pub fn expand_a(engine: Engine, rho: &[u8; 32], k: usize, l: usize) -> Box<[Poly]> {
	#[cfg(target_arch = "x86_64")]
	if engine.available() == Engine::Avx2 {
		// SAFETY: the CPU supports AVX2 (`available`).
		return unsafe { four_way::expand_a(rho, k, l) };
	}
	let _ = engine;
	(0..k * l).map(|index| rej_ntt_poly(&matrix_seed(rho, index, l))).collect::<Vec<_>>().into_boxed_slice()
}

/// ExpandA's SHAKE128 streams four at a time ([`super::keccak_x4`]), compiled for AVX2.
#[cfg(target_arch = "x86_64")]
mod four_way {
	use super::{matrix_seed, rej_ntt_fill, Poly, N};
	use crate::fips204::keccak_x4::{Shake128x4, RATE};
	use alloc::{boxed::Box, vec};

	/// [`super::expand_a`], four entries at a time; a last group of fewer than four repeats
	/// its last seed and drops the repeats.
	///
	/// # Safety
	/// The CPU must support AVX2.
	#[target_feature(enable = "avx2")]
	pub(super) unsafe fn expand_a(rho: &[u8; 32], k: usize, l: usize) -> Box<[Poly]> {
		let entries = k * l;
		let mut a_hat = vec![Poly::default(); entries];
		for first in (0..entries).step_by(4) {
			let seeds: [[u8; 34]; 4] = core::array::from_fn(|lane| matrix_seed(rho, (first + lane).min(entries - 1), l));
			let mut xof = Shake128x4::absorb([&seeds[0], &seeds[1], &seeds[2], &seeds[3]]);
			let mut polys = [Poly::default(); 4];
			let mut filled = [0usize; 4];
			let mut blocks = [[0u8; RATE]; 4];
			while filled.iter().any(|&count| count < N) {
				xof.squeeze_block(&mut blocks);
				for lane in 0..4 {
					filled[lane] = rej_ntt_fill(&mut polys[lane], filled[lane], &blocks[lane]);
				}
			}
			for (lane, poly) in polys.into_iter().enumerate().take(entries - first) {
				a_hat[first + lane] = poly;
			}
		}
		a_hat.into_boxed_slice()
	}
}

/// Algorithm 29 `SampleInBall`: the challenge `c` with `τ` coefficients ±1, from `c̃`.
pub fn sample_in_ball(c_tilde: &[u8], tau: usize) -> Poly {
	let mut xof = h(&[c_tilde]);
	let mut signs = [0u8; 8];
	xof.read(&mut signs);
	let signs = u64::from_le_bytes(signs);
	let mut c = [0i32; N];
	for i in N - tau..N {
		let j = loop {
			let mut byte = [0u8; 1];
			xof.read(&mut byte);
			if byte[0] as usize <= i {
				break byte[0] as usize;
			}
		};
		c[i] = c[j];
		c[j] = if signs >> (i + tau - N) & 1 == 1 { -1 } else { 1 };
	}
	Poly::from_signed(&c)
}

#[cfg(test)]
mod tests {
	use super::*;

	/// Both engines give the same matrix at every level's dimensions, including a last group
	/// of fewer than four entries (ML-DSA-65's 30 entries, and 1 × 3).
	#[test]
	fn four_way_expand_a_equals_the_portable_one() {
		for (k, l) in [(4, 4), (6, 5), (8, 7), (1, 3)] {
			for rho in [[0u8; 32], [0xa6; 32], core::array::from_fn(|i| i as u8 * 37)] {
				assert_eq!(expand_a(Engine::Avx2, &rho, k, l), expand_a(Engine::Portable, &rho, k, l), "k = {k}, l = {l}");
			}
		}
	}
}
