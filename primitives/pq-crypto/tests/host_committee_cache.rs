//! The node's committee cache behind the aggregate host function: libcrux verifies until a
//! committee's matrix is expanded (on another thread), the committee verifier after; the
//! verdicts are the same.
//!
//! One test function, because the cache is process-wide and its counters are asserted on.

mod common;

use common::chain_key;
use pq_crypto::{
	aggregate::aggregator::Committee,
	backend::Native,
	cache::{CacheLimits, KeyCache},
	host::node,
	AggregateSignature, Purpose,
};
use std::time::{Duration, Instant};

const MESSAGE: &[u8] = b"committee transfer";

fn node_accepts(committee: &Committee, aggregate: &AggregateSignature, message: &[u8]) -> bool {
	let key = chain_key(committee, &aggregate.signers);
	let mut cache = KeyCache::<Native>::new(CacheLimits::default());
	cache.verify_aggregate(&key, message, Purpose::Transaction, &aggregate.signature).is_ok()
}

fn sign(committee: &Committee, members: std::ops::Range<u32>) -> AggregateSignature {
	let signers = committee.signers(members).unwrap();
	committee.sign_with_randomness(&signers, MESSAGE, Purpose::Transaction, [3; 32]).unwrap()
}

/// Waits until the node holds `matrices` committee matrices.
fn await_matrices(matrices: usize) {
	let deadline = Instant::now() + Duration::from_secs(30);
	while node::aggregate_occupancy().0 < matrices {
		assert!(Instant::now() < deadline, "the matrix was not expanded within 30 s");
		std::thread::sleep(Duration::from_millis(5));
	}
}

#[test]
fn the_node_expands_a_committee_matrix_once_and_changes_speed_only() {
	let committee = Committee::from_seed(&[0xc0; 32], 8, 1);
	let (first, second) = (sign(&committee, 0..5), sign(&committee, 0..6));

	// Without a cache: libcrux every time, no matrix expanded.
	node::configure(CacheLimits { max_entries: 0, max_bytes: 0 });
	assert!(node_accepts(&committee, &first, MESSAGE));
	assert!(!node_accepts(&committee, &first, b"tampered"));
	assert_eq!(node::aggregate_occupancy(), (0, 0));

	// With a cache: the first verification misses the matrix and starts its expansion.
	node::configure(node::DEFAULT_LIMITS);
	assert!(node_accepts(&committee, &first, MESSAGE));
	await_matrices(1);
	// Every later signer set of the committee decodes with that matrix.
	for aggregate in [&first, &second, &second] {
		assert!(node_accepts(&committee, aggregate, MESSAGE));
		assert!(!node_accepts(&committee, aggregate, b"tampered"));
	}
	let stats = node::aggregate_stats();
	assert_eq!(stats.matrices.misses, 1, "expanded once");
	assert_eq!(stats.matrices.hits, 2, "one decode per signer set");
	assert_eq!(node::aggregate_occupancy(), (1, 2));

	// A signer set whose signature fails is decoded with the matrix but not cached: garbage
	// signatures cannot evict the keys of signer sets that sign.
	let third = sign(&committee, 0..7);
	assert!(!node_accepts(&committee, &third, b"tampered"));
	assert_eq!(node::aggregate_occupancy(), (1, 2));
	assert!(node_accepts(&committee, &third, MESSAGE));
	assert_eq!(node::aggregate_occupancy(), (1, 3));
}
