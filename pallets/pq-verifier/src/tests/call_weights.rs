//! The key calls' weights (`call_weights`): a key's derivation charged at its bound before the
//! call, nothing derived to compute that, and the candidates the call tried kept after it.

use super::*;
use crate::{call_weights, WeightInfo};
use polkadot_sdk::frame_support::{
	dispatch::{Pays, PostDispatchInfo},
	traits::UnfilteredDispatchable,
	weights::Weight,
};
use pq_crypto::AccountSigner;

type Weights = <Test as crate::Config>::WeightInfo;

/// A key of each kind a call may name — an ML-DSA key ground for a long derivation, and a
/// committee's key, 32 bytes ground as freely — costs a node no derivation for the call's
/// weight: a weight is computed for every transaction a node sees, before its fee is asked
/// for, and inside calls that wrap another (`sudo_unchecked_weight`).
#[test]
fn a_key_calls_weight_derives_nothing() {
	let ground = ground_key(3).public();
	let committee = AccountSigner::AggregateMlDsa87(pq_crypto::aggregate::CommitteeId([7; 32]));
	for key in [ground, committee] {
		let tried_before = pq_crypto::account::candidates_tried();
		let calls = [
			crate::Call::<Test>::register_key {
				key: Box::new(key.clone()),
				proof: None,
				only_registered_key: false,
			},
			crate::Call::<Test>::rotate_key {
				key: Box::new(key.clone()),
				proof: None,
				only_registered_key: true,
			},
		];
		for call in calls {
			let _ = call.get_dispatch_info();
		}
		assert_eq!(pq_crypto::account::candidates_tried(), tried_before, "{key:?}");
	}
}

/// Before it runs, a key call is charged its key's derivation at the bound; after, the
/// candidates its derivation tried, beyond the one the benchmark's key took.
#[test]
fn a_key_call_is_charged_its_derivation_at_the_bound_and_refunded_to_its_count() {
	let bound = Weights::account_candidates(call_weights::CHARGED_CANDIDATES - 1);
	assert_eq!(
		call_weights::registration::<Weights>(),
		call_weights::registered::<Weights>(true, 0) + bound
	);
	assert_eq!(
		call_weights::rotation::<Weights>(true),
		call_weights::rotated::<Weights>(true, 1) + bound
	);
	for k in [2, 3, 10] {
		let beyond = Weights::account_candidates(k - 1);
		assert_eq!(call_weights::registered::<Weights>(false, k), Weights::register_key() + beyond);
		assert_eq!(call_weights::rotated::<Weights>(false, k), Weights::rotate_key() + beyond);
	}
	assert_eq!(call_weights::key_derivation::<Weights>(1), Weight::zero(), "the benchmarked one");
	assert_eq!(
		call_weights::key_derivation::<Weights>(u32::MAX),
		bound,
		"never beyond what was charged before the call"
	);
}

/// A registration's actual weight is the branch it took with the candidates its key's
/// derivation tried, each charged: the migration of another account, or the registration of
/// the key's own derived account (no proof verified).
#[test]
fn a_registration_keeps_the_charge_of_every_candidate_it_tried() {
	let ground = ground_key(3);
	let candidates = ground.public().account_derivation().1;
	let alice = AccountId32::new([1; 32]);
	new_test_ext_with(&[alice.clone(), ground.account_id()]).execute_with(|| {
		for (who, proof) in [
			(alice.clone(), Some(Box::new(possession_proof(&ground, &alice)))),
			(ground.account_id(), None),
		] {
			let registration = crate::Call::<Test>::register_key {
				key: Box::new(ground.public()),
				proof,
				only_registered_key: false,
			};
			let tried_before = pq_crypto::account::candidates_tried();
			let post = registration.dispatch_bypass_filter(RuntimeOrigin::signed(who.clone()));
			let tried = pq_crypto::account::candidates_tried() - tried_before;
			assert_eq!(tried, u64::from(candidates), "one derivation, in the call");
			let migrated = who == alice;
			assert_eq!(
				post,
				Ok(PostDispatchInfo {
					actual_weight: Some(call_weights::registered::<Weights>(migrated, candidates)),
					pays_fee: Pays::Yes,
				})
			);
			assert!(Weights::account_candidates(candidates - 1).ref_time() > 0);
		}
	});
}

/// The path a block's import takes — the extrinsic checked, its dispatch info asked for, the
/// call applied — derives a ground key's account once for a registration, and the actual
/// weight it reports (what the payment extension and `CheckWeight` keep) charges each of its
/// candidates.
#[test]
fn importing_a_ground_keys_registration_derives_it_once_and_charges_it() {
	let ground = ground_key(3);
	let candidates = ground.public().account_derivation().1;
	let sender = keypair(Scheme::Ed25519, 9);
	let who = sender.account_id();
	new_test_ext_with(core::slice::from_ref(&who)).execute_with(|| {
		let registration: RuntimeCall = crate::Call::register_key {
			key: Box::new(ground.public()),
			proof: Some(Box::new(possession_proof(&ground, &who))),
			only_registered_key: false,
		}
		.into();
		let transaction = inline(&sender, &registration);
		let len = transaction.encoded_size();
		let tried_before = pq_crypto::account::candidates_tried();
		let checked = transaction
			.check(&IdentityLookup::<AccountId32>::default())
			.expect("a valid transaction");
		let info = checked.get_dispatch_info();
		let post = checked.apply::<Test>(&info, len).expect("applies").expect("registers");
		let tried = pq_crypto::account::candidates_tried() - tried_before;
		assert_eq!(tried, u64::from(candidates), "the call's derivation alone");
		assert_eq!(info.call_weight, call_weights::registration::<Weights>());
		// The call's own, and at most the extensions' (the signature's among them) beside it.
		let kept = post.actual_weight.expect("the registration's own weight");
		let call = call_weights::registered::<Weights>(true, candidates);
		assert!(kept.all_gte(call) && (call + info.extension_weight).all_gte(kept), "{kept:?}");
	});
}
