//! Verification by the node through the [`crate::host`] functions.
//!
//! From a Wasm runtime every verification is one host call, which runs `libcrux-ml-dsa` (AVX2
//! when the CPU has it) natively with the node's cross-block decoded-key cache; in a native
//! build the same call runs that implementation directly. Only nodes that register
//! [`crate::host::pq_verify::HostFunctions`] can run a runtime that uses this backend.
//!
//! The runtime side keeps the encoded key as its "decoded" key: decoding happens, and is cached,
//! on the node side, so an in-runtime cache in front of this backend saves nothing. Aggregate
//! signatures go to the node too, which keeps each committee's matrix across blocks.

use super::{Backend, Ed25519Verifier, MlDsaVerifier};
use crate::{
	cache::KeyCache,
	host::pq_verify,
	keys::{Ed25519Public, Ed25519Signature, MlDsa87Public, MlDsa87Signature},
	params::{MlDsa44, MlDsa65, MlDsa87, MlDsaParams},
	Purpose, VerifyError,
};
use alloc::vec::Vec;

/// The backend that verifies through the node's host functions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, scale_info::TypeInfo)]
pub struct Native;

/// FIPS 204 Algorithm 3, lines 1–5: `M′ = 0 ‖ |ctx| ‖ ctx ‖ M`; `None` for a context longer
/// than 255 bytes, which never verifies.
fn pure_message(context: &[u8], message: &[u8]) -> Option<Vec<u8>> {
	let context_len = u8::try_from(context.len()).ok()?;
	let mut formatted = Vec::with_capacity(2 + context.len() + message.len());
	formatted.extend_from_slice(&[0, context_len]);
	formatted.extend_from_slice(context);
	formatted.extend_from_slice(message);
	Some(formatted)
}

macro_rules! native_level {
	($params:ty, $verify_internal:ident) => {
		impl MlDsaVerifier<$params> for Native {
			type DecodedKey = <$params as MlDsaParams>::Public;
			const DECODED_KEY_BYTES: usize = core::mem::size_of::<<$params as MlDsaParams>::Public>();

			fn decode_key(public: &<$params as MlDsaParams>::Public) -> Self::DecodedKey {
				public.clone()
			}

			fn verify_decoded(
				key: &Self::DecodedKey,
				message: &[u8],
				context: &[u8],
				signature: &<$params as MlDsaParams>::Signature,
			) -> bool {
				pure_message(context, message)
					.is_some_and(|formatted| pq_verify::$verify_internal(key, &formatted, signature))
			}

			fn verify_internal(
				key: &Self::DecodedKey,
				message: &[u8],
				signature: &<$params as MlDsaParams>::Signature,
			) -> bool {
				pq_verify::$verify_internal(key, message, signature)
			}
		}
	};
}

native_level!(MlDsa44, ml_dsa_44_verify_internal);
native_level!(MlDsa65, ml_dsa_65_verify_internal);
native_level!(MlDsa87, ml_dsa_87_verify_internal);

impl Ed25519Verifier for Native {
	type DecodedKey = Ed25519Public;

	fn decode_key(public: &Ed25519Public) -> Option<Ed25519Public> {
		pq_verify::ed25519_key_is_valid(public).then(|| public.clone())
	}

	fn verify_decoded(key: &Ed25519Public, prefix: &[u8], message: &[u8], signature: &Ed25519Signature) -> bool {
		if prefix.is_empty() {
			return pq_verify::ed25519_verify(key, message, signature);
		}
		let mut prefixed = Vec::with_capacity(prefix.len() + message.len());
		prefixed.extend_from_slice(prefix);
		prefixed.extend_from_slice(message);
		pq_verify::ed25519_verify(key, &prefixed, signature)
	}
}

impl Backend for Native {
	const NAME: &'static str = "native";

	/// One host call; `cache` stays unused, the node keeps its own.
	fn verify_aggregate(
		_cache: &mut KeyCache<Self>,
		public: &MlDsa87Public,
		message: &[u8],
		purpose: Purpose,
		signature: &MlDsa87Signature,
	) -> Result<(), VerifyError> {
		pure_message(purpose.context(), message)
			.is_some_and(|formatted| pq_verify::aggregate_ml_dsa_87_verify_internal(public, &formatted, signature))
			.then_some(())
			.ok_or(VerifyError::BadSignature)
	}
}

#[cfg(test)]
mod tests {
	use super::pure_message;

	#[test]
	fn pure_message_prefixes_the_context_and_its_length() {
		assert_eq!(pure_message(b"ctx", b"msg").unwrap(), b"\x00\x03ctxmsg");
		assert_eq!(pure_message(b"", b"").unwrap(), [0, 0]);
		assert!(pure_message(&[0; 255], b"m").is_some());
		assert!(pure_message(&[0; 256], b"m").is_none());
	}
}
