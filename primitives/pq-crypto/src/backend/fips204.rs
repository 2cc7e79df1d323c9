//! ML-DSA through our own verifier ([`fips204`]), whose decoded key holds
//! `Â`, `NTT(t1·2^d)` and `tr`: a cached key skips ExpandA, the NTTs of `t1` and the `tr`
//! hash, which libcrux re-derives on every verification; a key verified once is not decoded
//! into a kept form at all ([`fips204::verify_once`]). Portable Rust, the same native and in
//! Wasm.

use super::{ed25519_via_strict_rule, Backend, MlDsaVerifier};
use crate::params::MlDsaParams;
use alloc::sync::Arc;
use fips204::VerifyingKey;

/// The backend of this crate's own FIPS 204 verifier with precomputed key data.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, scale_info::TypeInfo)]
pub struct Fips204;

impl<P: MlDsaParams> MlDsaVerifier<P> for Fips204 {
	// Shared, not copied: a decoded ML-DSA-87 key is 64 KiB.
	type DecodedKey = Arc<VerifyingKey<P>>;
	const DECODED_KEY_BYTES: usize = VerifyingKey::<P>::BYTES_WITH_MATRIX;

	fn decode_key(public: &P::Public) -> Self::DecodedKey {
		Arc::new(VerifyingKey::decode(P::encoded_public_key(public)))
	}

	fn verify_decoded(
		key: &Self::DecodedKey,
		message: &[u8],
		context: &[u8],
		signature: &P::Signature,
	) -> bool {
		key.verify(message, context, P::encoded_signature(signature))
	}

	fn verify_internal(key: &Self::DecodedKey, message: &[u8], signature: &P::Signature) -> bool {
		key.verify_internal(message, P::encoded_signature(signature))
	}

	fn verify(
		public: &P::Public,
		message: &[u8],
		context: &[u8],
		signature: &P::Signature,
	) -> bool {
		fips204::verify_once::<P>(
			P::encoded_public_key(public),
			message,
			context,
			P::encoded_signature(signature),
		)
	}

	/// The portable engine (Wasm) makes `Â` a row at a time when it keeps nothing: no 16–56 KiB
	/// matrix, which in a Wasm instance is fresh memory. The AVX2 engine decodes either way.
	fn verify_is_lighter() -> bool {
		fips204::Engine::detect() == fips204::Engine::Portable
	}
}

ed25519_via_strict_rule!(Fips204);

impl Backend for Fips204 {
	const NAME: &'static str = "fips204";
}
