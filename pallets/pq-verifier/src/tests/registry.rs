//! Registering and removing keys: deposits, existence, refusals.

use super::*;

#[test]
fn deposit_is_held_and_released() {
	new_test_ext().execute_with(|| {
		let key = keypair(Scheme::MlDsa87, 1);
		let who = key.account_id();
		fund(&who);
		register(&who, &key);
		let deposit = crate::Pallet::<Test>::deposit_for(&key.public());
		assert_eq!(
			deposit,
			KeyDepositBase::get() + Keys::<Test>::get(&who).unwrap().encoded_size() as u128
		);
		assert_eq!(Balances::balance_on_hold(&crate::HoldReason::KeyDeposit.into(), &who), deposit);
		System::assert_last_event(
			Event::KeyRegistered { who: who.clone(), scheme: Scheme::MlDsa87, deposit }.into(),
		);

		assert_ok!(PqVerifier::remove_key(RuntimeOrigin::signed(who.clone())));
		assert_eq!(Balances::balance_on_hold(&crate::HoldReason::KeyDeposit.into(), &who), 0);
		assert_eq!(Balances::free_balance(&who), ENDOWMENT);
		assert!(!Keys::<Test>::contains_key(&who));
		System::assert_last_event(Event::KeyRemoved { who, deposit }.into());
	});
}

#[test]
fn registered_key_keeps_the_account_alive() {
	let alice = AccountId32::new([1; 32]);
	new_test_ext_with(core::slice::from_ref(&alice)).execute_with(|| {
		register(&alice, &keypair(Scheme::MlDsa44, 2));
		// One consumer reference from the deposit hold (pallet-balances), one from the registry,
		// whatever the currency: the account cannot be reaped while its key exists.
		assert_eq!(System::consumers(&alice), 2);
		assert!(System::dec_providers(&alice).is_err());
		assert_ok!(PqVerifier::remove_key(RuntimeOrigin::signed(alice.clone())));
		assert_eq!(System::consumers(&alice), 0);
	});
}

#[test]
fn unfunded_account_is_insufficient_balance() {
	new_test_ext().execute_with(|| {
		let key = keypair(Scheme::MlDsa44, 1);
		assert_noop!(
			PqVerifier::register_key(
				RuntimeOrigin::signed(key.account_id()),
				Box::new(key.public()),
				None,
				false
			),
			Error::<Test>::InsufficientBalance
		);
	});
}

#[test]
fn ed25519_key_is_unsupported_scheme() {
	let alice = AccountId32::new([1; 32]);
	new_test_ext_with(core::slice::from_ref(&alice)).execute_with(|| {
		let key = keypair(Scheme::Ed25519, 2);
		assert_noop!(
			PqVerifier::register_key(
				RuntimeOrigin::signed(alice),
				Box::new(key.public()),
				None,
				false
			),
			Error::<Test>::UnsupportedScheme
		);
	});
}

#[test]
fn second_key_is_already_registered() {
	let alice = AccountId32::new([1; 32]);
	new_test_ext_with(core::slice::from_ref(&alice)).execute_with(|| {
		register(&alice, &keypair(Scheme::MlDsa44, 2));
		let other = keypair(Scheme::MlDsa44, 3);
		let proof = possession_proof(&other, &alice);
		assert_noop!(
			PqVerifier::register_key(
				RuntimeOrigin::signed(alice),
				Box::new(other.public()),
				Some(Box::new(proof)),
				false
			),
			Error::<Test>::AlreadyRegistered
		);
	});
}

#[test]
fn removing_without_key_is_not_registered() {
	new_test_ext().execute_with(|| {
		assert_noop!(
			PqVerifier::remove_key(RuntimeOrigin::signed(AccountId32::new([1; 32]))),
			Error::<Test>::NotRegistered
		);
	});
}
