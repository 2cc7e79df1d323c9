//! Host functions: ML-DSA and Ed25519 verified by the node, natively.
//!
//! A runtime runs in Wasm, where ML-DSA verification costs about twice what it costs natively
//! with AVX2, while a stock runtime verifies Ed25519 through a native host function. These
//! host functions give ML-DSA the same footing. [`backend::Native`](crate::backend::Native) calls
//! them from a runtime; in a native build (tests, native benchmarks) the same calls run the
//! implementation below directly.
//!
//! The node side verifies with [`Libcrux`], the fastest backend of the micro-benchmarks, which
//! picks its AVX2 code at run time when the CPU has it, and keeps decoded keys in one
//! process-wide [`KeyCache`] shared by pool validation, block authoring and block import, across
//! blocks. The cache changes speed only: a hit verifies with the key a miss would have decoded.
//!
//! ## Compatibility
//!
//! A runtime that calls these functions imports them, and only a node that provides them can
//! run it: register [`pq_verify::HostFunctions`] beside `sp_io::SubstrateHostFunctions` in the
//! node's executor (and in `benchmark pallet`). A runtime that must run on stock nodes selects
//! a pure-Wasm backend instead. A changed function gets a new version (`#[version(2)]`); nodes
//! keep providing the old one for runtimes that still import it.

use crate::keys::{
	Ed25519Public, Ed25519Signature, MlDsa44Public, MlDsa44Signature, MlDsa65Public, MlDsa65Signature,
	MlDsa87Public, MlDsa87Signature,
};
#[cfg(not(substrate_runtime))]
use crate::{MultiSignature, MultiSigner};
use sp_runtime_interface::{
	pass_by::{PassFatPointerAndRead, PassPointerAndRead},
	runtime_interface,
};

/// Signature verification by the node.
#[runtime_interface]
pub trait PqVerify {
	/// FIPS 204 Algorithm 8 `ML-DSA.Verify_internal` for ML-DSA-44, over a formatted `M′`.
	fn ml_dsa_44_verify_internal(
		public: PassPointerAndRead<&MlDsa44Public, 1312>,
		message: PassFatPointerAndRead<&[u8]>,
		signature: PassPointerAndRead<&MlDsa44Signature, 2420>,
	) -> bool {
		node::verify(MultiSigner::MlDsa44(public.clone()), MultiSignature::MlDsa44(signature.clone()), message)
	}

	/// FIPS 204 Algorithm 8 `ML-DSA.Verify_internal` for ML-DSA-65, over a formatted `M′`.
	fn ml_dsa_65_verify_internal(
		public: PassPointerAndRead<&MlDsa65Public, 1952>,
		message: PassFatPointerAndRead<&[u8]>,
		signature: PassPointerAndRead<&MlDsa65Signature, 3309>,
	) -> bool {
		node::verify(MultiSigner::MlDsa65(public.clone()), MultiSignature::MlDsa65(signature.clone()), message)
	}

	/// FIPS 204 Algorithm 8 `ML-DSA.Verify_internal` for ML-DSA-87, over a formatted `M′`.
	fn ml_dsa_87_verify_internal(
		public: PassPointerAndRead<&MlDsa87Public, 2592>,
		message: PassFatPointerAndRead<&[u8]>,
		signature: PassPointerAndRead<&MlDsa87Signature, 4627>,
	) -> bool {
		node::verify(MultiSigner::MlDsa87(public.clone()), MultiSignature::MlDsa87(signature.clone()), message)
	}

	/// Whether `public` is usable under the project's Ed25519 rule (a curve point, not of small
	/// order; see [`crate::backend::Dalek`]).
	fn ed25519_key_is_valid(public: PassPointerAndRead<&Ed25519Public, 32>) -> bool {
		node::key_is_valid(MultiSigner::Ed25519(public.clone()))
	}

	/// Ed25519 under the project's strict rule ([`crate::backend::Dalek`]), over `message` as
	/// it is. Not `sp_io::crypto::ed25519_verify`, whose rule differs on edge cases.
	fn ed25519_verify(
		public: PassPointerAndRead<&Ed25519Public, 32>,
		message: PassFatPointerAndRead<&[u8]>,
		signature: PassPointerAndRead<&Ed25519Signature, 64>,
	) -> bool {
		node::verify(MultiSigner::Ed25519(public.clone()), MultiSignature::Ed25519(signature.clone()), message)
	}
}

/// The node side: the process-wide decoded-key cache and the verification behind it.
#[cfg(not(substrate_runtime))]
pub mod node {
	use crate::{
		backend::Libcrux,
		cache::{CacheLimits, CacheStats, DecodedKey, KeyCache, KeyDigest, Signed},
		MultiSignature, MultiSigner,
	};
	use std::sync::{Arc, LazyLock, Mutex, MutexGuard, PoisonError};

	/// The backend the host functions run.
	pub type NodeBackend = Libcrux;

	/// The cache's limits unless [`configure`] sets others: 16,384 keys within 64 MiB.
	pub const DEFAULT_LIMITS: CacheLimits = CacheLimits { max_entries: 16_384, max_bytes: 64 << 20 };

	static CACHE: LazyLock<Mutex<KeyCache<NodeBackend>>> =
		LazyLock::new(|| Mutex::new(KeyCache::new(DEFAULT_LIMITS)));

	/// The cache; a panic elsewhere while it was locked leaves it consistent, so poisoning is
	/// ignored.
	fn cache() -> MutexGuard<'static, KeyCache<NodeBackend>> {
		CACHE.lock().unwrap_or_else(PoisonError::into_inner)
	}

	/// Replaces the cache with an empty one within `limits` (counters restart from zero). A
	/// node calls it once, before it verifies anything.
	pub fn configure(limits: CacheLimits) {
		*cache() = KeyCache::new(limits);
	}

	/// Hit, miss and eviction counters of the cache, for the node's metrics.
	pub fn stats() -> CacheStats {
		cache().stats()
	}

	/// Keys and bytes the cache holds now.
	pub fn occupancy() -> (usize, usize) {
		let cache = cache();
		(cache.len(), cache.bytes())
	}

	/// The decoded key of `signer`, from the cache or decoded and cached. The lock is held for
	/// the lookup and the insertion only, so threads decode and verify in parallel.
	fn decoded(signer: &MultiSigner) -> Option<Arc<DecodedKey<NodeBackend>>> {
		let digest = KeyDigest::of(signer);
		if let Some(key) = cache().lookup(&digest) {
			return Some(key);
		}
		let key = Arc::new(DecodedKey::decode(signer).ok()?);
		cache().insert(digest, key.clone());
		Some(key)
	}

	/// Verifies `signature` over `message` (`M′` for ML-DSA) with the cached key of `signer`.
	pub(super) fn verify(signer: MultiSigner, signature: MultiSignature, message: &[u8]) -> bool {
		decoded(&signer).is_some_and(|key| key.verify(&signature, Signed::Internal(message)).is_ok())
	}

	/// Whether `signer` decodes (an Ed25519 key that is a curve point not of small order).
	pub(super) fn key_is_valid(signer: MultiSigner) -> bool {
		decoded(&signer).is_some()
	}
}
