//! ML-DSA through this crate's own verifier ([`crate::fips204`]), whose decoded key holds
//! `Â`, `NTT(t1·2^d)` and `tr`: a cached key skips ExpandA, the NTTs of `t1` and the `tr`
//! hash, which libcrux re-derives on every verification. Portable Rust, the same native and in
//! Wasm.

use super::{ed25519_via_dalek, Backend, MlDsaVerifier};
use crate::{fips204::VerifyingKey, message::pure_message, params::MlDsaParams};
use alloc::sync::Arc;

/// The backend of this crate's own FIPS 204 verifier with precomputed key data.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, scale_info::TypeInfo)]
pub struct Precomputed;

impl<P: MlDsaParams> MlDsaVerifier<P> for Precomputed {
	// Shared, not copied: a decoded ML-DSA-87 key is 64 KiB.
	type DecodedKey = Arc<VerifyingKey<P>>;
	const DECODED_KEY_BYTES: usize = VerifyingKey::<P>::BYTES_WITH_MATRIX;

	fn decode_key(public: &P::Public) -> Self::DecodedKey {
		Arc::new(VerifyingKey::decode(public))
	}

	fn verify_decoded(
		key: &Self::DecodedKey,
		message: &[u8],
		context: &[u8],
		signature: &P::Signature,
	) -> bool {
		pure_message(context, message)
			.is_some_and(|m_prime| key.verify_internal(&m_prime, signature))
	}

	fn verify_internal(key: &Self::DecodedKey, message: &[u8], signature: &P::Signature) -> bool {
		key.verify_internal(message, signature)
	}
}

ed25519_via_dalek!(Precomputed);

impl Backend for Precomputed {
	const NAME: &'static str = "precomputed";
}
