//! [`PqVerifierApi`]: signatures checked by the runtime's own verifier, and account ids derived
//! from keys, on request.

use alloc::vec::Vec;
use polkadot_sdk::sp_runtime::AccountId32;
use pq_crypto::{Domain, MultiSignature, MultiSigner, Purpose, VerifyError};

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
			signer: MultiSigner,
			signature: MultiSignature,
			message: Vec<u8>,
			domain: Domain,
		) -> Result<(), VerifyError>;

		/// The account `signer` controls by construction (an Ed25519 key is its account; an
		/// ML-DSA key's and a committee's are hashes): the address a key-inline or committee
		/// transaction must name.
		fn account_id(signer: MultiSigner) -> AccountId32;

		/// Verifies each `(signer, signature, message, purpose)` in one runtime call, as the
		/// runtime checks a block's transactions: a key seen earlier in `checks` is decoded once
		/// (the pallet's in-call cache, [`Config::KeyCacheBytes`](crate::Config::KeyCacheBytes)).
		/// One verdict per check, in order; committee signers are refused like in
		/// [`Self::verify_signature`]. The work is proportional to the request's bytes, like
		/// as many calls of [`Self::verify_signature`].
		#[api_version(3)]
		fn verify_signatures(checks: Vec<(MultiSigner, MultiSignature, Vec<u8>, Purpose)>) -> Vec<Result<(), VerifyError>>;
	}
}
