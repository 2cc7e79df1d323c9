//! Our own FIPS 204 verifier, for ML-DSA-44, ML-DSA-65 and ML-DSA-87, with every expensive part
//! of a key computed once.
//!
//! ## Overview
//!
//! A decoded [`VerifyingKey`] holds what FIPS 204 Algorithm 8 derives from the encoded key
//! before it looks at a signature — the matrix `Â = ExpandA(ρ)` (Algorithm 32), `NTT(t1·2^d)`
//! and `tr = H(pk, 64)` — so verifying with a cached key does only the rest: `sigDecode`,
//! `SampleInBall`, `ℓ` forward and `k` inverse NTTs, the products, `UseHint` and two SHAKE256
//! calls. The libcrux backend re-derives all three on every verification; this is what makes
//! the decoded-key caches (in the runtime and across blocks in the node) save time.
//!
//! - [`ring`]: `R_q` arithmetic — NTT (Algorithms 41, 42) and rounding (Algorithms 35–40);
//! - [`keccak`]: Keccak-f[1600], SHAKE128 and SHAKE256 for 64-bit machines without SIMD
//!   (portable builds, Wasm);
//! - [`sampling`]: `ExpandA` (Algorithm 32; four SHAKE128 streams at once with AVX2),
//!   `SampleInBall` (Algorithm 29) and `H`;
//! - [`encoding`]: bit unpacking, `sigDecode` (Algorithm 27) and `w1Encode` (Algorithm 28);
//! - [`verifying_key`]: `pkDecode` (Algorithm 23) with the derived data, and Algorithm 8.
//!
//! A key is decoded only from its canonical encoding ([`VerifyingKey::decode`]); the decoded
//! form is never accepted from outside. Committees share one [`Matrix`] among all their
//! aggregate keys ([`crate::aggregate::verifier`]): one implementation serves both.
//!
//! ## Assumptions
//!
//! Verification is a consensus decision: this verifier must agree with libcrux and RustCrypto
//! on every input. The NIST ACVP and Wycheproof vectors and random agreement properties run
//! against it like against every backend. It handles public data only and is not constant-time.

#[cfg(target_arch = "x86_64")]
mod avx2;
pub mod encoding;
pub mod keccak;
#[cfg(target_arch = "x86_64")]
mod keccak_x4;
pub mod ring;
pub mod sampling;
pub mod verifying_key;

pub use verifying_key::{Matrix, VerifyingKey};

/// Which code the verifier runs: chosen once per call from the CPU's features.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
	/// Compiled for AVX2 (x86-64 CPUs that have it): the NTTs and products written with AVX2
	/// instructions ([`avx2`]), ExpandA's SHAKE128 four streams at a time ([`keccak_x4`]), the
	/// rest vectorized by the compiler.
	Avx2,
	/// Portable code: every other CPU, and Wasm.
	Portable,
}

impl Engine {
	/// The engine of this CPU: AVX2 where compiled in (x86-64) and supported.
	pub fn detect() -> Self {
		#[cfg(target_arch = "x86_64")]
		if avx2::Avx2::detect().is_some() {
			return Self::Avx2;
		}
		Self::Portable
	}

	/// The proof that this CPU runs AVX2, if `self` is [`Engine::Avx2`] and it does; with
	/// `None` the caller runs the portable code.
	#[cfg(target_arch = "x86_64")]
	fn avx2(self) -> Option<avx2::Avx2> {
		if self == Self::Avx2 {
			avx2::Avx2::detect()
		} else {
			None
		}
	}
}

/// The ring operations verification spends its time in, per engine: [`ring`]'s portable code
/// or [`avx2`]'s. Both give the same results.
trait Arithmetic: Copy {
	/// Algorithm 41 `NTT`, in place.
	fn ntt(self, poly: &mut ring::Poly);
	/// Algorithm 42 `NTT⁻¹`, in place.
	fn inverse_ntt(self, poly: &mut ring::Poly);
	/// [`ring::inner_product_minus`].
	fn inner_product_minus(
		self,
		a_hat: &[ring::Poly],
		b_hat: &[ring::Poly],
		c_hat: &ring::Poly,
		d_hat: &ring::Poly,
	) -> ring::Poly;
	/// [`ring::use_hint`] of every coefficient of `r`, with the hints of its row of `h`.
	fn use_hints(self, hint: &[bool; ring::N], r: &ring::Poly, gamma2: u32) -> ring::Poly;
}

use ring::Q;

/// A parameter set of FIPS 204 Table 1: what verification needs to know of a level.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Parameters {
	/// Rows of `A`.
	pub k: usize,
	/// Columns of `A`.
	pub l: usize,
	/// Private key range `η`.
	pub eta: u32,
	/// Nonzero coefficients of the challenge, `τ`.
	pub tau: usize,
	/// Collision strength of `c̃`, `λ` (bits).
	pub lambda: usize,
	/// Coefficient range of the mask, `γ1`.
	pub gamma1: u32,
	/// Low-order rounding range, `γ2`.
	pub gamma2: u32,
	/// Most hint bits a signature may carry, `ω`.
	pub omega: usize,
}

/// Most rows of `A` at any level (ML-DSA-87's `k`), for fixed-size working vectors.
pub const MAX_K: usize = 8;
/// Most columns of `A` at any level (ML-DSA-87's `ℓ`).
pub const MAX_L: usize = 7;

impl Parameters {
	/// `β = τ·η`.
	pub const fn beta(&self) -> u32 {
		self.tau as u32 * self.eta
	}

	/// Bytes of `c̃`: `λ/4`.
	pub const fn c_tilde_bytes(&self) -> usize {
		self.lambda / 4
	}

	/// Bits of a packed coefficient of `z`: `1 + bitlen(γ1 − 1)`.
	pub const fn z_bits(&self) -> usize {
		1 + bit_length(self.gamma1 - 1)
	}

	/// Bits of a coefficient of `w1` in `w1Encode`: `bitlen((q − 1)/(2γ2) − 1)`.
	pub const fn w1_bits(&self) -> usize {
		bit_length((Q - 1) / (2 * self.gamma2) - 1)
	}

	/// Bytes of `pkEncode`: `ρ` and `k` polynomials of `t1` at 10 bits (Table 2).
	pub const fn public_key_bytes(&self) -> usize {
		32 + self.k * 320
	}

	/// Bytes of `sigEncode`: `c̃`, `ℓ` polynomials of `z`, then `ω + k` hint bytes (Table 2).
	pub const fn signature_bytes(&self) -> usize {
		self.c_tilde_bytes() + self.l * 32 * self.z_bits() + self.omega + self.k
	}
}

const fn bit_length(value: u32) -> usize {
	(u32::BITS - value.leading_zeros()) as usize
}

#[cfg(test)]
mod tests {
	use super::Engine;
	use crate::params::{MlDsa44, MlDsa65, MlDsa87, MlDsaParams};

	/// On x86-64 with AVX2 (every machine this project is measured on) the AVX2 engine is the
	/// one that runs; elsewhere the portable one.
	#[test]
	fn the_avx2_engine_runs_where_the_cpu_has_avx2() {
		#[cfg(target_arch = "x86_64")]
		let expected =
			if std::is_x86_feature_detected!("avx2") { Engine::Avx2 } else { Engine::Portable };
		#[cfg(not(target_arch = "x86_64"))]
		let expected = Engine::Portable;
		assert_eq!(Engine::detect(), expected);
	}

	#[test]
	fn sizes_follow_table_2() {
		fn sizes<P: MlDsaParams>() -> (usize, usize) {
			(P::FIPS204.public_key_bytes(), P::FIPS204.signature_bytes())
		}
		assert_eq!(sizes::<MlDsa44>(), (1312, 2420));
		assert_eq!(sizes::<MlDsa65>(), (1952, 3309));
		assert_eq!(sizes::<MlDsa87>(), (2592, 4627));
	}
}
