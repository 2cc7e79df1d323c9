//! Verifying aggregate signatures with `Â = ExpandA(ρ)` computed once per committee.
//!
//! Every aggregate key `pk*` of a committee carries the committee's `ρ`, so every signer set
//! shares one matrix `Â`, the largest part of decoding an ML-DSA-87 key (56 polynomials
//! rejection-sampled from SHAKE128). The backends' decoders cannot take a precomputed matrix,
//! so this module verifies on its own:
//!
//! - [`CommitteeMatrix`]: `Â` of one `ρ` (FIPS 204 Algorithm 32), expanded once;
//! - [`AggregateKey`]: a decoded `pk*` — the shared matrix, `NTT(t1·2^d)` and `tr` — which
//!   verifies with Algorithm 8 like any key of [`crate::fips204`], the one verifier;
//! - [`AggregateKeyCache`]: matrices by `ρ` and decoded keys by digest ([`AggregateKeyId`]),
//!   each bounded.
//!
//! With `Â` expanded (by AVX2 where the CPU has it) a committee key decodes in a fraction of a
//! verification, and expanding `Â` costs less than libcrux's whole decode+verify; the node
//! expands a committee's matrix on its first signature ([`crate::host`]) and weights charge
//! that path, expansion included (`docs/aggregate.md` has the figures).
//!
//! Verification is a consensus decision, so this verifier must agree with the backends on
//! every input: the NIST ACVP and Wycheproof ML-DSA-87 vectors run against it, and random
//! aggregate signatures (and their bit flips) are compared with libcrux.

use crate::{
	cache::{CacheLimits, CacheStats, Lru},
	fips204::{Matrix, VerifyingKey},
	keys::MlDsa87Public,
	params::MlDsa87,
	verify::KeyDigest,
};
use alloc::sync::Arc;

/// `Â = ExpandA(ρ)` of one committee ([`Matrix::expand`] at ML-DSA-87).
pub type CommitteeMatrix = Matrix;

/// A decoded aggregate key `pk*`: its committee's matrix, `NTT(t1·2^d)` and `tr = H(pk*, 64)`
/// ([`VerifyingKey::decode_with`] the committee's matrix).
pub type AggregateKey = VerifyingKey<MlDsa87>;

/// Bytes one committee matrix occupies.
const MATRIX_BYTES: usize = Matrix::bytes::<MlDsa87>();

/// The `ρ` an ML-DSA-87 key starts with.
pub fn rho_of(public: &MlDsa87Public) -> [u8; 32] {
	public.0[..32].try_into().expect("a key starts with its 32-byte ρ")
}

/// What the cache files an aggregate key under: its digest and its `ρ`. Computed before
/// taking the cache's lock, since hashing a 2.6 KB key would hold every other committee's
/// verification up for microseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AggregateKeyId {
	digest: KeyDigest,
	rho: [u8; 32],
}

impl AggregateKeyId {
	/// The digest and `ρ` of `public`.
	pub fn of(public: &MlDsa87Public) -> Self {
		Self { digest: KeyDigest::of_ml_dsa::<MlDsa87>(public), rho: rho_of(public) }
	}
}

/// What [`AggregateKeyCache::lookup`] found.
pub enum AggregateLookup {
	/// A key cached after a signature verified under it.
	Cached(Arc<AggregateKey>),
	/// No cached key; its committee's matrix if that is cached.
	Uncached(Option<Arc<CommitteeMatrix>>),
}

/// Limits of an [`AggregateKeyCache`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AggregateCacheLimits {
	/// Committee matrices (57 KiB each).
	pub matrices: CacheLimits,
	/// Decoded aggregate keys (8 KiB each besides their matrix).
	pub keys: CacheLimits,
}

impl AggregateCacheLimits {
	/// At most `max_bytes` for each of matrices and keys; 0 caches nothing.
	pub fn within(max_bytes: usize) -> Self {
		let limits = |entry_bytes: usize| CacheLimits { max_entries: max_bytes / entry_bytes, max_bytes };
		Self { matrices: limits(MATRIX_BYTES), keys: limits(AggregateKey::BYTES) }
	}
}

/// Counters of an [`AggregateKeyCache`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AggregateCacheStats {
	/// Lookups of a committee's matrix (on every decoded-key miss).
	pub matrices: CacheStats,
	/// Lookups of a decoded aggregate key (one per verification).
	pub keys: CacheStats,
}

/// Committee matrices by `ρ` and decoded aggregate keys by digest, least recently used
/// evicted. A decoded key holds its matrix, so an evicted matrix is freed once its keys are.
///
/// It only ever changes speed: a hit verifies with the same matrix and key a miss would have
/// computed.
pub struct AggregateKeyCache {
	matrices: Lru<[u8; 32], Arc<CommitteeMatrix>>,
	keys: Lru<KeyDigest, Arc<AggregateKey>>,
}

impl AggregateKeyCache {
	/// An empty cache within `limits`.
	pub fn new(limits: AggregateCacheLimits) -> Self {
		Self { matrices: Lru::new(limits.matrices), keys: Lru::new(limits.keys) }
	}

	/// The decoded key of `id` if it is cached, otherwise its committee's matrix if that is.
	/// Decoding (and expanding a missing matrix) is the caller's, outside any lock.
	pub fn lookup(&mut self, id: &AggregateKeyId) -> AggregateLookup {
		match self.keys.lookup(&id.digest) {
			Some(key) => AggregateLookup::Cached(key),
			None => AggregateLookup::Uncached(self.matrices.lookup(&id.rho)),
		}
	}

	/// Holds the decoded key of `id`, under which a signature verified.
	pub fn insert_key(&mut self, id: &AggregateKeyId, key: Arc<AggregateKey>) {
		self.keys.insert(id.digest, key, AggregateKey::BYTES);
	}

	/// Holds an expanded matrix, for the keys of its `ρ`.
	pub fn insert_matrix(&mut self, matrix: Arc<CommitteeMatrix>) {
		self.matrices.insert(*matrix.rho(), matrix, MATRIX_BYTES);
	}

	/// Hit, miss and eviction counters of matrices and keys.
	pub fn stats(&self) -> AggregateCacheStats {
		AggregateCacheStats { matrices: self.matrices.stats(), keys: self.keys.stats() }
	}

	/// Matrices and decoded keys held now.
	pub fn occupancy(&self) -> (usize, usize) {
		(self.matrices.len(), self.keys.len())
	}
}
