//! A bounded cache of decoded verifying keys.
//!
//! Decoding an ML-DSA key (ExpandA, `NTT(t1·2^d)`, `tr`) can cost more than verifying with it,
//! and a decoded ML-DSA-87 key of the RustCrypto backend is ~72 KiB. The cache keeps decoded
//! keys under a limit on both entry count and bytes, evicting the least recently used, so a
//! repeat signer skips the decode. It only ever changes speed: a hit runs the same
//! verification on the same decoded key a miss would have produced.
//!
//! Entries are indexed by [`KeyDigest`]: the scheme and a collision-resistant digest of the key
//! (one hash of it, never its account derivation), so two keys never share an entry, not even an Ed25519 key whose 32
//! bytes equal an ML-DSA key's hash: a cached key is only ever used for signatures under
//! exactly that key.
//!
//! A key is cached only once a signature verified under it, so signatures that fail — which
//! cost their sender nothing when a transaction pool refuses them — cannot fill the cache with
//! keys nobody uses and evict the keys of real signers. Where the backend verifies more cheaply
//! without decoding a key to keep ([`MlDsaVerifier::verify_is_lighter`]: our verifier in Wasm,
//! which then makes `Â` a row at a time instead of allocating 16–56 KiB of fresh instance
//! memory), a key's first verified signature only marks it, and its second decodes it to keep:
//! most keys of a block sign once, and a repeat signer pays one decode more.

use crate::{
	aggregate::SignerSet,
	backend::{Backend, MlDsaVerifier},
	keys::{MlDsa87Public, MlDsa87Signature},
	params::match_ml_dsa,
	signer::{AccountSignature, AccountSigner},
	verify::{DecodedKey, KeyDigest, Signed},
	Purpose, VerifyError,
};
use alloc::{
	collections::{BTreeMap, BTreeSet},
	sync::Arc,
	vec::Vec,
};

/// How much the cache may hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CacheLimits {
	/// Most entries held at once.
	pub max_entries: usize,
	/// Most bytes of decoded keys held at once.
	pub max_bytes: usize,
}

impl Default for CacheLimits {
	/// 1,024 keys within 16 MiB: ~225 ML-DSA-87 keys of the RustCrypto backend.
	fn default() -> Self {
		Self { max_entries: 1024, max_bytes: 16 << 20 }
	}
}

/// Counters of cache use.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CacheStats {
	/// Verifications that found their key decoded.
	pub hits: u64,
	/// Verifications that had to decode their key.
	pub misses: u64,
	/// Entries dropped to stay within the limits.
	pub evictions: u64,
}

/// A least-recently-used map within count and byte limits, counting hits, misses and
/// evictions: the bookkeeping of [`KeyCache`] and of the node's
/// [`NodeCache`](crate::host::node_cache::NodeCache).
pub(crate) struct Lru<K, V> {
	entries: BTreeMap<K, (V, usize, u64)>,
	/// `last_used` → key, oldest first: the eviction order.
	recency: BTreeMap<u64, K>,
	clock: u64,
	bytes: usize,
	limits: CacheLimits,
	stats: CacheStats,
}

impl<K: Ord + Clone, V: Clone> Lru<K, V> {
	pub(crate) fn new(limits: CacheLimits) -> Self {
		Self {
			entries: BTreeMap::new(),
			recency: BTreeMap::new(),
			clock: 0,
			bytes: 0,
			limits,
			stats: CacheStats::default(),
		}
	}

	/// The value of `key` if it is held, counting a hit or a miss.
	pub(crate) fn lookup(&mut self, key: &K) -> Option<V> {
		self.clock += 1;
		let Some((value, _, last_used)) = self.entries.get_mut(key) else {
			self.stats.misses += 1;
			return None;
		};
		self.stats.hits += 1;
		self.recency.remove(last_used);
		self.recency.insert(self.clock, key.clone());
		*last_used = self.clock;
		Some(value.clone())
	}

	/// Holds `value` of `bytes` bytes under `key`, evicting the least recently used entries to
	/// stay within the limits; a value larger than the byte limit is not held. Returns the
	/// keys it evicted.
	pub(crate) fn insert(&mut self, key: K, value: V, bytes: usize) -> Vec<K> {
		let mut evicted = Vec::new();
		if bytes > self.limits.max_bytes
			|| self.limits.max_entries == 0
			|| self.entries.contains_key(&key)
		{
			return evicted;
		}
		self.clock += 1;
		while self.entries.len() >= self.limits.max_entries
			|| self.bytes + bytes > self.limits.max_bytes
		{
			let Some((_, oldest)) = self.recency.pop_first() else { break };
			if let Some((_, evicted_bytes, _)) = self.entries.remove(&oldest) {
				self.bytes -= evicted_bytes;
				self.stats.evictions += 1;
				evicted.push(oldest);
			}
		}
		self.bytes += bytes;
		self.recency.insert(self.clock, key.clone());
		self.entries.insert(key, (value, bytes, self.clock));
		evicted
	}

	/// Drops the entry of `key`, if held (not counted as an eviction).
	pub(crate) fn remove(&mut self, key: &K) {
		if let Some((_, bytes, last_used)) = self.entries.remove(key) {
			self.bytes -= bytes;
			self.recency.remove(&last_used);
		}
	}

	/// Marks the entry of `key`, if held, as just used, without counting a lookup.
	pub(crate) fn touch(&mut self, key: &K) {
		self.clock += 1;
		if let Some((_, _, last_used)) = self.entries.get_mut(key) {
			self.recency.remove(last_used);
			self.recency.insert(self.clock, key.clone());
			*last_used = self.clock;
		}
	}

	/// Whether `key` is held.
	pub(crate) fn contains(&self, key: &K) -> bool {
		self.entries.contains_key(key)
	}

	/// The held keys within `range`, in order.
	pub(crate) fn keys_in(&self, range: impl core::ops::RangeBounds<K>) -> Vec<K> {
		self.entries.range(range).map(|(key, _)| key.clone()).collect()
	}

	pub(crate) fn stats(&self) -> CacheStats {
		self.stats
	}

	pub(crate) fn clear(&mut self) {
		self.entries.clear();
		self.recency.clear();
		self.bytes = 0;
	}

	pub(crate) fn len(&self) -> usize {
		self.entries.len()
	}

	pub(crate) fn bytes(&self) -> usize {
		self.bytes
	}

	pub(crate) fn limits(&self) -> CacheLimits {
		self.limits
	}
}

/// A least-recently-used cache of keys decoded by backend `B`.
pub struct KeyCache<B: Backend> {
	decoded: Lru<KeyDigest, Arc<DecodedKey<B>>>,
	/// Keys verified once without being decoded to keep (a backend whose
	/// [`MlDsaVerifier::verify_is_lighter`]), to be decoded and kept at their next
	/// verification; at most `max_entries` (33 bytes each and a B-tree's overhead), emptied
	/// when full.
	verified_once: BTreeSet<KeyDigest>,
	/// Whether a key's first signature is verified without decoding it, where that is lighter.
	defers_decoding: bool,
}

impl<B: Backend> KeyCache<B> {
	/// An empty cache within `limits`.
	pub fn new(limits: CacheLimits) -> Self {
		Self { decoded: Lru::new(limits), verified_once: BTreeSet::new(), defers_decoding: true }
	}

	/// An empty cache within `limits` that decodes every key it verifies to keep, its first
	/// signature's too: the costlier way of verifying a key not held, which weights measure.
	pub fn decoding_every_key(limits: CacheLimits) -> Self {
		Self { defers_decoding: false, ..Self::new(limits) }
	}

	/// Verifies `signature` by `signer` over `message` for `purpose`, decoding the key only if
	/// it is not cached.
	pub fn verify(
		&mut self,
		signer: &AccountSigner,
		signature: &AccountSignature,
		message: &[u8],
		purpose: Purpose,
	) -> Result<(), VerifyError> {
		self.verify_digested(KeyDigest::of(signer), signer, signature, message, purpose)
	}

	/// [`Self::verify`] with `signer`'s digest already computed ([`KeyDigest::of`], or
	/// [`crate::transaction::bind`]'s).
	pub fn verify_digested(
		&mut self,
		digest: KeyDigest,
		signer: &AccountSigner,
		signature: &AccountSignature,
		message: &[u8],
		purpose: Purpose,
	) -> Result<(), VerifyError> {
		debug_assert_eq!(digest, KeyDigest::of(signer), "the digest of this signer");
		if signer.scheme() != signature.scheme() {
			return Err(VerifyError::SchemeMismatch);
		}
		let signed = Signed::ForPurpose(message, purpose);
		if let Some(key) = self.lookup(&digest) {
			return key.verify(signature, signed);
		}
		if let Some(bytes) = self.defers_decoding.then(|| once_is_lighter::<B>(signer)).flatten() {
			// A key the limits cannot keep is never decoded; one they can, at its second
			// signature. (A signature that fails under a marked key unmarks it: one decode more
			// at the next, as before marks.)
			let keepable = bytes <= self.decoded.limits().max_bytes;
			if !keepable || !self.verified_once.remove(&digest) {
				signature.verify_once::<B>(signer, signed)?;
				if keepable {
					if self.verified_once.len() >= self.decoded.limits().max_entries {
						// Full of keys that signed once: start over, so later repeat signers
						// are still decoded at their second signature.
						self.verified_once.clear();
					}
					self.verified_once.insert(digest);
				}
				return Ok(());
			}
		}
		let key = DecodedKey::<B>::decode(signer)?;
		key.verify(signature, signed)?;
		self.insert(digest, Arc::new(key));
		Ok(())
	}

	/// Verifies an aggregate signature of `signer_set`: `signature` under its aggregate key
	/// `public` over `message` for `purpose` — as the backend verifies aggregates if it has its
	/// own way ([`Backend::verify_aggregate`]), otherwise as an ML-DSA-87 signature through
	/// this cache, so a repeated signer set skips the decode.
	pub fn verify_aggregate(
		&mut self,
		signer_set: SignerSet<'_>,
		public: &MlDsa87Public,
		message: &[u8],
		purpose: Purpose,
		signature: &MlDsa87Signature,
	) -> Result<(), VerifyError> {
		if let Some(verdict) = B::verify_aggregate(signer_set, public, message, purpose, signature)
		{
			return verdict;
		}
		let signer = AccountSigner::MlDsa87(public.clone());
		self.verify(&signer, &AccountSignature::MlDsa87(signature.clone()), message, purpose)
	}

	/// The decoded key of `digest` if it is cached, counting a hit or a miss.
	///
	/// With [`Self::insert`], this lets a cache shared between threads be locked only for the
	/// lookup and the insertion, not for the decode or the verification. Insert a key only once
	/// a signature verified under it (see the module docs).
	pub fn lookup(&mut self, digest: &KeyDigest) -> Option<Arc<DecodedKey<B>>> {
		self.decoded.lookup(digest)
	}

	/// Holds `key`, decoded from the key whose digest is `digest`, evicting the least recently
	/// used entries to stay within the limits; a key larger than the byte limit is not held.
	pub fn insert(&mut self, digest: KeyDigest, key: Arc<DecodedKey<B>>) {
		let bytes = key.bytes();
		self.verified_once.remove(&digest);
		self.decoded.insert(digest, key, bytes);
	}

	/// Hit, miss and eviction counters since the cache was made.
	pub fn stats(&self) -> CacheStats {
		self.decoded.stats()
	}

	/// Drops every entry, and forgets which keys verified once (counters are kept).
	pub fn clear(&mut self) {
		self.decoded.clear();
		self.verified_once.clear();
	}

	/// Keys held now.
	pub fn len(&self) -> usize {
		self.decoded.len()
	}

	/// Whether no key is held.
	pub fn is_empty(&self) -> bool {
		self.decoded.len() == 0
	}

	/// Bytes of decoded keys held now.
	pub fn bytes(&self) -> usize {
		self.decoded.bytes()
	}

	/// The limits the cache keeps to.
	pub fn limits(&self) -> CacheLimits {
		self.decoded.limits()
	}
}

/// The bytes a key of `signer`'s scheme decoded by `B` occupies, if `B` verifies it more
/// cheaply without decoding it to keep ([`MlDsaVerifier::verify_is_lighter`]); never for an
/// Ed25519 key, whose decoded form (a decompressed point) costs nothing to keep, nor for a
/// committee's id, which is no key.
fn once_is_lighter<B: Backend>(signer: &AccountSigner) -> Option<usize> {
	fn level<B: MlDsaVerifier<P>, P: crate::params::MlDsaParams>() -> Option<usize> {
		B::verify_is_lighter().then_some(B::DECODED_KEY_BYTES)
	}
	match_ml_dsa!(signer, {
		AccountSigner::MlDsa(_) as P => level::<B, P>(),
		AccountSigner::Ed25519(_) | AccountSigner::AggregateMlDsa87(_) => None,
	})
}
