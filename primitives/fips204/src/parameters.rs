//! The parameter sets of FIPS 204 (Table 1) and the sizes they give (Table 2): the one place
//! a level's numbers are written; everything else derives from `k` and `ℓ` and these.

use crate::ring::{GAMMA2_BY_32, GAMMA2_BY_88, N, Q};

/// A level of ML-DSA as a type: its parameters and its encodings' sizes, so code written once
/// serves all three and a key of one level can never be used with another's.
///
/// Sealed: the verifier supports FIPS 204's three sets and no other (`Decompose` and `UseHint`,
/// in both engines, know only their two `γ2`, its working vectors hold at most ML-DSA-87's `k` and `ℓ`), so only
/// [`MlDsa44`], [`MlDsa65`] and [`MlDsa87`] implement it.
pub trait ParameterSet: sealed::Sealed + 'static {
	/// The name NIST gives it.
	const NAME: &'static str;
	/// Its parameters (FIPS 204 Table 1).
	const PARAMETERS: Parameters;
	/// Rows of the matrix `A`.
	const K: usize = Self::PARAMETERS.k;
	/// Columns of the matrix `A`.
	const L: usize = Self::PARAMETERS.l;
	/// Bytes of an encoded public key (`pkEncode`, Algorithm 22).
	const PUBLIC_KEY_BYTES: usize = Self::PARAMETERS.public_key_bytes();
	/// Bytes of an encoded signature (`sigEncode`, Algorithm 26).
	const SIGNATURE_BYTES: usize = Self::PARAMETERS.signature_bytes();
	/// An encoded public key: `[u8; PUBLIC_KEY_BYTES]` (an array length cannot name an
	/// associated constant of a generic parameter on stable Rust, so the type is spelled out).
	type EncodedPublicKey: AsRef<[u8]>;
	/// An encoded signature: `[u8; SIGNATURE_BYTES]`.
	type EncodedSignature: AsRef<[u8]>;
}

mod sealed {
	/// Implemented by the three parameter sets only.
	pub trait Sealed {}
	impl Sealed for super::MlDsa44 {}
	impl Sealed for super::MlDsa65 {}
	impl Sealed for super::MlDsa87 {}
}

/// ML-DSA-44: NIST security category 2.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MlDsa44;
/// ML-DSA-65: NIST security category 3.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MlDsa65;
/// ML-DSA-87: NIST security category 5.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MlDsa87;

impl ParameterSet for MlDsa44 {
	const NAME: &'static str = "ML-DSA-44";
	const PARAMETERS: Parameters = Parameters {
		k: 4,
		l: 4,
		eta: 2,
		tau: 39,
		lambda: 128,
		gamma1: 1 << 17,
		gamma2: GAMMA2_BY_88,
		omega: 80,
	};
	type EncodedPublicKey = [u8; 1312];
	type EncodedSignature = [u8; 2420];
}

impl ParameterSet for MlDsa65 {
	const NAME: &'static str = "ML-DSA-65";
	const PARAMETERS: Parameters = Parameters {
		k: 6,
		l: 5,
		eta: 4,
		tau: 49,
		lambda: 192,
		gamma1: 1 << 19,
		gamma2: GAMMA2_BY_32,
		omega: 55,
	};
	type EncodedPublicKey = [u8; 1952];
	type EncodedSignature = [u8; 3309];
}

impl ParameterSet for MlDsa87 {
	const NAME: &'static str = "ML-DSA-87";
	const PARAMETERS: Parameters = Parameters {
		k: 8,
		l: 7,
		eta: 2,
		tau: 60,
		lambda: 256,
		gamma1: 1 << 19,
		gamma2: GAMMA2_BY_32,
		omega: 75,
	};
	type EncodedPublicKey = [u8; 2592];
	type EncodedSignature = [u8; 4627];
}

/// Whether `P`'s spelled-out array types have the lengths Table 2 gives.
const fn encodings_have_their_sizes<P: ParameterSet>() -> bool {
	core::mem::size_of::<P::EncodedPublicKey>() == P::PUBLIC_KEY_BYTES
		&& core::mem::size_of::<P::EncodedSignature>() == P::SIGNATURE_BYTES
}

const _: () = assert!(
	encodings_have_their_sizes::<MlDsa44>()
		&& encodings_have_their_sizes::<MlDsa65>()
		&& encodings_have_their_sizes::<MlDsa87>()
);

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
/// Most bytes of `w1Encode` at any level (ML-DSA-87's `k = 8` polynomials at 4 bits), for the
/// buffer verification encodes `w1` into.
pub const MAX_W1_BYTES: usize = {
	let bytes = [
		MlDsa44::PARAMETERS.w1_bytes(),
		MlDsa65::PARAMETERS.w1_bytes(),
		MlDsa87::PARAMETERS.w1_bytes(),
	];
	let (mut most, mut i) = (0, 0);
	while i < bytes.len() {
		if bytes[i] > most {
			most = bytes[i];
		}
		i += 1;
	}
	most
};

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

	/// Bytes of `w1Encode`: `k` polynomials at [`Self::w1_bits`] bits.
	pub const fn w1_bytes(&self) -> usize {
		self.k * self.w1_poly_bytes()
	}

	/// Bytes of one polynomial of `w1Encode`: `N` coefficients at [`Self::w1_bits`] bits.
	pub const fn w1_poly_bytes(&self) -> usize {
		N * self.w1_bits() / 8
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
