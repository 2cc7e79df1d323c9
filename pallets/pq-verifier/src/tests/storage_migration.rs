//! The migrations: to storage version 1, a registry of version-1 account ids, as a chain before
//! it would hold, becomes migrated accounts that accept only their key; to version 2, each
//! owner's committees are counted.

use super::*;
use crate::{
	migrations::{v1::MigrateToV1, v2::MigrateToV2},
	CommitteesOwned, OnlyRegisteredKey, RegisteredKey,
};
use polkadot_sdk::frame_support::traits::{
	Get, GetStorageVersion, OnRuntimeUpgrade, StorageVersion,
};

#[test]
fn version_1_accounts_become_migrated_accounts_that_accept_only_their_key() {
	let derived = keypair(Scheme::MlDsa87, 0x81);
	let version_1 = derived.public().version_1_account_id();
	let ed25519 = keypair(Scheme::Ed25519, 0x82).account_id();
	let migrated_key = keypair(Scheme::MlDsa44, 0x83);
	new_test_ext_with(&[version_1.clone(), ed25519.clone()]).execute_with(|| {
		// A chain at storage version 0: a key registered for its version-1 id, and an Ed25519
		// account migrated to another key.
		StorageVersion::new(0).put::<crate::Pallet<Test>>();
		let register = |who: &AccountId32, key: &Keypair, migrated: bool| {
			let deposit = crate::Pallet::<Test>::deposit_for(&key.public());
			use polkadot_sdk::frame_support::traits::fungible::MutateHold;
			assert_ok!(Balances::hold(&crate::HoldReason::KeyDeposit.into(), who, deposit));
			assert_ok!(System::inc_consumers(who));
			crate::Keys::<Test>::insert(
				who,
				RegisteredKey { key: key.public(), deposit, migrated },
			);
		};
		register(&version_1, &derived, false);
		register(&ed25519, &migrated_key, true);
		assert!(
			crate::Pallet::<Test>::do_try_state().is_err(),
			"version-1 state breaks today's invariant"
		);

		MigrateToV1::<Test>::on_runtime_upgrade();

		assert_eq!(crate::Pallet::<Test>::on_chain_storage_version(), StorageVersion::new(1));
		assert!(crate::Keys::<Test>::get(&version_1).unwrap().migrated);
		assert!(
			OnlyRegisteredKey::<Test>::contains_key(&version_1),
			"the classical signature is shut out"
		);
		assert!(crate::Keys::<Test>::get(&ed25519).unwrap().migrated);
		assert!(
			!OnlyRegisteredKey::<Test>::contains_key(&ed25519),
			"an Ed25519 account's own choice stays"
		);
		assert_ok!(crate::Pallet::<Test>::do_try_state());

		// Its key can never be removed nor the only-key rule lifted: either would leave the
		// account to no one, or to whoever takes discrete logarithms.
		assert!(crate::Version1Accounts::<Test>::contains_key(&version_1));
		assert_noop!(
			PqVerifier::remove_key(RuntimeOrigin::signed(version_1.clone())),
			Error::<Test>::Version1Account
		);
		assert_noop!(
			PqVerifier::set_only_registered_key(RuntimeOrigin::signed(version_1.clone()), false),
			Error::<Test>::Version1Account
		);

		// The key still signs for its version-1 account, in the registered form.
		let call = remark(b"after the upgrade");
		assert_eq!(validate(registered(&version_1, &derived, &call)), Ok(Some(version_1.clone())));

		// Run again, it does nothing: the version is 1.
		let weight = MigrateToV1::<Test>::on_runtime_upgrade();
		let one_read = <<Test as frame_system::Config>::DbWeight as Get<
			polkadot_sdk::frame_support::weights::RuntimeDbWeight,
		>>::get()
		.reads(1);
		assert!(weight.ref_time() <= one_read.ref_time());
	});
}

#[test]
fn a_new_chain_starts_at_storage_version_2() {
	use polkadot_sdk::frame_support::traits::OnGenesis;
	new_test_ext().execute_with(|| {
		crate::Pallet::<Test>::on_genesis();
		assert_eq!(crate::Pallet::<Test>::on_chain_storage_version(), StorageVersion::new(2));
		assert_eq!(crate::Pallet::<Test>::in_code_storage_version(), StorageVersion::new(2));
	});
}

/// Committees stored at version 1, without counts: the migration counts each owner's, and the
/// count then holds its committees' owner to a post-quantum key.
#[test]
fn the_migration_to_version_2_counts_each_owners_committees() {
	use pq_signer::aggregator::Committee;
	let owners =
		[keypair(Scheme::MlDsa44, 0x86).account_id(), keypair(Scheme::MlDsa65, 0x87).account_id()];
	let committees: Vec<_> =
		(0..3u8).map(|seed| Committee::from_seed(&[0x88 + seed; 32], 2, 1)).collect();
	new_test_ext_with(&owners).execute_with(|| {
		for (committee, owner) in committees.iter().zip([&owners[0], &owners[0], &owners[1]]) {
			let members = super::committees::members_for(committee, owner).try_into().unwrap();
			assert_ok!(PqVerifier::create_committee(
				RuntimeOrigin::signed(owner.clone()),
				committee.rho(),
				1,
				members
			));
		}
		// A chain at storage version 1 has no counts.
		let _ = CommitteesOwned::<Test>::clear(u32::MAX, None);
		StorageVersion::new(1).put::<crate::Pallet<Test>>();
		assert_ok!(crate::Pallet::<Test>::do_try_state());
		StorageVersion::new(2).put::<crate::Pallet<Test>>();
		assert!(crate::Pallet::<Test>::do_try_state().is_err(), "version 2 counts committees");
		StorageVersion::new(1).put::<crate::Pallet<Test>>();

		MigrateToV1::<Test>::on_runtime_upgrade();
		assert_eq!(CommitteesOwned::<Test>::iter().count(), 0, "the first migration does not run");
		MigrateToV2::<Test>::on_runtime_upgrade();

		assert_eq!(crate::Pallet::<Test>::on_chain_storage_version(), StorageVersion::new(2));
		assert_eq!(CommitteesOwned::<Test>::get(&owners[0]), Some(2));
		assert_eq!(CommitteesOwned::<Test>::get(&owners[1]), Some(1));
		assert_ok!(crate::Pallet::<Test>::do_try_state());

		// Run again, it counts nothing twice: the version is 2.
		MigrateToV2::<Test>::on_runtime_upgrade();
		assert_eq!(CommitteesOwned::<Test>::get(&owners[0]), Some(2));
	});
}

/// A committee controls its account of today: what its version-1 account held moves there.
#[test]
fn a_committees_version_1_account_moves_to_its_account() {
	use pq_crypto::AccountSigner;
	use pq_signer::aggregator::Committee;
	let committee = Committee::from_seed(&[0x84; 32], 2, 1);
	let owner = keypair(Scheme::MlDsa44, 0x85).account_id();
	let version_1 = AccountSigner::AggregateMlDsa87(committee.id()).version_1_account_id();
	new_test_ext_with(&[owner.clone(), version_1.clone()]).execute_with(|| {
		let members = super::committees::members_for(&committee, &owner).try_into().unwrap();
		assert_ok!(PqVerifier::create_committee(
			RuntimeOrigin::signed(owner.clone()),
			committee.rho(),
			1,
			members
		));
		// A chain at storage version 0 has no counts of committees either.
		let _ = CommitteesOwned::<Test>::clear(u32::MAX, None);
		StorageVersion::new(0).put::<crate::Pallet<Test>>();

		MigrateToV1::<Test>::on_runtime_upgrade();

		assert_eq!(Balances::free_balance(committee.id().account_id()), ENDOWMENT);
		assert_eq!(Balances::free_balance(&version_1), 0);
		// What the first migration's `post_upgrade` checks, before the second counts.
		assert_ok!(crate::Pallet::<Test>::do_try_state());
		MigrateToV2::<Test>::on_runtime_upgrade();
		assert_eq!(CommitteesOwned::<Test>::get(&owner), Some(1));
		assert_ok!(crate::Pallet::<Test>::do_try_state());
	});
}
