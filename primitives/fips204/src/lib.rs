//! A FIPS 204 (ML-DSA) verifier for ML-DSA-44, ML-DSA-65 and ML-DSA-87, with every expensive
//! part of a key computed once. `no_std` (with `alloc`), no dependency on any blockchain
//! framework; AVX2 code on x86-64 CPUs that have it, portable code everywhere else (Wasm).
//!
//! ## Overview
//!
//! A decoded [`VerifyingKey`] holds what FIPS 204 Algorithm 8 derives from the encoded key
//! before it looks at a signature — the matrix `Â = ExpandA(ρ)` (Algorithm 32), `NTT(t1·2^d)`
//! and `tr = H(pk, 64)` — so verifying with a kept key does only the rest: `sigDecode`,
//! `SampleInBall`, `ℓ` forward and `k` inverse NTTs, the products, `UseHint` and two SHAKE256
//! calls. Verifiers that re-derive all three on every verification (libcrux's) spend most of
//! their time there; keeping decoded keys is what a cache of them saves.
//!
//! - [`parameters`]: the three parameter sets (Table 1) and the sizes they give (Table 2);
//! - [`ring`]: `R_q` arithmetic — NTT (Algorithms 41, 42) and rounding (Algorithms 35–40);
//! - [`keccak`]: Keccak-f[1600], SHAKE128 and SHAKE256 for 64-bit machines without SIMD
//!   (portable builds, Wasm);
//! - [`sampling`]: `ExpandA` (Algorithm 32; four SHAKE128 streams at once with AVX2),
//!   `SampleInBall` (Algorithm 29) and `H`;
//! - [`encoding`]: bit unpacking, `sigDecode` (Algorithm 27) and `w1Encode` (Algorithm 28);
//! - [`verifying_key`]: `pkDecode` (Algorithm 23) with the derived data, Algorithm 3
//!   (`ML-DSA.Verify`, pure mode) and Algorithm 8 (`ML-DSA.Verify_internal`).
//!
//! A key is decoded only from its encoding ([`VerifyingKey::decode`]); the decoded form is
//! never accepted from outside. Keys that share `ρ` (a committee's aggregate keys) can share
//! one [`Matrix`] ([`VerifyingKey::decode_with`]). A key that verifies once needs no decoded
//! form: [`verify_once`] makes each row of `Â` as Algorithm 8 reaches it (portable code), so
//! nothing of the key is allocated — in Wasm, a kept matrix is 16–56 KiB of fresh memory.
//!
//! ```
//! use fips204::{MlDsa44, ParameterSet, VerifyingKey};
//!
//! // Any 1,312 bytes are an ML-DSA-44 key (pkDecode cannot fail); this one signed nothing.
//! let key = VerifyingKey::<MlDsa44>::decode(&[7; MlDsa44::PUBLIC_KEY_BYTES]);
//! let signature = [0; MlDsa44::SIGNATURE_BYTES];
//! assert!(!key.verify(b"message", b"context", &signature));
//! ```
//!
//! ## Assumptions
//!
//! Verification is a consensus decision for its users: this verifier must agree with every
//! other conforming one on every input. The NIST ACVP vectors (`tests/acvp.rs`), and in
//! `pq-crypto` the Wycheproof vectors and random agreement with libcrux and RustCrypto, run
//! against both engines. It handles public data only and is not constant-time.
//!
//! ## Unsafe code
//!
//! In the x86-64 engine: `avx2`, `keccak_x4`, `sampling`'s four-stream `ExpandA` and
//! `verifying_key`'s AVX2 entry point; elsewhere only `sampling`'s writes of sampled
//! coefficients into memory not zeroed first, and `keccak`'s volatile accesses in Wasm. Every
//! `unsafe` block has a `SAFETY` comment and every
//! `unsafe fn` a `# Safety` section. Two kinds of argument recur: code compiled for AVX2 runs
//! only where a value of the token type `avx2::Avx2` exists, which `Avx2::detect` makes only on
//! a CPU with AVX2 (AVX-512VL code only after `std`'s run-time detection saw it); and every
//! unaligned vector load or store reads or writes within its array or slice, by a bound checked
//! just before it (the rejection sampler's, for example, `position + 32 ≤ len`).

#![cfg_attr(not(test), no_std)]

extern crate alloc;
// `std`: run-time detection of AVX-512 for `ExpandA` (AVX2 needs none: see `avx2`).
#[cfg(all(not(test), feature = "std"))]
extern crate std;

#[cfg(target_arch = "x86_64")]
mod avx2;
pub mod encoding;
pub mod keccak;
#[cfg(target_arch = "x86_64")]
mod keccak_x4;
pub mod parameters;
pub mod ring;
pub mod sampling;
pub mod verifying_key;

pub use parameters::{
	MlDsa44, MlDsa65, MlDsa87, ParameterSet, Parameters, MAX_K, MAX_L, MAX_W1_BYTES,
};
pub use verifying_key::{pure_header, verify_once, verify_once_by, Matrix, VerifyingKey};

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
	/// [`ring::inner_product_minus`], into `out`. (This and [`Self::use_hints`] write into
	/// their caller's polynomial: one returned by value is copied there, a 1 KiB `memcpy` in
	/// Wasm.)
	fn inner_product_minus(
		self,
		a_hat: &[ring::Poly],
		b_hat: &[ring::Poly],
		c_hat: &ring::Poly,
		d_hat: &ring::Poly,
		out: &mut ring::Poly,
	);
	/// [`ring::use_hints`]: `UseHint` of every coefficient of `r`, with the hints of its row of
	/// `h`, into `w1`.
	fn use_hints(self, hint: &[bool; ring::N], r: &ring::Poly, gamma2: u32, w1: &mut ring::Poly);
}

#[cfg(test)]
mod tests {
	use super::{Engine, MlDsa44, MlDsa65, MlDsa87, ParameterSet};

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
		fn sizes<P: ParameterSet>() -> (usize, usize) {
			(P::PUBLIC_KEY_BYTES, P::SIGNATURE_BYTES)
		}
		assert_eq!(sizes::<MlDsa44>(), (1312, 2420));
		assert_eq!(sizes::<MlDsa65>(), (1952, 3309));
		assert_eq!(sizes::<MlDsa87>(), (2592, 4627));
	}
}
