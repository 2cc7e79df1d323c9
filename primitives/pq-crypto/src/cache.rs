//! A bounded cache of decoded verifying keys.
//!
//! Decoding an ML-DSA key (ExpandA, `NTT(t1·2^d)`, `tr`) can cost more than verifying with it,
//! and a decoded ML-DSA-87 key of the RustCrypto backend is ~72 KiB. The cache keeps decoded
//! keys under a limit on both entry count and bytes, evicting the least recently used, so a
//! repeat signer skips the decode. It only ever changes speed: a hit runs the same
//! verification on the same decoded key a miss would have produced.
//!
//! Entries are indexed by [`KeyDigest`], a collision-resistant hash of the scheme-tagged key
//! (the same hash that makes an ML-DSA key's account id), so two keys never share an entry:
//! a cached key is only ever used for signatures under exactly that key.

use crate::{
	backend::{Backend, Ed25519Verifier, MlDsaVerifier},
	multi::{MultiSignature, MultiSigner},
	params::{MlDsa44, MlDsa65, MlDsa87},
	Purpose, VerifyError,
};
use alloc::collections::BTreeMap;
use polkadot_sdk::sp_runtime::AccountId32;

/// A collision-resistant digest of a scheme-tagged public key: its account id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct KeyDigest([u8; 32]);

impl KeyDigest {
	/// The digest of `signer` (for Ed25519 the key itself, otherwise a blake2 hash).
	pub fn of(signer: &MultiSigner) -> Self {
		Self(signer.account_id().into())
	}

	/// The account id of the key, which equals the digest.
	pub fn account_id(&self) -> AccountId32 {
		AccountId32::new(self.0)
	}
}

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

enum DecodedKey<B: Backend> {
	Ed25519(<B as Ed25519Verifier>::DecodedKey),
	MlDsa44(<B as MlDsaVerifier<MlDsa44>>::DecodedKey),
	MlDsa65(<B as MlDsaVerifier<MlDsa65>>::DecodedKey),
	MlDsa87(<B as MlDsaVerifier<MlDsa87>>::DecodedKey),
}

impl<B: Backend> DecodedKey<B> {
	fn decode(signer: &MultiSigner) -> Result<Self, VerifyError> {
		Ok(match signer {
			MultiSigner::Ed25519(key) =>
				Self::Ed25519(<B as Ed25519Verifier>::decode_key(key).ok_or(VerifyError::InvalidKey)?),
			MultiSigner::MlDsa44(key) => Self::MlDsa44(<B as MlDsaVerifier<MlDsa44>>::decode_key(key)),
			MultiSigner::MlDsa65(key) => Self::MlDsa65(<B as MlDsaVerifier<MlDsa65>>::decode_key(key)),
			MultiSigner::MlDsa87(key) => Self::MlDsa87(<B as MlDsaVerifier<MlDsa87>>::decode_key(key)),
			MultiSigner::AggregateMlDsa87(_) => return Err(VerifyError::AggregateKeyRequired),
		})
	}

	fn bytes(&self) -> usize {
		match self {
			Self::Ed25519(_) => core::mem::size_of::<<B as Ed25519Verifier>::DecodedKey>(),
			Self::MlDsa44(_) => <B as MlDsaVerifier<MlDsa44>>::DECODED_KEY_BYTES,
			Self::MlDsa65(_) => <B as MlDsaVerifier<MlDsa65>>::DECODED_KEY_BYTES,
			Self::MlDsa87(_) => <B as MlDsaVerifier<MlDsa87>>::DECODED_KEY_BYTES,
		}
	}

	fn verify(&self, signature: &MultiSignature, message: &[u8], purpose: Purpose) -> Result<(), VerifyError> {
		let context = purpose.context();
		let valid = match (self, signature) {
			(Self::Ed25519(key), MultiSignature::Ed25519(signature)) =>
				<B as Ed25519Verifier>::verify_decoded(key, purpose.ed25519_prefix(), message, signature),
			(Self::MlDsa44(key), MultiSignature::MlDsa44(signature)) =>
				<B as MlDsaVerifier<MlDsa44>>::verify_decoded(key, message, context, signature),
			(Self::MlDsa65(key), MultiSignature::MlDsa65(signature)) =>
				<B as MlDsaVerifier<MlDsa65>>::verify_decoded(key, message, context, signature),
			(Self::MlDsa87(key), MultiSignature::MlDsa87(signature)) =>
				<B as MlDsaVerifier<MlDsa87>>::verify_decoded(key, message, context, signature),
			_ => return Err(VerifyError::SchemeMismatch),
		};
		valid.then_some(()).ok_or(VerifyError::BadSignature)
	}
}

struct Entry<B: Backend> {
	key: DecodedKey<B>,
	last_used: u64,
}

/// A least-recently-used cache of keys decoded by backend `B`.
pub struct KeyCache<B: Backend> {
	entries: BTreeMap<KeyDigest, Entry<B>>,
	/// `last_used` → digest, oldest first: the eviction order.
	recency: BTreeMap<u64, KeyDigest>,
	clock: u64,
	bytes: usize,
	limits: CacheLimits,
	stats: CacheStats,
}

impl<B: Backend> KeyCache<B> {
	/// An empty cache within `limits`.
	pub fn new(limits: CacheLimits) -> Self {
		Self {
			entries: BTreeMap::new(),
			recency: BTreeMap::new(),
			clock: 0,
			bytes: 0,
			limits,
			stats: CacheStats::default(),
		}
	}

	/// Verifies `signature` by `signer` over `message` for `purpose`, decoding the key only if
	/// it is not cached.
	pub fn verify(
		&mut self,
		signer: &MultiSigner,
		signature: &MultiSignature,
		message: &[u8],
		purpose: Purpose,
	) -> Result<(), VerifyError> {
		self.verify_digested(KeyDigest::of(signer), signer, signature, message, purpose)
	}

	fn verify_digested(
		&mut self,
		digest: KeyDigest,
		signer: &MultiSigner,
		signature: &MultiSignature,
		message: &[u8],
		purpose: Purpose,
	) -> Result<(), VerifyError> {
		if signer.scheme() != signature.scheme() {
			return Err(VerifyError::SchemeMismatch);
		}
		self.clock += 1;
		if let Some(entry) = self.entries.get_mut(&digest) {
			self.stats.hits += 1;
			self.recency.remove(&entry.last_used);
			self.recency.insert(self.clock, digest);
			entry.last_used = self.clock;
			return entry.key.verify(signature, message, purpose);
		}
		self.stats.misses += 1;
		let key = DecodedKey::<B>::decode(signer)?;
		let result = key.verify(signature, message, purpose);
		self.insert(digest, key);
		result
	}

	fn insert(&mut self, digest: KeyDigest, key: DecodedKey<B>) {
		let bytes = key.bytes();
		if bytes > self.limits.max_bytes || self.limits.max_entries == 0 {
			return;
		}
		while self.entries.len() >= self.limits.max_entries || self.bytes + bytes > self.limits.max_bytes {
			let Some((_, oldest)) = self.recency.pop_first() else { break };
			if let Some(evicted) = self.entries.remove(&oldest) {
				self.bytes -= evicted.key.bytes();
				self.stats.evictions += 1;
			}
		}
		self.bytes += bytes;
		self.recency.insert(self.clock, digest);
		self.entries.insert(digest, Entry { key, last_used: self.clock });
	}

	/// Verifies a signature by `signer` for `account`: the key must control the account
	/// (its digest is the account id; for Ed25519, the key is the account), and the digest is
	/// computed once for both the check and the lookup.
	pub fn verify_for_account(
		&mut self,
		account: &AccountId32,
		signer: &MultiSigner,
		signature: &MultiSignature,
		message: &[u8],
		purpose: Purpose,
	) -> Result<(), VerifyError> {
		let digest = KeyDigest::of(signer);
		if digest.account_id() != *account {
			return Err(VerifyError::AccountMismatch);
		}
		self.verify_digested(digest, signer, signature, message, purpose)
	}

	/// Hit, miss and eviction counters since the cache was made.
	pub fn stats(&self) -> CacheStats {
		self.stats
	}

	/// Drops every entry (counters are kept).
	pub fn clear(&mut self) {
		self.entries.clear();
		self.recency.clear();
		self.bytes = 0;
	}

	/// Keys held now.
	pub fn len(&self) -> usize {
		self.entries.len()
	}

	/// Whether no key is held.
	pub fn is_empty(&self) -> bool {
		self.entries.is_empty()
	}

	/// Bytes of decoded keys held now.
	pub fn bytes(&self) -> usize {
		self.bytes
	}

	/// The limits the cache keeps to.
	pub fn limits(&self) -> CacheLimits {
		self.limits
	}
}
