//! `try_state`'s invariants hold after every call: random sequences of the pallet's calls, from
//! many accounts, each checked after every step — succeeding or failing, as the runtime
//! dispatches them (a failed call leaves nothing behind). Failing cases are kept in
//! `proptest-regressions/`.

use super::{committees::members_for, *};
use crate::Call as PqCall;
use polkadot_sdk::sp_runtime::traits::Dispatchable;
use pq_signer::aggregator::Committee;
use proptest::prelude::*;
use std::sync::OnceLock;

/// Plain accounts (an Ed25519 key's, or any), then the derived accounts of [`keys`].
fn accounts() -> Vec<AccountId32> {
	let mut accounts: Vec<AccountId32> =
		(0..3).map(|seed| keypair(Scheme::Ed25519, 0x60 + seed).account_id()).collect();
	accounts.extend(keys().iter().map(Keypair::account_id));
	accounts
}

/// ML-DSA keys of every level.
fn keys() -> &'static [Keypair] {
	static KEYS: OnceLock<Vec<Keypair>> = OnceLock::new();
	KEYS.get_or_init(|| {
		[Scheme::MlDsa44, Scheme::MlDsa65, Scheme::MlDsa87, Scheme::MlDsa44]
			.iter()
			.zip(0x70..)
			.map(|(scheme, seed)| keypair(*scheme, seed))
			.collect()
	})
}

/// Small committees: anyone may create them (their proofs name each creator).
fn committees() -> &'static [Committee] {
	static COMMITTEES: OnceLock<Vec<Committee>> = OnceLock::new();
	COMMITTEES.get_or_init(|| {
		vec![Committee::from_seed(&[0x71; 32], 2, 1), Committee::from_seed(&[0x72; 32], 3, 2)]
	})
}

/// A step: a call from one of [`accounts`], or what the committee's members do with its account.
#[derive(Clone, Debug)]
enum Step {
	Register {
		who: usize,
		key: usize,
		only_registered_key: bool,
	},
	Rotate {
		who: usize,
		key: usize,
	},
	Remove {
		who: usize,
	},
	OnlyRegisteredKey {
		who: usize,
		enabled: bool,
	},
	CreateCommittee {
		owner: usize,
		committee: usize,
	},
	DissolveCommittee {
		owner: usize,
		committee: usize,
	},
	/// The committee's members empty its account (or fill it again).
	SetCommitteeBalance {
		committee: usize,
		funded: bool,
	},
}

fn step() -> impl Strategy<Value = Step> {
	let who = 0..7usize;
	let key = 0..4usize;
	let committee = 0..2usize;
	prop_oneof![
		(who.clone(), key.clone(), any::<bool>()).prop_map(|(who, key, only_registered_key)| {
			Step::Register { who, key, only_registered_key }
		}),
		(who.clone(), key).prop_map(|(who, key)| Step::Rotate { who, key }),
		who.clone().prop_map(|who| Step::Remove { who }),
		(who.clone(), any::<bool>())
			.prop_map(|(who, enabled)| Step::OnlyRegisteredKey { who, enabled }),
		(who.clone(), committee.clone())
			.prop_map(|(owner, committee)| Step::CreateCommittee { owner, committee }),
		(who, committee.clone())
			.prop_map(|(owner, committee)| Step::DissolveCommittee { owner, committee }),
		(committee, any::<bool>())
			.prop_map(|(committee, funded)| Step::SetCommitteeBalance { committee, funded }),
	]
}

/// The call of `step`, with its proofs, and the account it is from; `None` for what members
/// do off the pallet.
fn call(step: &Step) -> Option<(AccountId32, PqCall<Test>)> {
	let accounts = accounts();
	let proof = |key: &Keypair, who: &AccountId32| {
		(key.account_id() != *who).then(|| possession_proof(key, who))
	};
	Some(match *step {
		Step::Register { who, key, only_registered_key } => {
			let (who, key) = (&accounts[who], &keys()[key]);
			(
				who.clone(),
				PqCall::register_key {
					key: Box::new(key.public()),
					proof: proof(key, who).map(Box::new),
					only_registered_key,
				},
			)
		},
		Step::Rotate { who, key } => {
			let (who, key) = (&accounts[who], &keys()[key]);
			(
				who.clone(),
				PqCall::rotate_key {
					key: Box::new(key.public()),
					proof: proof(key, who).map(Box::new),
					only_registered_key: false,
				},
			)
		},
		Step::Remove { who } => (accounts[who].clone(), PqCall::remove_key {}),
		Step::OnlyRegisteredKey { who, enabled } => {
			(accounts[who].clone(), PqCall::set_only_registered_key { enabled })
		},
		Step::CreateCommittee { owner, committee } => {
			let (owner, committee) = (&accounts[owner], &committees()[committee]);
			let members = members_for(committee, owner).try_into().expect("a small committee");
			(
				owner.clone(),
				PqCall::create_committee {
					rho: committee.rho(),
					threshold: committee.threshold(),
					members,
				},
			)
		},
		Step::DissolveCommittee { owner, committee } => (
			accounts[owner].clone(),
			PqCall::dissolve_committee { committee: committees()[committee].id() },
		),
		Step::SetCommitteeBalance { .. } => return None,
	})
}

proptest! {
	#![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

	#[test]
	fn every_call_sequence_keeps_the_invariants(steps in prop::collection::vec(step(), 1..32)) {
		let mut endowed = accounts();
		endowed.extend(committees().iter().map(|committee| committee.id().account_id()));
		new_test_ext_with(&endowed).execute_with(|| {
			assert_ok!(crate::Pallet::<Test>::do_try_state());
			for step in &steps {
				match call(step) {
					Some((who, call)) => {
						let _ = RuntimeCall::from(call).dispatch(RuntimeOrigin::signed(who));
					},
					None => {
						let Step::SetCommitteeBalance { committee, funded } = *step else { unreachable!() };
						let account = committees()[committee].id().account_id();
						<Balances as Mutate<AccountId32>>::set_balance(&account, if funded { ENDOWMENT } else { 0 });
					},
				}
				crate::Pallet::<Test>::do_try_state().map_err(|error| TestCaseError::fail(format!("after {step:?}: {error:?}")))?;
			}
			Ok::<(), TestCaseError>(())
		})?;
	}
}

/// The invariants are checks that can fail: each breach of them is found.
#[test]
fn try_state_finds_every_breach() {
	let key = keypair(Scheme::MlDsa65, 0x7a);
	let committee = &committees()[0];
	let owner = keypair(Scheme::MlDsa44, 0x7b).account_id();
	/// Breaks one invariant, given the account holding a key, another account and a committee.
	type Breach = fn(&AccountId32, &AccountId32, &Committee);
	let breaches: [(&str, Breach); 8] = [
		("a key marked as derived for another account", |who, _, _| {
			crate::Keys::<Test>::mutate(who, |registered| {
				registered.as_mut().unwrap().migrated = false
			})
		}),
		("a deposit that is not held", |who, _, _| {
			crate::Keys::<Test>::mutate(who, |registered| registered.as_mut().unwrap().deposit += 1)
		}),
		("only the registered key, without a migrated key", |_, owner, _| {
			crate::OnlyRegisteredKey::<Test>::insert(owner, ())
		}),
		("a missing share", |_, _, committee| {
			crate::CommitteeShares::<Test>::remove(committee.id(), 0)
		}),
		("a dissolved committee that exists", |_, _, committee| {
			crate::DissolvedCommittees::<Test>::insert(committee.id(), ())
		}),
		("an owner's committees miscounted", |_, owner, _| {
			crate::CommitteesOwned::<Test>::insert(owner, 2)
		}),
		("a count for an account that owns no committee", |who, _, _| {
			crate::CommitteesOwned::<Test>::insert(who, 1)
		}),
		("a consumer reference gone", |who, _, _| {
			System::dec_consumers(who);
			System::dec_consumers(who);
		}),
	];
	for (breach, make) in breaches {
		let who = keypair(Scheme::Ed25519, 0x7c).account_id();
		new_test_ext_with(&[who.clone(), owner.clone()]).execute_with(|| {
			migrate_exclusively(&who, &key);
			let members = members_for(committee, &owner).try_into().unwrap();
			assert_ok!(PqVerifier::create_committee(
				RuntimeOrigin::signed(owner.clone()),
				committee.rho(),
				committee.threshold(),
				members
			));
			assert_ok!(crate::Pallet::<Test>::do_try_state());
			make(&who, &owner, committee);
			assert!(crate::Pallet::<Test>::do_try_state().is_err(), "{breach} went unnoticed");
		});
	}
}
