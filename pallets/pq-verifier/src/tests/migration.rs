//! Migrating accounts to a registered key, accepting only it, rotating and removing it.

use super::*;

#[test]
fn migration_with_valid_proof_succeeds() {
	let ed25519 = keypair(Scheme::Ed25519, 1);
	let who = ed25519.account_id();
	new_test_ext_with(core::slice::from_ref(&who)).execute_with(|| {
		let key = keypair(Scheme::MlDsa65, 2);
		register(&who, &key);
		let registered = Keys::<Test>::get(&who).unwrap();
		assert!(registered.migrated);
		System::assert_last_event(
			Event::AccountMigrated { who, scheme: Scheme::MlDsa65, deposit: registered.deposit }
				.into(),
		);
	});
}

#[test]
fn migration_without_proof_is_proof_required() {
	let who = keypair(Scheme::Ed25519, 1).account_id();
	new_test_ext_with(core::slice::from_ref(&who)).execute_with(|| {
		assert_noop!(
			PqVerifier::register_key(
				RuntimeOrigin::signed(who),
				Box::new(keypair(Scheme::MlDsa65, 2).public()),
				None,
				false
			),
			Error::<Test>::ProofRequired
		);
	});
}

#[test]
fn proof_for_another_account_is_invalid_proof() {
	let who = keypair(Scheme::Ed25519, 1).account_id();
	new_test_ext_with(core::slice::from_ref(&who)).execute_with(|| {
		let key = keypair(Scheme::MlDsa65, 2);
		let elsewhere = AccountId32::new([5; 32]);
		let proof = possession_proof(&key, &elsewhere);
		assert_noop!(
			PqVerifier::register_key(
				RuntimeOrigin::signed(who),
				Box::new(key.public()),
				Some(Box::new(proof)),
				false
			),
			Error::<Test>::InvalidProof
		);
	});
}

#[test]
fn proof_for_another_purpose_is_invalid_proof() {
	let who = keypair(Scheme::Ed25519, 1).account_id();
	new_test_ext_with(core::slice::from_ref(&who)).execute_with(|| {
		let key = keypair(Scheme::MlDsa65, 2);
		let proof = key.sign_deterministic(
			&crate::Pallet::<Test>::possession_statement(&who),
			Purpose::Transaction,
		);
		assert_noop!(
			PqVerifier::register_key(
				RuntimeOrigin::signed(who),
				Box::new(key.public()),
				Some(Box::new(proof)),
				false
			),
			Error::<Test>::InvalidProof
		);
	});
}

#[test]
fn only_the_registered_key_signs_after_opting_in() {
	let ed25519 = keypair(Scheme::Ed25519, 1);
	let who = ed25519.account_id();
	let key = keypair(Scheme::MlDsa87, 2);
	new_test_ext_with(core::slice::from_ref(&who)).execute_with(|| {
		let call = remark(b"hello");
		register(&who, &key);
		// Before opting in, Ed25519 still works.
		assert!(validate(inline(&ed25519, &call)).is_ok());

		assert_ok!(PqVerifier::set_only_registered_key(RuntimeOrigin::signed(who.clone()), true));
		System::assert_last_event(
			Event::OnlyRegisteredKeySet { who: who.clone(), enabled: true }.into(),
		);
		assert_eq!(validate(inline(&ed25519, &call)), Err(only_registered_key()));
		assert_eq!(validate(registered(&who, &key, &call)), Ok(Some(who.clone())));

		// Opting out again restores the other keys.
		assert_ok!(PqVerifier::set_only_registered_key(RuntimeOrigin::signed(who.clone()), false));
		assert!(validate(inline(&ed25519, &call)).is_ok());
	});
}

#[test]
fn a_migration_can_accept_only_the_new_key_at_once() {
	let ed25519 = keypair(Scheme::Ed25519, 1);
	let who = ed25519.account_id();
	new_test_ext_with(core::slice::from_ref(&who)).execute_with(|| {
		let key = keypair(Scheme::MlDsa65, 2);
		migrate_exclusively(&who, &key);
		let deposit = Keys::<Test>::get(&who).unwrap().deposit;
		System::assert_has_event(
			Event::AccountMigrated { who: who.clone(), scheme: Scheme::MlDsa65, deposit }.into(),
		);
		System::assert_last_event(
			Event::OnlyRegisteredKeySet { who: who.clone(), enabled: true }.into(),
		);
		assert!(crate::Pallet::<Test>::only_registered_key(&who));
	});
}

#[test]
fn a_derived_account_cannot_accept_only_its_registered_key() {
	let key = keypair(Scheme::MlDsa44, 1);
	let who = key.account_id();
	new_test_ext_with(core::slice::from_ref(&who)).execute_with(|| {
		assert_noop!(
			PqVerifier::register_key(
				RuntimeOrigin::signed(who.clone()),
				Box::new(key.public()),
				None,
				true
			),
			Error::<Test>::NotMigrated
		);
		register(&who, &key);
		assert_noop!(
			PqVerifier::set_only_registered_key(RuntimeOrigin::signed(who), true),
			Error::<Test>::NotMigrated
		);
	});
}

#[test]
fn rotating_a_key_keeps_only_the_registered_key_and_adjusts_the_deposit() {
	let ed25519 = keypair(Scheme::Ed25519, 1);
	let who = ed25519.account_id();
	let (old, new) = (keypair(Scheme::MlDsa44, 2), keypair(Scheme::MlDsa87, 3));
	new_test_ext_with(core::slice::from_ref(&who)).execute_with(|| {
		migrate_exclusively(&who, &old);
		assert_ok!(PqVerifier::rotate_key(
			RuntimeOrigin::signed(who.clone()),
			Box::new(new.public()),
			Some(Box::new(possession_proof(&new, &who))),
			false
		));
		let deposit = crate::Pallet::<Test>::deposit_for(&new.public());
		System::assert_last_event(
			Event::KeyRotated { who: who.clone(), scheme: Scheme::MlDsa87, deposit }.into(),
		);
		assert_eq!(Balances::balance_on_hold(&crate::HoldReason::KeyDeposit.into(), &who), deposit);
		assert!(crate::Pallet::<Test>::only_registered_key(&who));
		let call = remark(b"hello");
		assert_eq!(validate(registered(&who, &new, &call)), Ok(Some(who.clone())));
		assert_eq!(
			validate(registered(&who, &old, &call)),
			Err(PqInvalidTransaction::SchemeMismatch.into())
		);
		assert_eq!(validate(inline(&ed25519, &call)), Err(only_registered_key()));
	});
}

#[test]
fn rotating_to_the_derived_key_ends_only_registered_key() {
	let own = keypair(Scheme::MlDsa44, 1);
	let who = own.account_id();
	new_test_ext_with(core::slice::from_ref(&who)).execute_with(|| {
		migrate_exclusively(&who, &keypair(Scheme::MlDsa65, 2));
		assert_ok!(PqVerifier::rotate_key(
			RuntimeOrigin::signed(who.clone()),
			Box::new(own.public()),
			None,
			false
		));
		assert!(!crate::Pallet::<Test>::only_registered_key(&who));
		assert!(!Keys::<Test>::get(&who).unwrap().migrated);
		System::assert_has_event(Event::OnlyRegisteredKeySet { who, enabled: false }.into());
	});
}

#[test]
fn rotating_needs_a_registered_key_and_a_proof() {
	let who = keypair(Scheme::Ed25519, 1).account_id();
	new_test_ext_with(core::slice::from_ref(&who)).execute_with(|| {
		let key = keypair(Scheme::MlDsa65, 2);
		let rotate = |proof: Option<AccountSignature>| {
			PqVerifier::rotate_key(
				RuntimeOrigin::signed(who.clone()),
				Box::new(key.public()),
				proof.map(Box::new),
				false,
			)
		};
		assert_noop!(rotate(Some(possession_proof(&key, &who))), Error::<Test>::NotRegistered);
		register(&who, &keypair(Scheme::MlDsa44, 3));
		assert_noop!(rotate(None), Error::<Test>::ProofRequired);
		assert_noop!(
			rotate(Some(possession_proof(&key, &AccountId32::new([5; 32])))),
			Error::<Test>::InvalidProof
		);
	});
}

#[test]
fn removing_the_key_accepts_the_other_keys_again() {
	let ed25519 = keypair(Scheme::Ed25519, 1);
	let who = ed25519.account_id();
	new_test_ext_with(core::slice::from_ref(&who)).execute_with(|| {
		migrate_exclusively(&who, &keypair(Scheme::MlDsa65, 2));
		assert_ok!(PqVerifier::remove_key(RuntimeOrigin::signed(who.clone())));
		assert!(!crate::Pallet::<Test>::only_registered_key(&who));
		System::assert_has_event(
			Event::OnlyRegisteredKeySet { who: who.clone(), enabled: false }.into(),
		);
		let call = remark(b"hello");
		assert_eq!(validate(inline(&ed25519, &call)), Ok(Some(who)));
	});
}
