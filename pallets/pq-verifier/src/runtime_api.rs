//! [`PqVerifierApi`]: signatures checked by the runtime's own verifier, and account ids derived
//! from keys, on request.

use alloc::vec::Vec;
use polkadot_sdk::sp_runtime::AccountId32;
use pq_crypto::{Domain, MultiSignature, MultiSigner, VerifyError};

polkadot_sdk::sp_api::decl_runtime_apis! {
	/// Checks a signature with the runtime's [`Config::Backend`](crate::Config::Backend), as
	/// the runtime checks its transactions (without the decoded-key cache, which changes speed
	/// only). A wallet can check a proof of possession before it pays for `register_key`, and
	/// anyone can run conformance vectors (FIPS 204 contexts, the internal interface) against a
	/// runtime blob on the node that executes it. Version 2 added [`Self::account_id`].
	#[api_version(2)]
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
	}
}
