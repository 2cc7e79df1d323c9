//! [`PqVerifierApi`]: signatures checked by the runtime's own verifier, and account ids derived
//! from keys, on request.

use alloc::vec::Vec;
use polkadot_sdk::{
	frame_support::{traits::ConstU32, BoundedVec},
	sp_runtime::AccountId32,
};
use pq_crypto::{AccountSignature, AccountSigner, Domain, Purpose, VerifyError};

/// Most checks one [`PqVerifierApi::verify_signatures`] call takes (a longer request does not
/// decode): about 1.8 MiB decoded, and 256 ML-DSA-87 verifications.
pub const MAX_SIGNATURE_CHECKS: u32 = 256;

/// The checks of one [`PqVerifierApi::verify_signatures`] call: `(signer, signature, message,
/// purpose)`, encoded as a plain vector.
pub type SignatureChecks =
	BoundedVec<(AccountSigner, AccountSignature, Vec<u8>, Purpose), ConstU32<MAX_SIGNATURE_CHECKS>>;

polkadot_sdk::sp_api::decl_runtime_apis! {
	/// Checks a signature with the runtime's [`Config::Backend`](crate::Config::Backend), as
	/// the runtime checks its transactions (without the decoded-key cache, which changes speed
	/// only). A wallet can check a proof of possession before it pays for `register_key`, and
	/// anyone can run conformance vectors (FIPS 204 contexts, the internal interface) against a
	/// runtime blob on the node that executes it. Version 2 added [`Self::account_id`], version 3
	/// [`Self::verify_signatures`].
	#[api_version(3)]
	pub trait PqVerifierApi {
		/// Verifies `signature` by `signer` over `message` in `domain`.
		fn verify_signature(
			signer: AccountSigner,
			signature: AccountSignature,
			message: Vec<u8>,
			domain: Domain,
		) -> Result<(), VerifyError>;

		/// The account `signer` controls by construction (an Ed25519 key is its account; an
		/// ML-DSA key's and a committee's are hashes): the address a key-inline or committee
		/// transaction must name.
		fn account_id(signer: AccountSigner) -> AccountId32;

		/// Verifies each `(signer, signature, message, purpose)` in one runtime call, as the
		/// runtime checks a block's transactions: a key seen earlier in `checks` is decoded once
		/// (the pallet's in-call cache, [`Config::KeyCacheBytes`](crate::Config::KeyCacheBytes)).
		/// One verdict per check, in order; committee signers are refused like in
		/// [`Self::verify_signature`]. At most [`MAX_SIGNATURE_CHECKS`] checks: a decoded check
		/// holds the largest key and signature inline (about 7 KiB), so an unbounded request of
		/// small Ed25519 checks would take far more memory than its bytes.
		#[api_version(3)]
		fn verify_signatures(checks: SignatureChecks) -> Vec<Result<(), VerifyError>>;
	}
}
