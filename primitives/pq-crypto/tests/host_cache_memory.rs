//! The node's cache stays inside its budget, counting what is allocated, not what its counters
//! say: a counting global allocator measures the bytes the cache holds after the host
//! functions verified many keys of every level and many signer sets of many committees (whose
//! keys it then knows by signer set too) — more than the budget holds, so it evicts all along.
//!
//! Its own test binary and one test function: the allocator counts the whole process.

use pq_crypto::{
	cache::{CacheLimits, KeyCache},
	host::node,
	host::Host,
	AccountSignature, AccountSigner, Purpose, Scheme,
};
use pq_signer::{aggregator::Committee, signing::Keypair};
use std::{
	alloc::{GlobalAlloc, Layout, System},
	sync::atomic::{AtomicIsize, Ordering},
};

/// The system allocator, counting the bytes allocated and not yet freed.
struct Counting;

static LIVE: AtomicIsize = AtomicIsize::new(0);

unsafe impl GlobalAlloc for Counting {
	unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
		LIVE.fetch_add(layout.size() as isize, Ordering::Relaxed);
		// SAFETY: the caller's contract for `GlobalAlloc::alloc`, passed on.
		unsafe { System.alloc(layout) }
	}

	unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
		LIVE.fetch_sub(layout.size() as isize, Ordering::Relaxed);
		// SAFETY: the caller's contract for `GlobalAlloc::dealloc`, passed on.
		unsafe { System.dealloc(ptr, layout) }
	}
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

const MESSAGE: &[u8] = b"fill the cache";
/// Small enough to fill many times over with what this test signs.
const BUDGET: usize = 4 << 20;

/// A key of `scheme` from `seed` and its signature of [`MESSAGE`].
fn signed(scheme: Scheme, seed: u32) -> (AccountSigner, AccountSignature) {
	let mut bytes = [0u8; 32];
	bytes[..4].copy_from_slice(&seed.to_le_bytes());
	let keypair = Keypair::from_seed(scheme, &bytes).unwrap();
	(keypair.public(), keypair.sign_deterministic(MESSAGE, Purpose::Transaction))
}

#[test]
fn the_node_cache_holds_no_more_than_its_budget() {
	// 120 keys of each level (~2.9, 4.4 and 7.8 MiB decoded) and three signer sets of each of
	// 40 committees (40 matrices of 57 KiB, 120 aggregate keys of 8 KiB).
	let keys: Vec<_> = Scheme::ML_DSA
		.iter()
		.flat_map(|scheme| (0..120).map(|seed| signed(*scheme, seed)))
		.collect();
	let committees: Vec<_> = (0..40u8)
		.map(|seed| {
			let committee = Committee::from_seed(&[seed; 32], 4, 1);
			let signatures: Vec<_> = [0..1, 0..2, 1..4]
				.into_iter()
				.map(|members| {
					let signers = committee.signers(members).unwrap();
					let key = committee.aggregate_key(&signers);
					(
						key,
						committee
							.sign_with_randomness(&signers, MESSAGE, Purpose::Transaction, [7; 32])
							.unwrap(),
					)
				})
				.collect();
			signatures
		})
		.collect();
	// Verification through the host functions, natively; the caller's own `KeyCache` keeps
	// nothing (with `Host` it would hold only encoded keys), so only the node's cache grows.
	// Inside a runtime call (its executing code registered, as a node does), so that signer
	// sets are remembered too.
	let mut externalities = polkadot_sdk::sp_io::TestExternalities::default();
	externalities.register_extension(pq_crypto::host::node::ExecutingCode::new(|| Some([7; 32])));
	let mut verify_all = || {
		externalities.execute_with(|| {
			let mut caller = KeyCache::<Host>::new(CacheLimits { max_entries: 0, max_bytes: 0 });
			for (signer, signature) in &keys {
				assert!(caller.verify(signer, signature, MESSAGE, Purpose::Transaction).is_ok());
			}
			for (key, aggregate) in committees.iter().flatten() {
				let verified = caller.verify_aggregate(
					aggregate.signer_set(),
					key,
					MESSAGE,
					Purpose::Transaction,
					&aggregate.signature,
				);
				assert!(verified.is_ok());
			}
		})
	};

	// Once with a cache, so that whatever is allocated once per process is allocated; then
	// from an empty cache, counting.
	node::configure(CacheLimits { max_entries: usize::MAX, max_bytes: BUDGET });
	verify_all();
	node::configure(CacheLimits { max_entries: usize::MAX, max_bytes: BUDGET });
	let before = LIVE.load(Ordering::Relaxed);
	verify_all();
	let held = LIVE.load(Ordering::Relaxed) - before;

	let occupancy = node::occupancy();
	let stats = node::stats();
	println!("held {held} bytes of {BUDGET}; {occupancy:?}; {stats:?}");
	assert!(held <= BUDGET as isize, "the cache holds {held} bytes, over its budget of {BUDGET}");
	assert!(occupancy.bytes <= BUDGET);
	assert!(
		held as usize <= occupancy.bytes,
		"the counted bytes ({}) cover the held ones ({held})",
		occupancy.bytes
	);
	// It was full, and held all three kinds.
	assert!(stats.keys.evictions > 0 && occupancy.bytes > BUDGET / 2);
	assert!(
		occupancy.keys > 0
			&& occupancy.matrices > 0
			&& occupancy.aggregate_keys > 0
			&& occupancy.signer_sets > 0,
		"{occupancy:?}"
	);
}
