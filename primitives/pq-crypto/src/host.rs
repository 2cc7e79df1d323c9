//! Host functions: ML-DSA and Ed25519 verified by the node, natively.
//!
//! A runtime runs in Wasm, where ML-DSA verification costs about twice what it costs natively
//! with AVX2, while a stock runtime verifies Ed25519 through a native host function. These
//! host functions give ML-DSA the same footing. [`backend::Native`](crate::backend::Native) calls
//! them from a runtime; in a native build (tests, native benchmarks) the same calls run the
//! implementation below directly.
//!
//! The node side verifies with [`Precomputed`](crate::backend::Precomputed), our FIPS 204
//! verifier ([`fips204`]), the fastest backend of the micro-benchmarks both cold and
//! with a decoded key, which picks its AVX2 code at run time when the CPU has it. Its decoded
//! keys — `Â`, `NTT(t1·2^d)` and `tr` — and its committees' matrices and aggregate keys live in
//! one process-wide [`NodeCache`](crate::cache::node::NodeCache), under one budget, shared by
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

use crate::keys::{
	Ed25519Public, Ed25519Signature, MlDsa44Public, MlDsa44Signature, MlDsa65Public,
	MlDsa65Signature, MlDsa87Public, MlDsa87Signature,
};
#[cfg(not(substrate_runtime))]
use crate::{MultiSignature, MultiSigner};
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
			MultiSigner::MlDsa44(public.clone()),
			MultiSignature::MlDsa44(signature.clone()),
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
			MultiSigner::MlDsa65(public.clone()),
			MultiSignature::MlDsa65(signature.clone()),
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
			MultiSigner::MlDsa87(public.clone()),
			MultiSignature::MlDsa87(signature.clone()),
			message,
		)
	}

	/// FIPS 204 Algorithm 8 under an aggregate ML-DSA-87 key `pk*`. The node expands each
	/// committee's `Â` on its first valid signature and from then on verifies with it
	/// ([`crate::aggregate::verifier`]).
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
	/// order; see [`crate::backend::Dalek`]).
	fn ed25519_key_is_valid(
		public: PassPointerAndRead<&Ed25519Public, { Ed25519Public::LEN }>,
	) -> bool {
		node::key_is_valid(MultiSigner::Ed25519(public.clone()))
	}

	/// Ed25519 under the project's strict rule ([`crate::backend::Dalek`]), over `message` as
	/// it is. Not `sp_io::crypto::ed25519_verify`, whose rule differs on edge cases.
	fn ed25519_verify(
		public: PassPointerAndRead<&Ed25519Public, { Ed25519Public::LEN }>,
		message: PassFatPointerAndRead<&[u8]>,
		signature: PassPointerAndRead<&Ed25519Signature, { Ed25519Signature::LEN }>,
	) -> bool {
		node::verify(
			MultiSigner::Ed25519(public.clone()),
			MultiSignature::Ed25519(signature.clone()),
			message,
		)
	}
}

/// The node side: the process-wide cache and the verification behind it.
#[cfg(not(substrate_runtime))]
pub mod node {
	use crate::{
		aggregate::verifier::{
			rho_of, AggregateKey, AggregateKeyId, AggregateLookup, CommitteeMatrix,
		},
		backend::Precomputed,
		cache::{
			node::{NodeCache, NodeCacheOccupancy, NodeCacheStats, SignerSetKey},
			CacheLimits,
		},
		keys::{MlDsa87Public, MlDsa87Signature},
		params::MlDsa87,
		verify::{DecodedKey, KeyDigest, Signed},
		MultiSignature, MultiSigner,
	};
	use std::sync::{Arc, LazyLock, Mutex, MutexGuard, PoisonError};

	/// The backend the host functions run.
	pub type NodeBackend = Precomputed;

	/// The cache's limits unless [`configure`] sets others: 16,384 entries within 256 MiB, for
	/// decoded keys, committee matrices and aggregate keys together. A decoded key takes
	/// ~21/37/65 KiB (ML-DSA-44/65/87), so 256 MiB holds ~4,000 ML-DSA-87 or ~12,000 ML-DSA-44
	/// keys: five blocks' worth of distinct ML-DSA-87 senders at the measured block capacity,
	/// enough for a key to stay cached from pool validation to import.
	pub const DEFAULT_LIMITS: CacheLimits =
		CacheLimits { max_entries: 16_384, max_bytes: 256 << 20 };

	static CACHE: LazyLock<Mutex<NodeCache<NodeBackend>>> =
		LazyLock::new(|| Mutex::new(NodeCache::new(DEFAULT_LIMITS)));

	/// The cache; a panic elsewhere while it was locked leaves it consistent, so poisoning is
	/// ignored.
	fn cache() -> MutexGuard<'static, NodeCache<NodeBackend>> {
		CACHE.lock().unwrap_or_else(PoisonError::into_inner)
	}

	/// Replaces the cache with an empty one within `limits` (counters restart from zero). A
	/// node calls it once, before it verifies anything.
	pub fn configure(limits: CacheLimits) {
		*cache() = NodeCache::new(limits);
	}

	/// Hit, miss and eviction counters, by kind, for the node's metrics.
	pub fn stats() -> NodeCacheStats {
		cache().stats()
	}

	/// What the cache holds now.
	pub fn occupancy() -> NodeCacheOccupancy {
		cache().occupancy()
	}

	/// Verifies `signature` over `message` (`M′` for ML-DSA) with the key of `signer`: the
	/// cached one, or decoded now and cached if the signature verifies (a failed signature must
	/// not evict the keys of real signers). The lock is held for the lookup and the insertion
	/// only, so threads decode and verify in parallel.
	pub(super) fn verify(signer: MultiSigner, signature: MultiSignature, message: &[u8]) -> bool {
		let digest = KeyDigest::of(&signer);
		// Its own statement: the guard of an `if let` scrutinee would live through the verification.
		let cached = cache().lookup_key(&digest);
		if let Some(key) = cached {
			return key.verify(&signature, Signed::Internal(message)).is_ok();
		}
		let Ok(key) = DecodedKey::<NodeBackend>::decode(&signer) else { return false };
		let valid = key.verify(&signature, Signed::Internal(message)).is_ok();
		if valid {
			cache().insert_key(digest, Arc::new(key));
		}
		valid
	}

	/// Verifies `signature` over `M′` under the aggregate key `public` with its committee's
	/// matrix: cached, or expanded now (with AVX2 that costs less than libcrux's whole
	/// decode+verify). The key, and with it a matrix expanded for it, are cached only once the
	/// signature verified: garbage signatures cannot evict the committees that sign.
	pub(super) fn verify_aggregate(
		public: &MlDsa87Public,
		message: &[u8],
		signature: &MlDsa87Signature,
	) -> bool {
		verify_and_remember(public, message, signature, None)
	}

	/// [`verify_aggregate`], remembering `public` as the key of `signers` of `committee` once the
	/// signature verified.
	pub(super) fn verify_aggregate_of_signer_set(
		committee: &[u8],
		signers: &[u8],
		public: &MlDsa87Public,
		message: &[u8],
		signature: &MlDsa87Signature,
	) -> bool {
		let set = runtime_code_hash().and_then(|code| SignerSetKey::new(code, committee, signers));
		verify_and_remember(public, message, signature, set)
	}

	/// The verdict under the key of `signers` of `committee` if the cache holds it, for the
	/// runtime code that is calling.
	pub(super) fn verify_known_signer_set(
		committee: &[u8],
		signers: &[u8],
		message: &[u8],
		signature: &MlDsa87Signature,
	) -> Option<bool> {
		let set = SignerSetKey::new(runtime_code_hash()?, committee, signers)?;
		let key = cache().lookup_signer_set(&set)?;
		Some(key.verify_internal(message, signature.as_bytes()))
	}

	/// The hash of the runtime code of the state being executed (`:code`), which a signer set's
	/// remembered key is scoped to ([`SignerSetKey`]); `None` outside a runtime call, and then
	/// no signer set is remembered or known.
	fn runtime_code_hash() -> Option<[u8; 32]> {
		use polkadot_sdk::{
			sp_core::storage::well_known_keys::CODE, sp_externalities::with_externalities,
		};
		with_externalities(|externalities| externalities.storage_hash(CODE))
			.flatten()
			.and_then(|hash| hash.try_into().ok())
	}

	fn verify_and_remember(
		public: &MlDsa87Public,
		message: &[u8],
		signature: &MlDsa87Signature,
		signer_set: Option<SignerSetKey>,
	) -> bool {
		let id = AggregateKeyId::of(public);
		let lookup = cache().lookup_aggregate(&id);
		let (verified, key) = match lookup {
			AggregateLookup::Cached(key) => {
				(key.verify_internal(message, signature.as_bytes()), None)
			},
			AggregateLookup::Uncached(cached_matrix) => {
				let matrix = cached_matrix.unwrap_or_else(|| {
					Arc::new(CommitteeMatrix::expand::<MlDsa87>(&rho_of(public)))
				});
				let key = AggregateKey::decode_with(matrix, public.as_bytes())
					.expect("the matrix of the key's own ρ and level");
				(key.verify_internal(message, signature.as_bytes()), Some(key))
			},
		};
		if verified {
			let mut cache = cache();
			if let Some(key) = key {
				cache.insert_aggregate(&id, Arc::new(key));
			}
			if let Some(set) = signer_set {
				cache.insert_signer_set(set, &id);
			}
		}
		verified
	}

	/// Whether `signer` decodes (an Ed25519 key that is a curve point not of small order): a
	/// cached key did; otherwise decoding tells, and nothing is cached.
	pub(super) fn key_is_valid(signer: MultiSigner) -> bool {
		let cached = cache().lookup_key(&KeyDigest::of(&signer)).is_some();
		cached || DecodedKey::<NodeBackend>::decode(&signer).is_ok()
	}
}
