//! Verification by the node through the [`crate::host`] functions.
//!
//! From a Wasm runtime every verification is one host call, which runs our own verifier
//! ([`Fips204`](crate::backend::Fips204), AVX2 when the CPU has it) natively with the node's
//! cross-block decoded-key cache; in a native build the same call runs that implementation
//! directly. Only nodes that register
//! [`crate::host::pq_verify::HostFunctions`] can run a runtime that uses this backend.
//!
//! The runtime side keeps the encoded key as its "decoded" key: decoding happens, and is cached,
//! on the node side, so an in-runtime cache in front of this backend saves nothing. Aggregate
//! signatures go to the node too, which keeps each committee's matrix across blocks.

use super::pq_verify;
use crate::{
	aggregate::SignerSet,
	backend::{Backend, Ed25519Verifier, MlDsaVerifier},
	keys::{Ed25519Public, Ed25519Signature, MlDsa87Public, MlDsa87Signature},
	message::{ed25519_message, pure_message},
	params::{MlDsa44, MlDsa65, MlDsa87, MlDsaParams},
	Purpose, VerifyError,
};

/// The backend that verifies through the node's host functions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, scale_info::TypeInfo)]
pub struct Host;

macro_rules! host_level {
	($params:ty, $verify_internal:ident) => {
		impl MlDsaVerifier<$params> for Host {
			type DecodedKey = <$params as MlDsaParams>::Public;
			const DECODED_KEY_BYTES: usize =
				core::mem::size_of::<<$params as MlDsaParams>::Public>();

			fn decode_key(public: &<$params as MlDsaParams>::Public) -> Self::DecodedKey {
				public.clone()
			}

			fn verify_decoded(
				key: &Self::DecodedKey,
				message: &[u8],
				context: &[u8],
				signature: &<$params as MlDsaParams>::Signature,
			) -> bool {
				pure_message(context, message).is_some_and(|formatted| {
					pq_verify::$verify_internal(key, &formatted, signature)
				})
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

host_level!(MlDsa44, ml_dsa_44_verify_internal);
host_level!(MlDsa65, ml_dsa_65_verify_internal);
host_level!(MlDsa87, ml_dsa_87_verify_internal);

impl Ed25519Verifier for Host {
	type DecodedKey = Ed25519Public;

	fn decode_key(public: &Ed25519Public) -> Option<Ed25519Public> {
		pq_verify::ed25519_key_is_valid(public).then(|| public.clone())
	}

	fn verify_decoded(
		key: &Ed25519Public,
		prefix: &[u8],
		message: &[u8],
		signature: &Ed25519Signature,
	) -> bool {
		pq_verify::ed25519_verify(key, &ed25519_message(prefix, message), signature)
	}
}

impl Backend for Host {
	const NAME: &'static str = "host";

	/// One host call; the node keeps its own caches and remembers the key as `signer_set`'s
	/// once a signature verified.
	fn verify_aggregate(
		signer_set: SignerSet<'_>,
		public: &MlDsa87Public,
		message: &[u8],
		purpose: Purpose,
		signature: &MlDsa87Signature,
	) -> Option<Result<(), VerifyError>> {
		let valid = pure_message(purpose.context(), message).is_some_and(|formatted| {
			pq_verify::aggregate_ml_dsa_87_verify_internal_of_signer_set(
				signer_set.committee.as_ref(),
				signer_set.signers.as_bytes(),
				public,
				&formatted,
				signature,
			)
		});
		Some(valid.then_some(()).ok_or(VerifyError::BadSignature))
	}

	/// One host call, answered from the node's cache.
	fn verify_known_signer_set(
		signer_set: SignerSet<'_>,
		message: &[u8],
		purpose: Purpose,
		signature: &MlDsa87Signature,
	) -> Option<Result<(), VerifyError>> {
		let formatted = pure_message(purpose.context(), message)?;
		pq_verify::aggregate_ml_dsa_87_verify_known_signer_set(
			signer_set.committee.as_ref(),
			signer_set.signers.as_bytes(),
			&formatted,
			signature,
		)
		.map(|valid| valid.then_some(()).ok_or(VerifyError::BadSignature))
	}
}
