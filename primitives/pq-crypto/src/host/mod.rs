//! Host functions: ML-DSA and Ed25519 verified by the node, natively — the interface, its node
//! side, and the [`Host`] backend a runtime verifies through.
//!
//! A runtime runs in Wasm, where ML-DSA verification costs about twice what it costs natively
//! with AVX2, while a stock runtime verifies Ed25519 through a native host function. These
//! host functions give ML-DSA the same footing. [`Host`] calls
//! them from a runtime; in a native build (tests, native benchmarks) the same calls run the
//! implementation below directly.
//!
//! The node side verifies with [`Fips204`](crate::backend::Fips204), our FIPS 204
//! verifier ([`fips204`]), the fastest backend of the micro-benchmarks both cold and
//! with a decoded key, which picks its AVX2 code at run time when the CPU has it. Its decoded
//! keys — `Â`, `NTT(t1·2^d)` and `tr` — and its committees' matrices and aggregate keys live in
//! one process-wide [`NodeCache`](node_cache::NodeCache), under one budget, shared by
//! pool validation, block authoring and block import, across blocks, so a key seen before
//! verifies without any of them. The cache changes speed only: a hit verifies with the key a
//! miss would have decoded.
//!
//! ## Compatibility
//!
//! A runtime that calls these functions imports them, and only a node that provides them can
//! run it: register [`pq_verify::HostFunctions`] beside `sp_io::SubstrateHostFunctions` in the
//! node's executor (and in `benchmark pallet`). A runtime that must run on stock nodes selects
//! a pure-Wasm backend instead. A changed function gets a new version (`#[version(2)]`); nodes
//! keep providing the old one for runtimes that still import it.

mod backend;
pub mod committee_matrix;
#[cfg(not(substrate_runtime))]
pub mod node;
pub mod node_cache;

pub use backend::Host;

use crate::keys::{
	Ed25519Public, Ed25519Signature, MlDsa44Public, MlDsa44Signature, MlDsa65Public,
	MlDsa65Signature, MlDsa87Public, MlDsa87Signature,
};
#[cfg(not(substrate_runtime))]
use crate::{AccountSignature, AccountSigner};
use sp_runtime_interface::{
	pass_by::{AllocateAndReturnByCodec, PassFatPointerAndRead, PassPointerAndRead},
	runtime_interface,
};

/// Signature verification by the node.
#[runtime_interface]
pub trait PqVerify {
	/// FIPS 204 Algorithm 8 `ML-DSA.Verify_internal` for ML-DSA-44, over a formatted `M′`.
	fn ml_dsa_44_verify_internal(
		public: PassPointerAndRead<&MlDsa44Public, { MlDsa44Public::LEN }>,
		message: PassFatPointerAndRead<&[u8]>,
		signature: PassPointerAndRead<&MlDsa44Signature, { MlDsa44Signature::LEN }>,
	) -> bool {
		node::verify(
			AccountSigner::MlDsa44(public.clone()),
			AccountSignature::MlDsa44(signature.clone()),
			message,
		)
	}

	/// FIPS 204 Algorithm 8 `ML-DSA.Verify_internal` for ML-DSA-65, over a formatted `M′`.
	fn ml_dsa_65_verify_internal(
		public: PassPointerAndRead<&MlDsa65Public, { MlDsa65Public::LEN }>,
		message: PassFatPointerAndRead<&[u8]>,
		signature: PassPointerAndRead<&MlDsa65Signature, { MlDsa65Signature::LEN }>,
	) -> bool {
		node::verify(
			AccountSigner::MlDsa65(public.clone()),
			AccountSignature::MlDsa65(signature.clone()),
			message,
		)
	}

	/// FIPS 204 Algorithm 8 `ML-DSA.Verify_internal` for ML-DSA-87, over a formatted `M′`.
	fn ml_dsa_87_verify_internal(
		public: PassPointerAndRead<&MlDsa87Public, { MlDsa87Public::LEN }>,
		message: PassFatPointerAndRead<&[u8]>,
		signature: PassPointerAndRead<&MlDsa87Signature, { MlDsa87Signature::LEN }>,
	) -> bool {
		node::verify(
			AccountSigner::MlDsa87(public.clone()),
			AccountSignature::MlDsa87(signature.clone()),
			message,
		)
	}

	/// FIPS 204 Algorithm 8 under an aggregate ML-DSA-87 key `pk*`. The node expands each
	/// committee's `Â` on its first valid signature and from then on verifies with it
	/// ([`committee_matrix`]).
	fn aggregate_ml_dsa_87_verify_internal(
		public: PassPointerAndRead<&MlDsa87Public, { MlDsa87Public::LEN }>,
		message: PassFatPointerAndRead<&[u8]>,
		signature: PassPointerAndRead<&MlDsa87Signature, { MlDsa87Signature::LEN }>,
	) -> bool {
		node::verify_aggregate(public, message, signature)
	}

	/// [`Self::aggregate_ml_dsa_87_verify_internal`], and once the signature verifies, the node
	/// remembers `public` as the key of the signer set `signers` (a bitfield) of `committee`.
	fn aggregate_ml_dsa_87_verify_internal_of_signer_set(
		committee: PassFatPointerAndRead<&[u8]>,
		signers: PassFatPointerAndRead<&[u8]>,
		public: PassPointerAndRead<&MlDsa87Public, { MlDsa87Public::LEN }>,
		message: PassFatPointerAndRead<&[u8]>,
		signature: PassPointerAndRead<&MlDsa87Signature, { MlDsa87Signature::LEN }>,
	) -> bool {
		node::verify_aggregate_of_signer_set(committee, signers, public, message, signature)
	}

	/// FIPS 204 Algorithm 8 under the key of the signer set `signers` of `committee`, if the
	/// node holds it (a signature verified under it through
	/// [`Self::aggregate_ml_dsa_87_verify_internal_of_signer_set`]); `None` if it does not, and
	/// the runtime derives the key from the committee's shares.
	fn aggregate_ml_dsa_87_verify_known_signer_set(
		committee: PassFatPointerAndRead<&[u8]>,
		signers: PassFatPointerAndRead<&[u8]>,
		message: PassFatPointerAndRead<&[u8]>,
		signature: PassPointerAndRead<&MlDsa87Signature, { MlDsa87Signature::LEN }>,
	) -> AllocateAndReturnByCodec<Option<bool>> {
		node::verify_known_signer_set(committee, signers, message, signature)
	}

	/// Whether `public` is usable under the project's Ed25519 rule (a curve point, not of small
	/// order; see [`crate::backend::StrictEd25519`]).
	fn ed25519_key_is_valid(
		public: PassPointerAndRead<&Ed25519Public, { Ed25519Public::LEN }>,
	) -> bool {
		node::key_is_valid(AccountSigner::Ed25519(public.clone()))
	}

	/// Ed25519 under the project's strict rule ([`crate::backend::StrictEd25519`]), over
	/// `message` as it is. Not `sp_io::crypto::ed25519_verify`, whose rule differs on edge cases.
	fn ed25519_verify(
		public: PassPointerAndRead<&Ed25519Public, { Ed25519Public::LEN }>,
		message: PassFatPointerAndRead<&[u8]>,
		signature: PassPointerAndRead<&Ed25519Signature, { Ed25519Signature::LEN }>,
	) -> bool {
		node::verify(
			AccountSigner::Ed25519(public.clone()),
			AccountSignature::Ed25519(signature.clone()),
			message,
		)
	}
}
