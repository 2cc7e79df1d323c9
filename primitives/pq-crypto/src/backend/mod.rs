//! Pluggable verifier backends.
//!
//! A backend is a type (chosen as a type parameter, e.g. by a pallet's `Config`) that verifies
//! every scheme. Each scheme offers the three steps whose costs we measure separately:
//!
//! - **decode**: `pkDecode` (FIPS 204 Algorithm 23) plus whatever the backend can precompute
//!   from the key — for ML-DSA, `Â = ExpandA(ρ)` (Algorithm 32), `NTT(t1·2^d)` and
//!   `tr = H(pk, 64)`; for Ed25519, point decompression;
//! - **verify with a decoded key**: the rest of `ML-DSA.Verify` (Algorithm 3) or of Ed25519;
//! - **decode + verify**: both, which is what a transaction with its key inline costs.
//!
//! An aggregate signature is an ML-DSA-87 signature under `pk*`, verified like any other,
//! except through [`Host`](crate::host::Host), whose node keeps each committee's `Â`
//! ([`Backend::verify_aggregate`]).
//!
//! What is signed is formatted in [`crate::message`]; the dispatch from a key of any scheme to
//! its backend is [`crate::verify::DecodedKey`].
//!
//! The backend that verifies through the node's host functions, `Host`, lives in
//! [`crate::host`] beside them: it calls them, and their node side verifies with [`Fips204`]
//! — here, it would make this module and `host` import each other.
//!
//! Backends must agree on every input: which one a runtime uses is a performance choice, never
//! a consensus one. The test suite runs the same vectors and properties against each.

mod ed25519;
mod fips204;
mod libcrux;
mod rustcrypto;

pub use self::{
	ed25519::StrictEd25519, fips204::Fips204, libcrux::Libcrux, rustcrypto::RustCrypto,
};

use crate::{
	aggregate::SignerSet,
	keys::{Ed25519Public, Ed25519Signature, MlDsa87Public, MlDsa87Signature},
	params::{MlDsa44, MlDsa65, MlDsa87, MlDsaParams},
	Purpose, VerifyError,
};

/// Verifies ML-DSA signatures of parameter set `P`.
pub trait MlDsaVerifier<P: MlDsaParams> {
	/// A verifying key with the derived data the backend keeps precomputed.
	type DecodedKey: Clone + Send + Sync + 'static;

	/// Bytes one decoded key occupies, for the cache's byte budget.
	const DECODED_KEY_BYTES: usize;

	/// Decodes a public key. `pkDecode` accepts every byte string of the right length, so this
	/// cannot fail; a bad key shows up as a signature that does not verify.
	fn decode_key(public: &P::Public) -> Self::DecodedKey;

	/// FIPS 204 Algorithm 3 `ML-DSA.Verify` (pure mode) with an already decoded key. A context
	/// longer than 255 bytes never verifies.
	fn verify_decoded(
		key: &Self::DecodedKey,
		message: &[u8],
		context: &[u8],
		signature: &P::Signature,
	) -> bool;

	/// FIPS 204 Algorithm 8 `ML-DSA.Verify_internal`: `message` is `M′`, already formatted.
	/// Exposed for the NIST ACVP vectors, which test this interface.
	fn verify_internal(key: &Self::DecodedKey, message: &[u8], signature: &P::Signature) -> bool;

	/// Decode and verify in one call, keeping nothing: a key that travels with its signature,
	/// or that a cache has not seen verify before ([`Self::verify_is_lighter`]).
	fn verify(
		public: &P::Public,
		message: &[u8],
		context: &[u8],
		signature: &P::Signature,
	) -> bool {
		Self::verify_decoded(&Self::decode_key(public), message, context, signature)
	}

	/// Whether [`Self::verify`] costs less than [`Self::decode_key`] then
	/// [`Self::verify_decoded`]. If so, [`crate::cache::KeyCache`] verifies a key's first
	/// signature with it and decodes the key to keep at its second: in a block of distinct
	/// signers no decoded key is made, and a repeat signer pays one decode more. False unless a
	/// backend says otherwise.
	fn verify_is_lighter() -> bool {
		false
	}
}

/// Verifies Ed25519 signatures under the project's validity rule (see [`StrictEd25519`]).
pub trait Ed25519Verifier {
	/// A decompressed public key.
	type DecodedKey: Clone + Send + Sync + 'static;

	/// Decompresses a public key; `None` if it is not a curve point or is of small order.
	fn decode_key(public: &Ed25519Public) -> Option<Self::DecodedKey>;

	/// Verifies `signature` over `prefix ‖ message` (the prefix is the purpose's domain tag).
	fn verify_decoded(
		key: &Self::DecodedKey,
		prefix: &[u8],
		message: &[u8],
		signature: &Ed25519Signature,
	) -> bool;

	/// Decode and verify in one call.
	fn verify(
		public: &Ed25519Public,
		prefix: &[u8],
		message: &[u8],
		signature: &Ed25519Signature,
	) -> bool {
		Self::decode_key(public)
			.is_some_and(|key| Self::verify_decoded(&key, prefix, message, signature))
	}
}

/// A complete backend: every ML-DSA level plus Ed25519.
pub trait Backend:
	MlDsaVerifier<MlDsa44> + MlDsaVerifier<MlDsa65> + MlDsaVerifier<MlDsa87> + Ed25519Verifier + 'static
{
	/// Name used in benchmark reports and test names.
	const NAME: &'static str;

	/// Verifies an aggregate signature of `signer_set` (`signature` under its aggregate key
	/// `public` over `message` for `purpose`) the backend's own way, if it has one:
	/// [`Host`](crate::host::Host) asks the node, which expands each committee's `Â` once
	/// ([`crate::host`]) and, once a signature verified, remembers `public` as the signer set's
	/// key. `None`, the
	/// default: an ordinary ML-DSA-87 verification, which
	/// [`crate::cache::KeyCache::verify_aggregate`] runs through its cache.
	fn verify_aggregate(
		_signer_set: SignerSet<'_>,
		_public: &MlDsa87Public,
		_message: &[u8],
		_purpose: Purpose,
		_signature: &MlDsa87Signature,
	) -> Option<Result<(), VerifyError>> {
		None
	}

	/// The verdict on an aggregate signature of `signer_set`, if the backend already holds its
	/// aggregate key — a signature verified under it before — so the chain need not read the
	/// shares that derive it. `None`, the default: unknown; derive the key. A hit gives the
	/// verdict the derived key would: a signer set has one key (see [`SignerSet`]).
	fn verify_known_signer_set(
		_signer_set: SignerSet<'_>,
		_message: &[u8],
		_purpose: Purpose,
		_signature: &MlDsa87Signature,
	) -> Option<Result<(), VerifyError>> {
		None
	}
}

/// Implements [`Ed25519Verifier`] for an ML-DSA backend by delegating to [`StrictEd25519`], the one
/// implementation of the project's Ed25519 rule.
macro_rules! ed25519_via_strict_rule {
	($backend:ty) => {
		impl $crate::backend::Ed25519Verifier for $backend {
			type DecodedKey =
				<$crate::backend::StrictEd25519 as $crate::backend::Ed25519Verifier>::DecodedKey;

			fn decode_key(public: &$crate::keys::Ed25519Public) -> Option<Self::DecodedKey> {
				<$crate::backend::StrictEd25519 as $crate::backend::Ed25519Verifier>::decode_key(
					public,
				)
			}

			fn verify_decoded(
				key: &Self::DecodedKey,
				prefix: &[u8],
				message: &[u8],
				signature: &$crate::keys::Ed25519Signature,
			) -> bool {
				<$crate::backend::StrictEd25519 as $crate::backend::Ed25519Verifier>::verify_decoded(
					key, prefix, message, signature,
				)
			}
		}
	};
}
use ed25519_via_strict_rule;
