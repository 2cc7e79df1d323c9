//! Everything the node's host functions keep between calls, under one budget: decoded keys,
//! committee matrices, decoded aggregate keys, and which aggregate key each signer set that
//! signed has (so a repeated signer set needs no share read).
//!
//! One least-recently-used map holds all three, so no kind can take the budget of another, and
//! each entry is charged for everything it keeps alive: a decoded key its own matrix, an
//! aggregate key its `t1` and `tr` — its committee's matrix, shared by every signer set of the
//! committee, is an entry of its own, which is held whenever one of its keys is (inserting a
//! key inserts its matrix; evicting a matrix evicts its keys). So the bytes counted are the
//! bytes held; `tests/host_cache_memory.rs` measures them with a counting allocator.
//!
//! Values are handed out as `Arc`s, so a verification in progress keeps its key alive after an
//! eviction: beyond the budget by at most one entry per verifying thread, for the length of a
//! verification.

use super::committee_matrix::{
	AggregateKey, AggregateKeyId, AggregateLookup, CommitteeMatrix, MATRIX_BYTES,
};
use crate::{
	aggregate::MAX_BITFIELD_BYTES,
	backend::Backend,
	cache::{CacheLimits, CacheStats, Lru},
	verify::{DecodedKey, KeyDigest},
};
use alloc::sync::Arc;

/// Bytes each entry holds besides its value's own: the `Arc` allocation's two counters, the
/// value's enum tag, and the entry's share of the map's two B-trees (key, value and clock in
/// each, in nodes at least half full). `tests/host_cache_memory.rs` checks that this covers them.
pub const ENTRY_OVERHEAD: usize = 512;

/// A committee's signer set as the cache files it: the hash of the runtime code that derived
/// its key, the committee id and the signer bitfield's bytes (at most [`MAX_BITFIELD_BYTES`],
/// with their count).
///
/// Unlike every other entry, which is keyed by a digest of what it holds, this one records what
/// the runtime said: that this signer set's key is that one. The runtime derived it from the
/// committee's shares, which the committee id binds, so for one runtime the claim holds on
/// every fork and block; keyed by the runtime's code, it serves only the code that made it — a
/// runtime enacted on an abandoned fork, or one that derives keys otherwise, never vouches
/// for another's signer sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct SignerSetKey {
	code: [u8; 32],
	committee: [u8; 32],
	signers: (u8, [u8; MAX_BITFIELD_BYTES as usize]),
}

impl SignerSetKey {
	/// The key of a signer set of a committee, under runtime code of hash `code`; `None` for
	/// bytes no committee has.
	pub fn new(code: [u8; 32], committee: &[u8], signers: &[u8]) -> Option<Self> {
		let mut bytes = [0u8; MAX_BITFIELD_BYTES as usize];
		bytes.get_mut(..signers.len())?.copy_from_slice(signers);
		Some(Self {
			code,
			committee: committee.try_into().ok()?,
			signers: (signers.len() as u8, bytes),
		})
	}
}

/// An entry's place in the map. Aggregate keys sort by their committee's `ρ` first, so the
/// keys of one matrix are one range.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Slot {
	/// A decoded single key.
	Key(KeyDigest),
	/// A committee's `Â`, by `ρ`.
	Matrix([u8; 32]),
	/// A decoded aggregate key: its committee's `ρ`, and its digest ([`KeyDigest`]).
	AggregateKey([u8; 32], [u8; 32]),
	/// Which aggregate key a signer set has: a pointer to an [`Slot::AggregateKey`] entry, which
	/// may have been evicted since (then the signer set is unknown again).
	SignerSet(SignerSetKey),
}

impl Slot {
	fn aggregate_key(id: &AggregateKeyId) -> Self {
		Self::AggregateKey(id.rho, *id.digest.as_bytes())
	}
}

/// A held value.
enum Held<B: Backend> {
	Key(Arc<DecodedKey<B>>),
	Matrix(Arc<CommitteeMatrix>),
	AggregateKey(Arc<AggregateKey>),
	SignerSet(AggregateKeyId),
}

// Written out: a derive would demand `B: Clone`.
impl<B: Backend> Clone for Held<B> {
	fn clone(&self) -> Self {
		match self {
			Self::Key(key) => Self::Key(key.clone()),
			Self::Matrix(matrix) => Self::Matrix(matrix.clone()),
			Self::AggregateKey(key) => Self::AggregateKey(key.clone()),
			Self::SignerSet(id) => Self::SignerSet(*id),
		}
	}
}

/// Counters of a [`NodeCache`], by kind.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NodeCacheStats {
	/// Decoded single keys (one lookup per verification).
	pub keys: CacheStats,
	/// Committee matrices (one lookup per aggregate-key miss).
	pub matrices: CacheStats,
	/// Decoded aggregate keys (one lookup per aggregate verification).
	pub aggregate_keys: CacheStats,
	/// Signer sets whose key is known (one lookup per committee transaction a runtime checks).
	pub signer_sets: CacheStats,
}

/// What a [`NodeCache`] holds now.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NodeCacheOccupancy {
	/// Decoded single keys.
	pub keys: usize,
	/// Committee matrices.
	pub matrices: usize,
	/// Decoded aggregate keys.
	pub aggregate_keys: usize,
	/// Signer sets whose aggregate key is known.
	pub signer_sets: usize,
	/// Bytes of all of them, [`ENTRY_OVERHEAD`] included.
	pub bytes: usize,
}

/// Decoded keys of backend `B`, committee matrices and decoded aggregate keys, within one set
/// of limits (see the module docs). It only ever changes speed: a hit verifies with what a miss
/// would have computed. Insert only what a signature verified under.
pub struct NodeCache<B: Backend> {
	entries: Lru<Slot, Held<B>>,
	stats: NodeCacheStats,
	/// Entries held, by kind, counted as they come and go (`bytes` unused: the map counts
	/// them), so [`Self::occupancy`] — which a metrics scrape asks for under the cache's lock —
	/// never walks the map.
	held: NodeCacheOccupancy,
}

impl<B: Backend> NodeCache<B> {
	/// An empty cache within `limits`.
	pub fn new(limits: CacheLimits) -> Self {
		Self {
			entries: Lru::new(limits),
			stats: NodeCacheStats::default(),
			held: NodeCacheOccupancy::default(),
		}
	}

	/// The decoded key of `digest`, if held.
	pub fn lookup_key(&mut self, digest: &KeyDigest) -> Option<Arc<DecodedKey<B>>> {
		let key = match self.entries.lookup(&Slot::Key(*digest)) {
			Some(Held::Key(key)) => Some(key),
			_ => None,
		};
		count(&mut self.stats.keys, key.is_some());
		key
	}

	/// Holds `key`, decoded from the key whose digest is `digest`.
	pub fn insert_key(&mut self, digest: KeyDigest, key: Arc<DecodedKey<B>>) {
		let bytes = key.bytes() + ENTRY_OVERHEAD;
		self.insert(Slot::Key(digest), Held::Key(key), bytes);
	}

	/// The decoded aggregate key of `id` if held, otherwise its committee's matrix if held.
	/// Decoding (and expanding a missing matrix) is the caller's, outside any lock.
	pub fn lookup_aggregate(&mut self, id: &AggregateKeyId) -> AggregateLookup {
		if let Some(Held::AggregateKey(key)) = self.entries.lookup(&Slot::aggregate_key(id)) {
			count(&mut self.stats.aggregate_keys, true);
			// A matrix is as recent as its most recent key, or it would go first.
			self.entries.touch(&Slot::Matrix(id.rho));
			return AggregateLookup::Cached(key);
		}
		count(&mut self.stats.aggregate_keys, false);
		let matrix = match self.entries.lookup(&Slot::Matrix(id.rho)) {
			Some(Held::Matrix(matrix)) => Some(matrix),
			_ => None,
		};
		count(&mut self.stats.matrices, matrix.is_some());
		AggregateLookup::Uncached(matrix)
	}

	/// Holds the decoded aggregate key of `id`, and its committee's matrix (which the key keeps
	/// alive) unless that is held already.
	pub fn insert_aggregate(&mut self, id: &AggregateKeyId, key: Arc<AggregateKey>) {
		let matrix = Slot::Matrix(id.rho);
		if self.entries.contains(&matrix) {
			self.entries.touch(&matrix);
		} else {
			self.insert(matrix, Held::Matrix(key.matrix().clone()), MATRIX_BYTES + ENTRY_OVERHEAD);
			if !self.entries.contains(&matrix) {
				return; // The limits cannot hold the matrix, so not its key either.
			}
		}
		self.insert(
			Slot::aggregate_key(id),
			Held::AggregateKey(key),
			AggregateKey::BYTES + ENTRY_OVERHEAD,
		);
	}

	/// The decoded aggregate key of signer set `set`, if the set's key is known and held.
	pub fn lookup_signer_set(&mut self, set: &SignerSetKey) -> Option<Arc<AggregateKey>> {
		let id = match self.entries.lookup(&Slot::SignerSet(*set)) {
			Some(Held::SignerSet(id)) => Some(id),
			_ => None,
		};
		let key = id.and_then(|id| match self.entries.lookup(&Slot::aggregate_key(&id)) {
			Some(Held::AggregateKey(key)) => {
				self.entries.touch(&Slot::Matrix(id.rho));
				Some(key)
			},
			_ => None,
		});
		count(&mut self.stats.signer_sets, key.is_some());
		key
	}

	/// Remembers that signer set `set` has the aggregate key of `id` (held by
	/// [`Self::insert_aggregate`]).
	pub fn insert_signer_set(&mut self, set: SignerSetKey, id: &AggregateKeyId) {
		self.insert(
			Slot::SignerSet(set),
			Held::SignerSet(*id),
			core::mem::size_of::<AggregateKeyId>() + ENTRY_OVERHEAD,
		);
	}

	/// Holds `held` in `slot`; evicting a matrix evicts its keys with it.
	fn insert(&mut self, slot: Slot, held: Held<B>, bytes: usize) {
		let was_held = self.entries.contains(&slot);
		let evicted = self.entries.insert(slot, held, bytes);
		if !was_held && self.entries.contains(&slot) {
			*self.held_of(&slot) += 1;
		}
		for evicted in evicted {
			*self.held_of(&evicted) -= 1;
			match evicted {
				Slot::Key(_) => self.stats.keys.evictions += 1,
				Slot::AggregateKey(..) => self.stats.aggregate_keys.evictions += 1,
				Slot::SignerSet(_) => self.stats.signer_sets.evictions += 1,
				Slot::Matrix(rho) => {
					self.stats.matrices.evictions += 1;
					for key in self.entries.keys_in(
						Slot::AggregateKey(rho, [0; 32])..=Slot::AggregateKey(rho, [0xff; 32]),
					) {
						self.entries.remove(&key);
						self.held.aggregate_keys -= 1;
						self.stats.aggregate_keys.evictions += 1;
					}
				},
			}
		}
	}

	/// The count of entries held of `slot`'s kind.
	fn held_of(&mut self, slot: &Slot) -> &mut usize {
		match slot {
			Slot::Key(_) => &mut self.held.keys,
			Slot::Matrix(_) => &mut self.held.matrices,
			Slot::AggregateKey(..) => &mut self.held.aggregate_keys,
			Slot::SignerSet(_) => &mut self.held.signer_sets,
		}
	}

	/// Hit, miss and eviction counters since the cache was made, by kind.
	pub fn stats(&self) -> NodeCacheStats {
		self.stats
	}

	/// Entries of each kind and bytes held now.
	pub fn occupancy(&self) -> NodeCacheOccupancy {
		NodeCacheOccupancy { bytes: self.entries.bytes(), ..self.held }
	}

	/// [`Self::occupancy`] by walking the map, to check the counts against.
	#[cfg(test)]
	fn occupancy_walked(&self) -> NodeCacheOccupancy {
		let mut occupancy =
			NodeCacheOccupancy { bytes: self.entries.bytes(), ..Default::default() };
		for slot in self.entries.keys_in(..) {
			match slot {
				Slot::Key(_) => occupancy.keys += 1,
				Slot::Matrix(_) => occupancy.matrices += 1,
				Slot::AggregateKey(..) => occupancy.aggregate_keys += 1,
				Slot::SignerSet(_) => occupancy.signer_sets += 1,
			}
		}
		occupancy
	}

	/// The limits the cache keeps to.
	pub fn limits(&self) -> CacheLimits {
		self.entries.limits()
	}
}

fn count(stats: &mut CacheStats, hit: bool) {
	if hit {
		stats.hits += 1;
	} else {
		stats.misses += 1;
	}
}

#[cfg(test)]
mod tests {
	use super::*;
	use crate::{backend::Fips204, keys::MlDsa87Public, signer::AccountSigner};
	use fips204::{Matrix, MlDsa87 as Level87};

	/// The counts `occupancy` reports are the map's, through inserts, refusals and evictions of
	/// every kind — a matrix's evicting its aggregate keys with it included.
	#[test]
	fn occupancy_is_counted_not_walked() {
		// Room for about three matrices with a few keys: most inserts below evict something.
		let limits = CacheLimits { max_entries: 24, max_bytes: 3 * MATRIX_BYTES + 20_000 };
		let mut cache = NodeCache::<Fips204>::new(limits);
		let single = |seed: u8| {
			let signer = AccountSigner::MlDsa87(MlDsa87Public([seed; 2592]));
			(KeyDigest::of(&signer), Arc::new(DecodedKey::<Fips204>::decode(&signer).unwrap()))
		};
		let matrices: Vec<_> =
			(0..4u8).map(|rho| Arc::new(Matrix::expand::<Level87>(&[rho; 32]))).collect();
		for step in 0..120u32 {
			let seed = (step * 7 % 251) as u8;
			match step % 4 {
				0 => {
					let (digest, key) = single(seed);
					cache.insert_key(digest, key);
				},
				1 | 2 => {
					let matrix = &matrices[(step / 4 % 4) as usize];
					let mut public = [seed; 2592];
					public[..32].copy_from_slice(matrix.rho());
					let public = MlDsa87Public(public);
					let key = AggregateKey::decode_with(matrix.clone(), &public.0).unwrap();
					let id = AggregateKeyId::of(&public);
					cache.insert_aggregate(&id, Arc::new(key));
					let set = SignerSetKey::new([1; 32], matrix.rho(), &[seed]).unwrap();
					cache.insert_signer_set(set, &id);
				},
				_ => {
					// Already held, or refused as larger than the budget: no count moves.
					if let Some(digest) =
						cache.entries.keys_in(..).into_iter().find_map(|slot| match slot {
							Slot::Key(digest) => Some(digest),
							_ => None,
						}) {
						let (_, key) = single(0);
						cache.insert_key(digest, key);
					}
					let mut tiny =
						NodeCache::<Fips204>::new(CacheLimits { max_entries: 8, max_bytes: 1 });
					let (digest, key) = single(seed);
					tiny.insert_key(digest, key);
					assert_eq!(tiny.occupancy(), tiny.occupancy_walked());
				},
			}
			assert_eq!(cache.occupancy(), cache.occupancy_walked(), "after step {step}");
		}
		let stats = cache.stats();
		assert!(stats.matrices.evictions > 0 && stats.aggregate_keys.evictions > 0);
		assert!(stats.keys.evictions > 0 && stats.signer_sets.evictions > 0);
	}
}
