//! ML-DSA through RustCrypto's `ml-dsa` crate.
//!
//! Its `VerifyingKey` keeps the derived data (`Â`, `NTT(t1·2^d)`, `tr`) computed once at
//! decode time, so a cached decoded key skips ExpandA, the NTTs of `t1` and the `tr` hash.

use super::{ed25519_via_strict_rule, Backend, MlDsaVerifier};
use crate::params::{self, MlDsaParams};
use ml_dsa::{EncodedSignature, EncodedVerifyingKey, Signature, VerifyingKey};

/// The RustCrypto `ml-dsa` backend (portable Rust, the same code native and in Wasm).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, scale_info::TypeInfo)]
pub struct RustCrypto;

macro_rules! rustcrypto_level {
	($ours:ty, $theirs:ty) => {
		impl MlDsaVerifier<$ours> for RustCrypto {
			type DecodedKey = VerifyingKey<$theirs>;
			const DECODED_KEY_BYTES: usize = <$ours as MlDsaParams>::EXPANDED_KEY_BYTES
				+ core::mem::size_of::<VerifyingKey<$theirs>>();

			fn decode_key(public: &<$ours as MlDsaParams>::Public) -> Self::DecodedKey {
				let encoded: &EncodedVerifyingKey<$theirs> = public.as_bytes().into();
				VerifyingKey::decode(encoded)
			}

			fn verify_decoded(
				key: &Self::DecodedKey,
				message: &[u8],
				context: &[u8],
				signature: &<$ours as MlDsaParams>::Signature,
			) -> bool {
				decode_signature::<$theirs>(signature.as_bytes())
					.is_some_and(|signature| key.verify_with_context(message, context, &signature))
			}

			fn verify_internal(
				key: &Self::DecodedKey,
				message: &[u8],
				signature: &<$ours as MlDsaParams>::Signature,
			) -> bool {
				decode_signature::<$theirs>(signature.as_bytes())
					.is_some_and(|signature| key.verify_internal(message, &signature))
			}
		}
	};
}

/// FIPS 204 Algorithm 27 `sigDecode`, with the `‖z‖∞ < γ1 − β` check of Algorithm 8.
fn decode_signature<P: ml_dsa::MlDsaParams>(bytes: &[u8]) -> Option<Signature<P>> {
	let encoded = EncodedSignature::<P>::try_from(bytes).ok()?;
	Signature::decode(&encoded)
}

rustcrypto_level!(params::MlDsa44, ml_dsa::MlDsa44);
rustcrypto_level!(params::MlDsa65, ml_dsa::MlDsa65);
rustcrypto_level!(params::MlDsa87, ml_dsa::MlDsa87);
ed25519_via_strict_rule!(RustCrypto);

impl Backend for RustCrypto {
	const NAME: &'static str = "rustcrypto";
}
