//! The node side of the host functions: the process-wide cache and the verification behind it.

use super::{
	committee_matrix::{rho_of, AggregateKey, AggregateKeyId, AggregateLookup, CommitteeMatrix},
	node_cache::{NodeCache, NodeCacheOccupancy, NodeCacheStats, SignerSetKey},
};
use crate::{
	backend::Fips204,
	cache::CacheLimits,
	keys::{MlDsa87Public, MlDsa87Signature},
	params::MlDsa87,
	verify::{DecodedKey, KeyDigest, Signed},
	AccountSignature, AccountSigner,
};
use std::sync::{Arc, LazyLock, Mutex, MutexGuard, PoisonError};

polkadot_sdk::sp_externalities::decl_extension! {
	/// The hash of the runtime code a call executes — the code the executor loaded from the
	/// state the call starts at, or `None` where that depends on the call (`:pending_code`
	/// set) — which what the node remembers of signer sets is scoped to. A node registers it for
	/// every runtime call (`pq-node`'s extensions factory), computed only when a committee's
	/// signature asks; without it, or with `None`, nothing is remembered or known. Not `:code`
	/// as the call sees it: a call that writes `:code` — `set_code` in an upgrade block, or any
	/// runtime on any fork — still executes the code it started with, and must not file what
	/// that code derived under another code's hash.
	pub struct ExecutingCode(LazyLock<Option<[u8; 32]>, Box<dyn FnOnce() -> Option<[u8; 32]> + Send>>);
}

impl ExecutingCode {
	/// The executing code's hash, found by `hash` if asked for.
	pub fn new(hash: impl FnOnce() -> Option<[u8; 32]> + Send + 'static) -> Self {
		Self(LazyLock::new(Box::new(hash)))
	}
}

/// The backend the host functions run.
pub type NodeBackend = Fips204;

/// The cache's limits unless [`configure`] sets others: 16,384 entries within 256 MiB, for
/// decoded keys, committee matrices and aggregate keys together. A decoded key takes
/// ~21/37/65 KiB (ML-DSA-44/65/87), so 256 MiB holds ~4,000 ML-DSA-87 or ~12,000 ML-DSA-44
/// keys: five blocks' worth of distinct ML-DSA-87 senders at the measured block capacity,
/// enough for a key to stay cached from pool validation to import.
pub const DEFAULT_LIMITS: CacheLimits = CacheLimits { max_entries: 16_384, max_bytes: 256 << 20 };

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
pub(super) fn verify(signer: AccountSigner, signature: AccountSignature, message: &[u8]) -> bool {
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

/// The hash of the runtime code being executed ([`ExecutingCode`]), which a signer set's
/// remembered key is scoped to ([`SignerSetKey`]); `None` outside a runtime call or where the
/// node registered no [`ExecutingCode`], and then no signer set is remembered or known.
fn runtime_code_hash() -> Option<[u8; 32]> {
	use polkadot_sdk::sp_externalities::{with_externalities, ExternalitiesExt};
	with_externalities(|mut externalities| {
		externalities.extension::<ExecutingCode>().and_then(|code| *code.0)
	})
	.flatten()
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
		AggregateLookup::Cached(key) => (key.verify_internal(message, signature.as_bytes()), None),
		AggregateLookup::Uncached(cached_matrix) => {
			let matrix = cached_matrix
				.unwrap_or_else(|| Arc::new(CommitteeMatrix::expand::<MlDsa87>(&rho_of(public))));
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
pub(super) fn key_is_valid(signer: AccountSigner) -> bool {
	let cached = cache().lookup_key(&KeyDigest::of(&signer)).is_some();
	cached || DecodedKey::<NodeBackend>::decode(&signer).is_ok()
}
