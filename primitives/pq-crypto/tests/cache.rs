//! The decoded-key cache: bounded by count and bytes, counted, and never changing a result.

mod common;

use common::{decoded_on_this_thread, PortableEngine};
use pq_crypto::{
	backend::{Backend, Libcrux, MlDsaVerifier, RustCrypto},
	cache::{CacheLimits, CacheStats, KeyCache},
	params::{MlDsa44, MlDsa87},
	verify::KeyDigest,
	AccountSignature, AccountSigner, Purpose, Scheme, VerifyError,
};
use pq_signer::signing::Keypair;

fn signed(scheme: Scheme, seed: u8) -> (AccountSigner, AccountSignature) {
	let keypair = Keypair::from_seed(scheme, &[seed; 32]).unwrap();
	(keypair.public(), keypair.sign(b"payload", Purpose::Transaction))
}

fn unbounded<B: Backend>() -> KeyCache<B> {
	KeyCache::new(CacheLimits { max_entries: 1000, max_bytes: usize::MAX })
}

#[test]
fn repeat_signer_hits() {
	let mut cache = unbounded::<RustCrypto>();
	let (signer, signature) = signed(Scheme::MlDsa44, 1);
	for _ in 0..3 {
		assert_eq!(cache.verify(&signer, &signature, b"payload", Purpose::Transaction), Ok(()));
	}
	assert_eq!(cache.stats(), CacheStats { hits: 2, misses: 1, evictions: 0 });
}

#[test]
fn hit_gives_the_same_result_as_a_miss() {
	let mut cache = unbounded::<Libcrux>();
	for scheme in Scheme::SINGLE_KEY {
		let (signer, signature) = signed(scheme, 2);
		for message in [&b"payload"[..], b"tampered", b"payload"] {
			let uncached = signature.verify::<Libcrux>(&signer, message, Purpose::Transaction);
			assert_eq!(cache.verify(&signer, &signature, message, Purpose::Transaction), uncached);
		}
	}
	assert_eq!(cache.stats().misses, 4);
	assert_eq!(cache.stats().hits, 8);
}

#[test]
fn entry_count_is_bounded() {
	let mut cache =
		KeyCache::<RustCrypto>::new(CacheLimits { max_entries: 2, max_bytes: usize::MAX });
	for seed in 0..5 {
		let (signer, signature) = signed(Scheme::MlDsa44, seed);
		cache.verify(&signer, &signature, b"payload", Purpose::Transaction).unwrap();
		assert!(cache.len() <= 2);
	}
	assert_eq!(cache.stats().evictions, 3);
}

#[test]
fn bytes_are_bounded() {
	let per_key = <RustCrypto as MlDsaVerifier<MlDsa87>>::DECODED_KEY_BYTES;
	assert!(per_key > 70 * 1024, "a decoded ML-DSA-87 key holds Â, t1, NTT(t1·2^d) and tr");
	let mut cache =
		KeyCache::<RustCrypto>::new(CacheLimits { max_entries: 100, max_bytes: 3 * per_key });
	for seed in 0..6 {
		let (signer, signature) = signed(Scheme::MlDsa87, seed);
		cache.verify(&signer, &signature, b"payload", Purpose::Transaction).unwrap();
		assert!(cache.bytes() <= 3 * per_key);
	}
	assert_eq!(cache.len(), 3);
}

#[test]
fn least_recently_used_is_evicted_first() {
	let mut cache =
		KeyCache::<RustCrypto>::new(CacheLimits { max_entries: 2, max_bytes: usize::MAX });
	let first = signed(Scheme::MlDsa44, 1);
	let second = signed(Scheme::MlDsa44, 2);
	let third = signed(Scheme::MlDsa44, 3);
	for (signer, signature) in [&first, &second, &first, &third, &first] {
		cache.verify(signer, signature, b"payload", Purpose::Transaction).unwrap();
	}
	// `second` was the least recently used when `third` came, so `first` is still cached.
	assert_eq!(cache.stats(), CacheStats { hits: 2, misses: 3, evictions: 1 });
}

#[test]
fn key_larger_than_the_budget_is_not_cached() {
	let per_key = <RustCrypto as MlDsaVerifier<MlDsa44>>::DECODED_KEY_BYTES;
	let mut cache =
		KeyCache::<RustCrypto>::new(CacheLimits { max_entries: 10, max_bytes: per_key - 1 });
	let (signer, signature) = signed(Scheme::MlDsa44, 1);
	assert_eq!(cache.verify(&signer, &signature, b"payload", Purpose::Transaction), Ok(()));
	assert!(cache.is_empty());
	assert_eq!(cache.bytes(), 0);
}

#[test]
fn scheme_mismatch_is_refused_before_lookup() {
	let mut cache = unbounded::<Libcrux>();
	let (signer, _) = signed(Scheme::MlDsa44, 1);
	let (_, signature) = signed(Scheme::MlDsa65, 1);
	assert_eq!(
		cache.verify(&signer, &signature, b"payload", Purpose::Transaction),
		Err(VerifyError::SchemeMismatch)
	);
	assert_eq!(cache.stats(), CacheStats::default());
}

#[test]
fn invalid_ed25519_key_is_refused_and_not_cached() {
	let mut cache = unbounded::<Libcrux>();
	let identity = pq_crypto::keys::Ed25519Public([
		1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		0, 0,
	]);
	let (_, signature) = signed(Scheme::Ed25519, 1);
	let result = cache.verify(
		&AccountSigner::Ed25519(identity),
		&signature,
		b"payload",
		Purpose::Transaction,
	);
	assert_eq!(result, Err(VerifyError::InvalidKey));
	assert!(cache.is_empty());
}

#[test]
fn a_key_whose_signature_fails_is_not_cached() {
	let mut cache = unbounded::<Libcrux>();
	let (signer, signature) = signed(Scheme::MlDsa65, 1);
	assert_eq!(
		cache.verify(&signer, &signature, b"forged", Purpose::Transaction),
		Err(VerifyError::BadSignature)
	);
	assert!(cache.is_empty(), "garbage signatures must not evict the keys of real signers");
	assert_eq!(cache.verify(&signer, &signature, b"payload", Purpose::Transaction), Ok(()));
	assert_eq!(cache.len(), 1);
}

/// Ed25519 keys are their own 32 bytes and ML-DSA digests are 32-byte hashes: an Ed25519 key
/// equal to an ML-DSA key's digest must not find the ML-DSA entry (or the other way round).
#[test]
fn an_ed25519_key_equal_to_an_ml_dsa_digest_misses_its_entry() {
	let mut cache = unbounded::<Libcrux>();
	let (ml_dsa, signature) = signed(Scheme::MlDsa44, 1);
	cache.verify(&ml_dsa, &signature, b"payload", Purpose::Transaction).unwrap();
	let colliding =
		AccountSigner::Ed25519(pq_crypto::keys::Ed25519Public(*KeyDigest::of(&ml_dsa).as_bytes()));
	assert_ne!(KeyDigest::of(&colliding), KeyDigest::of(&ml_dsa));
	assert_eq!(KeyDigest::of(&colliding).as_bytes(), KeyDigest::of(&ml_dsa).as_bytes());
	let (_, ed25519_signature) = signed(Scheme::Ed25519, 1);
	let result = cache.verify(&colliding, &ed25519_signature, b"payload", Purpose::Transaction);
	assert_eq!(cache.stats().hits, 0, "the lookup did not hit the ML-DSA entry");
	// The outcome is the one an empty cache gives, whatever the cache holds.
	assert_eq!(
		result,
		ed25519_signature.verify::<Libcrux>(&colliding, b"payload", Purpose::Transaction)
	);
}

/// A key's digest is one hash of it, the seed of its account derivation, from which the
/// account follows — for every scheme; an Ed25519 key is its own digest and account.
#[test]
fn a_keys_digest_is_its_derivation_seed_and_derives_its_account() {
	for scheme in [Scheme::Ed25519, Scheme::MlDsa44, Scheme::MlDsa65, Scheme::MlDsa87] {
		let (signer, _) = signed(scheme, 1);
		let digest = KeyDigest::of(&signer);
		assert_eq!(*digest.as_bytes(), signer.derivation_seed());
		assert_eq!(digest.account_derivation(), signer.account_derivation(), "{scheme:?}");
	}
}

/// Looking a key up in the cache derives no account: a key ground for a long derivation (a
/// registered key, or a committee's aggregate key, which its members can choose among signer
/// sets) costs a verification nothing beyond the one hash of its digest.
#[test]
fn verifying_through_the_cache_derives_no_account() {
	let (signer, signature) = signed(Scheme::MlDsa44, 1);
	let mut cache = unbounded::<Libcrux>();
	let before = pq_crypto::account::candidates_tried();
	for _ in 0..2 {
		cache.verify(&signer, &signature, b"payload", Purpose::Transaction).unwrap();
	}
	assert_eq!(pq_crypto::account::candidates_tried(), before, "a miss and a hit");
}

#[test]
fn clear_empties_the_cache() {
	let mut cache = unbounded::<RustCrypto>();
	let (signer, signature) = signed(Scheme::MlDsa44, 1);
	cache.verify(&signer, &signature, b"payload", Purpose::Transaction).unwrap();
	cache.clear();
	assert!(cache.is_empty());
	assert_eq!(cache.bytes(), 0);
	cache.verify(&signer, &signature, b"payload", Purpose::Transaction).unwrap();
	assert_eq!(cache.stats().misses, 2);
}

/// In a block of distinct signers, no key is decoded to keep: its first signature is verified
/// without a decoded key, its second decodes it into the cache, the third hits.
#[test]
fn a_key_verified_without_decoding_is_decoded_to_keep_at_its_second_signature() {
	let mut cache = unbounded::<PortableEngine>();
	for scheme in Scheme::ML_DSA {
		let (signer, signature) = signed(scheme, 3);
		let (before, held) = (decoded_on_this_thread(), cache.len());
		let verify = |cache: &mut KeyCache<PortableEngine>| {
			cache.verify(&signer, &signature, b"payload", Purpose::Transaction)
		};
		assert_eq!(verify(&mut cache), Ok(()));
		assert_eq!(
			(decoded_on_this_thread() - before, cache.len() - held),
			(0, 0),
			"{scheme:?} first"
		);
		assert_eq!(verify(&mut cache), Ok(()));
		assert_eq!(
			(decoded_on_this_thread() - before, cache.len() - held),
			(1, 1),
			"{scheme:?} second"
		);
		assert_eq!(verify(&mut cache), Ok(()));
		assert_eq!(decoded_on_this_thread() - before, 1, "{scheme:?}: the third signature hits");
	}
	assert_eq!(cache.stats(), CacheStats { hits: 3, misses: 6, evictions: 0 });
}

/// A signature that fails does not count as the key's first: garbage signatures cannot make a
/// node decode and keep keys nobody signs with.
#[test]
fn a_failed_signature_does_not_mark_its_key_for_decoding() {
	let mut cache = unbounded::<PortableEngine>();
	let (signer, signature) = signed(Scheme::MlDsa87, 4);
	let verify = |cache: &mut KeyCache<PortableEngine>, message: &[u8]| {
		cache.verify(&signer, &signature, message, Purpose::Transaction)
	};
	let before = decoded_on_this_thread();
	for _ in 0..2 {
		assert_eq!(verify(&mut cache, b"forged"), Err(VerifyError::BadSignature));
	}
	assert_eq!(verify(&mut cache, b"payload"), Ok(()));
	assert_eq!((decoded_on_this_thread() - before, cache.is_empty()), (0, true));
	assert_eq!(verify(&mut cache, b"payload"), Ok(()));
	assert_eq!((decoded_on_this_thread() - before, cache.len()), (1, 1));
}

/// The keys marked as verified once are at most the cache's entry limit, emptied when full:
/// a later repeat signer is still decoded to keep at its second signature, an earlier one
/// marked again.
#[test]
fn marks_are_bounded_and_emptied_when_full() {
	let mut cache =
		KeyCache::<PortableEngine>::new(CacheLimits { max_entries: 2, max_bytes: usize::MAX });
	let signers: Vec<_> = (10..13).map(|seed| signed(Scheme::MlDsa44, seed)).collect();
	let verify = |cache: &mut KeyCache<PortableEngine>,
	              (signer, signature): &(AccountSigner, AccountSignature)| {
		cache.verify(signer, signature, b"payload", Purpose::Transaction)
	};
	let before = decoded_on_this_thread();
	for signer in &signers {
		assert_eq!(verify(&mut cache, signer), Ok(()));
	}
	assert_eq!(decoded_on_this_thread() - before, 0);
	assert_eq!(verify(&mut cache, &signers[2]), Ok(()));
	assert_eq!((decoded_on_this_thread() - before, cache.len()), (1, 1), "the last was marked");
	assert_eq!(verify(&mut cache, &signers[0]), Ok(()));
	assert_eq!(decoded_on_this_thread() - before, 1, "the first was forgotten, marked again");
	assert_eq!(verify(&mut cache, &signers[0]), Ok(()));
	assert_eq!((decoded_on_this_thread() - before, cache.len()), (2, 2));
}

/// A key larger than the cache's byte budget is never decoded: every signature of it is
/// verified without a decoded key, none decodes one only to drop it.
#[test]
fn a_key_the_cache_cannot_keep_is_never_decoded() {
	let per_key = <PortableEngine as MlDsaVerifier<MlDsa87>>::DECODED_KEY_BYTES;
	let mut cache =
		KeyCache::<PortableEngine>::new(CacheLimits { max_entries: 10, max_bytes: per_key - 1 });
	let (signer, signature) = signed(Scheme::MlDsa87, 5);
	let before = decoded_on_this_thread();
	for _ in 0..3 {
		assert_eq!(cache.verify(&signer, &signature, b"payload", Purpose::Transaction), Ok(()));
	}
	assert_eq!((decoded_on_this_thread() - before, cache.len()), (0, 0));
}
