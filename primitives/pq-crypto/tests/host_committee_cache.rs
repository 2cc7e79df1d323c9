//! The node's committee cache behind the aggregate host function: a committee's matrix is
//! expanded on its first valid signature and serves every later signer set; the verdicts are
//! the same with the cache off, filling and full.
//!
//! One test function, because the cache is process-wide and its counters are asserted on.

mod common;

use common::chain_key;
use pq_crypto::{
	cache::{CacheLimits, KeyCache},
	host::node,
	host::Host,
	AggregateSignature, Purpose,
};
use pq_signer::aggregator::Committee;

const MESSAGE: &[u8] = b"committee transfer";

fn node_accepts(committee: &Committee, aggregate: &AggregateSignature, message: &[u8]) -> bool {
	let key = chain_key(committee, &aggregate.signers);
	let mut cache = KeyCache::<Host>::new(CacheLimits::default());
	cache
		.verify_aggregate(
			aggregate.signer_set(),
			&key,
			message,
			Purpose::Transaction,
			&aggregate.signature,
		)
		.is_ok()
}

/// Committee matrices and aggregate keys the node holds.
fn committee_occupancy() -> (usize, usize) {
	let occupancy = node::occupancy();
	(occupancy.matrices, occupancy.aggregate_keys)
}

fn sign(committee: &Committee, members: std::ops::Range<u32>) -> AggregateSignature {
	let signers = committee.signers(members).unwrap();
	committee
		.sign_with_randomness(&signers, MESSAGE, Purpose::Transaction, [3; 32])
		.unwrap()
}

#[test]
fn the_node_expands_a_committee_matrix_once_and_changes_speed_only() {
	let committee = Committee::from_seed(&[0xc0; 32], 8, 1);
	let (first, second) = (sign(&committee, 0..5), sign(&committee, 0..6));

	// Without a cache: expanded every time, nothing kept.
	node::configure(CacheLimits { max_entries: 0, max_bytes: 0 });
	assert!(node_accepts(&committee, &first, MESSAGE));
	assert!(!node_accepts(&committee, &first, b"tampered"));
	assert_eq!(committee_occupancy(), (0, 0));

	// With a cache: a failed signature of a new committee keeps nothing (garbage signatures
	// cannot evict the committees that sign); the first valid one keeps the matrix and its key.
	node::configure(node::DEFAULT_LIMITS);
	assert!(!node_accepts(&committee, &first, b"tampered"));
	assert_eq!(committee_occupancy(), (0, 0));
	assert!(node_accepts(&committee, &first, MESSAGE));
	assert_eq!(committee_occupancy(), (1, 1));
	// Every later signer set of the committee decodes with that matrix.
	for aggregate in [&first, &second, &second] {
		assert!(node_accepts(&committee, aggregate, MESSAGE));
		assert!(!node_accepts(&committee, aggregate, b"tampered"));
	}
	let stats = node::stats();
	assert_eq!(stats.matrices.misses, 2, "looked up by the failed and the first valid signature");
	assert_eq!(stats.matrices.hits, 1, "one decode with the cached matrix: the second signer set");
	assert_eq!(committee_occupancy(), (1, 2));

	// A signer set whose signature fails is decoded with the matrix but not cached.
	let third = sign(&committee, 0..7);
	assert!(!node_accepts(&committee, &third, b"tampered"));
	assert_eq!(committee_occupancy(), (1, 2));
	assert!(node_accepts(&committee, &third, MESSAGE));
	assert_eq!(committee_occupancy(), (1, 3));

	a_signer_set_that_signed_is_known_by_its_bitfield();
}

/// Runs `f` as inside a call of the runtime whose code is `code`, registered as a node
/// registers it: the node scopes what it remembers of signer sets to the executing code.
fn in_runtime<R>(code: &[u8], f: impl FnOnce() -> R) -> R {
	let mut externalities = polkadot_sdk::sp_io::TestExternalities::default();
	externalities
		.insert(polkadot_sdk::sp_core::storage::well_known_keys::CODE.to_vec(), code.to_vec());
	let hash = polkadot_sdk::sp_io::hashing::blake2_256(code);
	externalities.register_extension(node::ExecutingCode::new(move || Some(hash)));
	externalities.execute_with(f)
}

/// A signer set whose signature verified is known to the node by its committee and bitfield:
/// the runtime then asks for the verdict without deriving the key from shares. Unknown sets,
/// every set with the cache off, another runtime's sets and calls outside a runtime are `None`
/// (the runtime derives); a known set's verdicts are those of its derived key. (Part of the one
/// test above: the cache is process-wide.)
fn a_signer_set_that_signed_is_known_by_its_bitfield() {
	use pq_crypto::{backend::Backend, VerifyError};
	let committee = Committee::from_seed(&[0xc1; 32], 6, 1);
	let (first, second) = (sign(&committee, 0..3), sign(&committee, 1..4));
	let known = |aggregate: &AggregateSignature, message: &[u8]| {
		Host::verify_known_signer_set(
			aggregate.signer_set(),
			message,
			Purpose::Transaction,
			&aggregate.signature,
		)
	};
	let runtime = b"runtime code";

	node::configure(CacheLimits { max_entries: 0, max_bytes: 0 });
	in_runtime(runtime, || {
		assert!(node_accepts(&committee, &first, MESSAGE));
		assert_eq!(known(&first, MESSAGE), None, "nothing is kept without a cache");
	});

	node::configure(node::DEFAULT_LIMITS);
	in_runtime(runtime, || {
		assert!(!node_accepts(&committee, &first, b"tampered"));
		assert_eq!(known(&first, MESSAGE), None, "a failed signature makes nothing known");
		assert!(node_accepts(&committee, &first, MESSAGE));
		assert_eq!(known(&first, MESSAGE), Some(Ok(())));
		assert_eq!(known(&first, b"tampered"), Some(Err(VerifyError::BadSignature)));
		assert_eq!(known(&second, MESSAGE), None, "another signer set is not known");
		// The same bitfield of another committee is another signer set.
		let other = Committee::from_seed(&[0xc2; 32], 6, 1);
		assert_eq!(known(&sign(&other, 0..3), MESSAGE), None);
	});
	in_runtime(b"another runtime's code", || {
		assert_eq!(
			known(&first, MESSAGE),
			None,
			"a signer set is known to the code that derived its key only"
		);
	});
	assert_eq!(known(&first, MESSAGE), None, "outside a runtime call nothing is known");
	let mut unregistered = polkadot_sdk::sp_io::TestExternalities::default();
	unregistered
		.insert(polkadot_sdk::sp_core::storage::well_known_keys::CODE.to_vec(), runtime.to_vec());
	unregistered.execute_with(|| {
		assert_eq!(
			known(&first, MESSAGE),
			None,
			"nothing is known where the node did not register the executing code"
		);
	});
	assert_eq!(node::stats().signer_sets.hits, 2);
	a_runtime_writing_code_cannot_file_signer_sets_under_that_code();
}

/// docs/security.md, "A signer set filed under code that did not derive it": a call that
/// writes `:code` — `set_code` in an upgrade block, whose later transactions still run the old
/// code, or a runtime on a fork writing the honest code's bytes — remembers the signer sets it
/// verifies for the code it executes, never for the code it wrote. (Part of the one test above.)
fn a_runtime_writing_code_cannot_file_signer_sets_under_that_code() {
	use pq_crypto::backend::Backend;
	let committee = Committee::from_seed(&[0xc3; 32], 6, 1);
	let aggregate = sign(&committee, 0..3);
	let known = || {
		Host::verify_known_signer_set(
			aggregate.signer_set(),
			MESSAGE,
			Purpose::Transaction,
			&aggregate.signature,
		)
	};
	let (old_code, new_code) = (b"the code before the upgrade", b"the code after the upgrade");
	in_runtime(old_code, || {
		polkadot_sdk::sp_io::storage::set(
			polkadot_sdk::sp_core::storage::well_known_keys::CODE,
			new_code,
		);
		assert!(node_accepts(&committee, &aggregate, MESSAGE));
		assert!(known().is_some(), "known to the code that verified it");
	});
	in_runtime(new_code, || assert_eq!(known(), None, "not to the code the call wrote"));
	in_runtime(old_code, || assert!(known().is_some()));
}
