//! One test per outcome, in the mock runtime (`mock.rs`); `attacks` reproduces each attack of
//! `docs/security.md` as an attacker would try it.

use crate::{mock::*, Authorization, AuthorizePq, Error, Event, Keys, PqInvalidTransaction};
use codec::{Decode, DecodeAll, Encode};
use polkadot_sdk::{
	frame_support::{
		assert_noop, assert_ok,
		dispatch::GetDispatchInfo,
		pallet_prelude::{InvalidTransaction, TransactionSource, TransactionValidityError},
		traits::{
			fungible::{InspectHold, Mutate},
			OriginTrait,
		},
	},
	frame_system::{self, Call as SystemCall, CheckNonce},
	sp_runtime::{traits::DispatchTransaction, AccountId32},
};
use pq_crypto::{
	signing::Keypair,
	statement::{AuthorizationStatement, Authorizer},
	MultiSignature, Purpose, Scheme, SignatureWithKey,
};

const ML_DSA: [Scheme; 3] = [Scheme::MlDsa44, Scheme::MlDsa65, Scheme::MlDsa87];
const SCHEMES: [Scheme; 4] = [Scheme::Ed25519, Scheme::MlDsa44, Scheme::MlDsa65, Scheme::MlDsa87];

fn keypair(scheme: Scheme, seed: u8) -> Keypair {
	Keypair::from_seed(scheme, &[seed; 32]).unwrap()
}

fn remark(text: &[u8]) -> RuntimeCall {
	SystemCall::remark { remark: text.to_vec() }.into()
}

/// What `AuthorizePq` at the end of the pipeline (implication: version and call) verifies for
/// `call` from `authorizer`, on this chain.
fn statement<'a>(call: &RuntimeCall, authorizer: Authorizer<'a>) -> AuthorizationStatement<'a, polkadot_sdk::sp_core::H256> {
	AuthorizationStatement::new(crate::Pallet::<Test>::genesis_hash(), authorizer, &(0u8, call))
}

/// Validates as the pool does; `Ok` carries the signer the origin was authorized as.
fn validate(
	extension: AuthorizePq<Test>,
	origin: RuntimeOrigin,
	call: &RuntimeCall,
) -> Result<Option<AccountId32>, TransactionValidityError> {
	extension
		.validate_only(origin, call, &call.get_dispatch_info(), 0, TransactionSource::External, 0)
		.map(|(_, _, origin)| origin.as_signer().cloned())
}

/// Validates a general transaction (no origin yet) as the pool does.
fn validate_general(extension: AuthorizePq<Test>, call: &RuntimeCall) -> Result<Option<AccountId32>, TransactionValidityError> {
	validate(extension, RuntimeOrigin::none(), call)
}

fn fund(who: &AccountId32) {
	<Balances as Mutate<AccountId32>>::set_balance(who, ENDOWMENT);
}

/// `signer`'s signature of `call` for its derived account, key inline.
fn inline(signer: &Keypair, call: &RuntimeCall) -> AuthorizePq<Test> {
	let account = signer.account_id();
	let statement = statement(call, Authorizer::KeyInline(&account));
	inline_signed(signer, &account, &statement.message(), statement.purpose())
}

/// A key-inline authorization of `account` whose signature covers `message` for `purpose`.
fn inline_signed(signer: &Keypair, account: &AccountId32, message: &[u8], purpose: Purpose) -> AuthorizePq<Test> {
	let signed = SignatureWithKey::new(signer.public(), signer.sign_deterministic(message, purpose)).unwrap();
	AuthorizePq::new(Authorization::KeyInline { account: account.clone(), signed })
}

/// `signer`'s signature of `call` for `account`'s registered key.
fn registered(account: &AccountId32, signer: &Keypair, call: &RuntimeCall) -> AuthorizePq<Test> {
	let statement = statement(call, Authorizer::KeyRegistered(account));
	registered_signed(account, signer, &statement.message(), statement.purpose())
}

/// A registered-key authorization of `account` whose signature covers `message` for `purpose`.
fn registered_signed(account: &AccountId32, signer: &Keypair, message: &[u8], purpose: Purpose) -> AuthorizePq<Test> {
	let signature = signer.sign_deterministic(message, purpose);
	AuthorizePq::new(Authorization::KeyRegistered { account: account.clone(), signature })
}

/// `key`'s proof of possession for registering it for `who`.
fn possession_proof(key: &Keypair, who: &AccountId32) -> MultiSignature {
	key.sign_deterministic(&crate::Pallet::<Test>::possession_statement(who), Purpose::ProofOfPossession)
}

/// Registers `key` for `who` (with a proof when `who` is not its derived account).
fn register(who: &AccountId32, key: &Keypair) {
	let proof = (key.account_id() != *who).then(|| possession_proof(key, who));
	assert_ok!(PqVerifier::register_key(RuntimeOrigin::signed(who.clone()), key.public(), proof, false));
}

/// Migrates `who` to `key`, accepting only `key` from then on.
fn migrate_exclusively(who: &AccountId32, key: &Keypair) {
	assert_ok!(PqVerifier::register_key(RuntimeOrigin::signed(who.clone()), key.public(), Some(possession_proof(key, who)), true));
}

fn bad_proof() -> TransactionValidityError {
	InvalidTransaction::BadProof.into()
}

fn only_registered_key() -> TransactionValidityError {
	PqInvalidTransaction::OnlyRegisteredKey.into()
}

#[test]
fn every_scheme_verifies_with_key_inline() {
	let signers = SCHEMES.map(|scheme| keypair(scheme, 1));
	new_test_ext_with(&signers.each_ref().map(Keypair::account_id)).execute_with(|| {
		let call = remark(b"hello");
		for signer in &signers {
			assert_eq!(validate_general(inline(signer, &call), &call), Ok(Some(signer.account_id())), "{:?}", signer.scheme());
		}
	});
}

#[test]
fn every_ml_dsa_scheme_verifies_with_key_registered() {
	let alice = AccountId32::new([1; 32]);
	new_test_ext_with(&[alice.clone()]).execute_with(|| {
		let call = remark(b"hello");
		for scheme in ML_DSA {
			let key = keypair(scheme, 2);
			register(&alice, &key);
			assert_eq!(validate_general(registered(&alice, &key, &call), &call), Ok(Some(alice.clone())), "{scheme:?}");
			assert_ok!(PqVerifier::remove_key(RuntimeOrigin::signed(alice.clone())));
		}
	});
}

#[test]
fn wrong_key_is_bad_proof() {
	let alice = AccountId32::new([1; 32]);
	new_test_ext_with(&[alice.clone()]).execute_with(|| {
		let call = remark(b"hello");
		register(&alice, &keypair(Scheme::MlDsa65, 2));
		let impostor = keypair(Scheme::MlDsa65, 3);
		assert_eq!(validate_general(registered(&alice, &impostor, &call), &call), Err(bad_proof()));
	});
}

#[test]
fn wrong_account_is_bad_signer() {
	let elsewhere = AccountId32::new([9; 32]);
	new_test_ext_with(&[elsewhere.clone()]).execute_with(|| {
		let call = remark(b"hello");
		let signer = keypair(Scheme::MlDsa44, 1);
		let statement = statement(&call, Authorizer::KeyInline(&elsewhere));
		let extension = inline_signed(&signer, &elsewhere, &statement.message(), statement.purpose());
		assert_eq!(validate_general(extension, &call), Err(InvalidTransaction::BadSigner.into()));
	});
}

#[test]
fn tampered_payload_is_bad_proof() {
	let signer = keypair(Scheme::MlDsa87, 1);
	new_test_ext_with(&[signer.account_id()]).execute_with(|| {
		let extension = inline(&signer, &remark(b"pay 1"));
		assert_eq!(validate_general(extension, &remark(b"pay 1000")), Err(bad_proof()));
	});
}

#[test]
fn signature_for_another_purpose_is_bad_proof() {
	let signer = keypair(Scheme::MlDsa44, 1);
	let account = signer.account_id();
	new_test_ext_with(&[account.clone()]).execute_with(|| {
		let call = remark(b"hello");
		let message = statement(&call, Authorizer::KeyInline(&account)).message();
		for purpose in Purpose::ALL.into_iter().filter(|purpose| *purpose != Purpose::ExtensionKeyInline) {
			let extension = inline_signed(&signer, &account, &message, purpose);
			assert_eq!(validate_general(extension, &call), Err(bad_proof()), "{purpose:?}");
		}
	});
}

#[test]
fn truncated_signature_fails_to_decode() {
	let call = remark(b"hello");
	let encoded = new_test_ext().execute_with(|| inline(&keypair(Scheme::MlDsa44, 1), &call).encode());
	assert!(AuthorizePq::<Test>::decode(&mut &encoded[..encoded.len() - 1]).is_err());
}

#[test]
fn oversized_signature_fails_to_decode() {
	let call = remark(b"hello");
	let mut encoded = new_test_ext().execute_with(|| inline(&keypair(Scheme::MlDsa44, 1), &call).encode());
	encoded.push(0);
	assert!(AuthorizePq::<Test>::decode_all(&mut &encoded[..]).is_err());
}

#[test]
fn unregistered_account_is_no_registered_key() {
	let alice = AccountId32::new([1; 32]);
	new_test_ext_with(&[alice.clone()]).execute_with(|| {
		let call = remark(b"hello");
		let extension = registered(&alice, &keypair(Scheme::MlDsa44, 1), &call);
		assert_eq!(validate_general(extension, &call), Err(PqInvalidTransaction::NoRegisteredKey.into()));
	});
}

#[test]
fn scheme_mismatch_is_refused() {
	let alice = AccountId32::new([1; 32]);
	new_test_ext_with(&[alice.clone()]).execute_with(|| {
		let call = remark(b"hello");
		register(&alice, &keypair(Scheme::MlDsa44, 2));
		let extension = registered(&alice, &keypair(Scheme::MlDsa65, 2), &call);
		assert_eq!(validate_general(extension, &call), Err(PqInvalidTransaction::SchemeMismatch.into()));
	});
}

#[test]
fn already_authorized_origin_is_bad_signer() {
	let signer = keypair(Scheme::MlDsa44, 1);
	new_test_ext_with(&[signer.account_id()]).execute_with(|| {
		let call = remark(b"hello");
		let origin = RuntimeOrigin::signed(AccountId32::new([7; 32]));
		assert_eq!(validate(inline(&signer, &call), origin, &call), Err(InvalidTransaction::BadSigner.into()));
	});
}

#[test]
fn a_sender_that_cannot_pay_is_refused_before_verification() {
	let signer = keypair(Scheme::MlDsa87, 1);
	new_test_ext().execute_with(|| {
		let call = remark(b"hello");
		assert_eq!(validate_general(inline(&signer, &call), &call), Err(InvalidTransaction::Payment.into()));
	});
}

#[test]
fn deposit_is_held_and_released() {
	new_test_ext().execute_with(|| {
		let key = keypair(Scheme::MlDsa87, 1);
		let who = key.account_id();
		fund(&who);
		register(&who, &key);
		let deposit = crate::Pallet::<Test>::deposit_for(&key.public());
		assert_eq!(deposit, KeyDepositBase::get() + Keys::<Test>::get(&who).unwrap().encoded_size() as u128);
		assert_eq!(Balances::balance_on_hold(&crate::HoldReason::KeyDeposit.into(), &who), deposit);
		System::assert_last_event(Event::KeyRegistered { who: who.clone(), scheme: Scheme::MlDsa87, deposit }.into());

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
	new_test_ext_with(&[alice.clone()]).execute_with(|| {
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
			PqVerifier::register_key(RuntimeOrigin::signed(key.account_id()), key.public(), None, false),
			Error::<Test>::InsufficientBalance
		);
	});
}

#[test]
fn ed25519_key_is_unsupported_scheme() {
	let alice = AccountId32::new([1; 32]);
	new_test_ext_with(&[alice.clone()]).execute_with(|| {
		let key = keypair(Scheme::Ed25519, 2);
		assert_noop!(
			PqVerifier::register_key(RuntimeOrigin::signed(alice), key.public(), None, false),
			Error::<Test>::UnsupportedScheme
		);
	});
}

#[test]
fn second_key_is_already_registered() {
	let alice = AccountId32::new([1; 32]);
	new_test_ext_with(&[alice.clone()]).execute_with(|| {
		register(&alice, &keypair(Scheme::MlDsa44, 2));
		let other = keypair(Scheme::MlDsa44, 3);
		let proof = possession_proof(&other, &alice);
		assert_noop!(
			PqVerifier::register_key(RuntimeOrigin::signed(alice), other.public(), Some(proof), false),
			Error::<Test>::AlreadyRegistered
		);
	});
}

#[test]
fn removing_without_key_is_not_registered() {
	new_test_ext().execute_with(|| {
		assert_noop!(PqVerifier::remove_key(RuntimeOrigin::signed(AccountId32::new([1; 32]))), Error::<Test>::NotRegistered);
	});
}

#[test]
fn migration_with_valid_proof_succeeds() {
	let ed25519 = keypair(Scheme::Ed25519, 1);
	let who = ed25519.account_id();
	new_test_ext_with(&[who.clone()]).execute_with(|| {
		let key = keypair(Scheme::MlDsa65, 2);
		register(&who, &key);
		let registered = Keys::<Test>::get(&who).unwrap();
		assert!(registered.migrated);
		System::assert_last_event(
			Event::AccountMigrated { who, scheme: Scheme::MlDsa65, deposit: registered.deposit }.into(),
		);
	});
}

#[test]
fn migration_without_proof_is_proof_required() {
	let who = keypair(Scheme::Ed25519, 1).account_id();
	new_test_ext_with(&[who.clone()]).execute_with(|| {
		assert_noop!(
			PqVerifier::register_key(RuntimeOrigin::signed(who), keypair(Scheme::MlDsa65, 2).public(), None, false),
			Error::<Test>::ProofRequired
		);
	});
}

#[test]
fn proof_for_another_account_is_invalid_proof() {
	let who = keypair(Scheme::Ed25519, 1).account_id();
	new_test_ext_with(&[who.clone()]).execute_with(|| {
		let key = keypair(Scheme::MlDsa65, 2);
		let elsewhere = AccountId32::new([5; 32]);
		let proof = possession_proof(&key, &elsewhere);
		assert_noop!(
			PqVerifier::register_key(RuntimeOrigin::signed(who), key.public(), Some(proof), false),
			Error::<Test>::InvalidProof
		);
	});
}

#[test]
fn proof_for_another_purpose_is_invalid_proof() {
	let who = keypair(Scheme::Ed25519, 1).account_id();
	new_test_ext_with(&[who.clone()]).execute_with(|| {
		let key = keypair(Scheme::MlDsa65, 2);
		let proof = key.sign_deterministic(&crate::Pallet::<Test>::possession_statement(&who), Purpose::Transaction);
		assert_noop!(
			PqVerifier::register_key(RuntimeOrigin::signed(who), key.public(), Some(proof), false),
			Error::<Test>::InvalidProof
		);
	});
}

#[test]
fn only_the_registered_key_signs_after_opting_in() {
	let ed25519 = keypair(Scheme::Ed25519, 1);
	let who = ed25519.account_id();
	let key = keypair(Scheme::MlDsa87, 2);
	new_test_ext_with(&[who.clone()]).execute_with(|| {
		let call = remark(b"hello");
		register(&who, &key);
		// Before opting in, Ed25519 still works, inline and as an ordinary signed extrinsic.
		assert!(validate_general(inline(&ed25519, &call), &call).is_ok());
		assert!(validate(AuthorizePq::new(Authorization::None), RuntimeOrigin::signed(who.clone()), &call).is_ok());

		assert_ok!(PqVerifier::set_only_registered_key(RuntimeOrigin::signed(who.clone()), true));
		System::assert_last_event(Event::OnlyRegisteredKeySet { who: who.clone(), enabled: true }.into());
		assert_eq!(validate_general(inline(&ed25519, &call), &call), Err(only_registered_key()));
		let signed_extrinsic = AuthorizePq::new(Authorization::None);
		assert_eq!(validate(signed_extrinsic, RuntimeOrigin::signed(who.clone()), &call), Err(only_registered_key()));
		assert_eq!(validate_general(registered(&who, &key, &call), &call), Ok(Some(who.clone())));

		// Opting out again restores the other keys.
		assert_ok!(PqVerifier::set_only_registered_key(RuntimeOrigin::signed(who.clone()), false));
		assert!(validate_general(inline(&ed25519, &call), &call).is_ok());
	});
}

#[test]
fn a_migration_can_accept_only_the_new_key_at_once() {
	let ed25519 = keypair(Scheme::Ed25519, 1);
	let who = ed25519.account_id();
	new_test_ext_with(&[who.clone()]).execute_with(|| {
		let key = keypair(Scheme::MlDsa65, 2);
		migrate_exclusively(&who, &key);
		let deposit = Keys::<Test>::get(&who).unwrap().deposit;
		System::assert_has_event(Event::AccountMigrated { who: who.clone(), scheme: Scheme::MlDsa65, deposit }.into());
		System::assert_last_event(Event::OnlyRegisteredKeySet { who: who.clone(), enabled: true }.into());
		assert!(crate::Pallet::<Test>::only_registered_key(&who));
	});
}

#[test]
fn a_derived_account_cannot_accept_only_its_registered_key() {
	let key = keypair(Scheme::MlDsa44, 1);
	let who = key.account_id();
	new_test_ext_with(&[who.clone()]).execute_with(|| {
		assert_noop!(
			PqVerifier::register_key(RuntimeOrigin::signed(who.clone()), key.public(), None, true),
			Error::<Test>::NotMigrated
		);
		register(&who, &key);
		assert_noop!(PqVerifier::set_only_registered_key(RuntimeOrigin::signed(who), true), Error::<Test>::NotMigrated);
	});
}

#[test]
fn rotating_a_key_keeps_only_the_registered_key_and_adjusts_the_deposit() {
	let ed25519 = keypair(Scheme::Ed25519, 1);
	let who = ed25519.account_id();
	let (old, new) = (keypair(Scheme::MlDsa44, 2), keypair(Scheme::MlDsa87, 3));
	new_test_ext_with(&[who.clone()]).execute_with(|| {
		migrate_exclusively(&who, &old);
		assert_ok!(PqVerifier::rotate_key(RuntimeOrigin::signed(who.clone()), new.public(), Some(possession_proof(&new, &who))));
		let deposit = crate::Pallet::<Test>::deposit_for(&new.public());
		System::assert_last_event(Event::KeyRotated { who: who.clone(), scheme: Scheme::MlDsa87, deposit }.into());
		assert_eq!(Balances::balance_on_hold(&crate::HoldReason::KeyDeposit.into(), &who), deposit);
		assert!(crate::Pallet::<Test>::only_registered_key(&who));
		let call = remark(b"hello");
		assert_eq!(validate_general(registered(&who, &new, &call), &call), Ok(Some(who.clone())));
		assert_eq!(validate_general(registered(&who, &old, &call), &call), Err(PqInvalidTransaction::SchemeMismatch.into()));
		assert_eq!(validate_general(inline(&ed25519, &call), &call), Err(only_registered_key()));
	});
}

#[test]
fn rotating_to_the_derived_key_ends_only_registered_key() {
	let own = keypair(Scheme::MlDsa44, 1);
	let who = own.account_id();
	new_test_ext_with(&[who.clone()]).execute_with(|| {
		migrate_exclusively(&who, &keypair(Scheme::MlDsa65, 2));
		assert_ok!(PqVerifier::rotate_key(RuntimeOrigin::signed(who.clone()), own.public(), None));
		assert!(!crate::Pallet::<Test>::only_registered_key(&who));
		assert!(!Keys::<Test>::get(&who).unwrap().migrated);
		System::assert_has_event(Event::OnlyRegisteredKeySet { who, enabled: false }.into());
	});
}

#[test]
fn rotating_needs_a_registered_key_and_a_proof() {
	let who = keypair(Scheme::Ed25519, 1).account_id();
	new_test_ext_with(&[who.clone()]).execute_with(|| {
		let key = keypair(Scheme::MlDsa65, 2);
		let rotate = |proof| PqVerifier::rotate_key(RuntimeOrigin::signed(who.clone()), key.public(), proof);
		assert_noop!(rotate(Some(possession_proof(&key, &who))), Error::<Test>::NotRegistered);
		register(&who, &keypair(Scheme::MlDsa44, 3));
		assert_noop!(rotate(None), Error::<Test>::ProofRequired);
		assert_noop!(rotate(Some(possession_proof(&key, &AccountId32::new([5; 32])))), Error::<Test>::InvalidProof);
	});
}

#[test]
fn removing_the_key_accepts_the_other_keys_again() {
	let ed25519 = keypair(Scheme::Ed25519, 1);
	let who = ed25519.account_id();
	new_test_ext_with(&[who.clone()]).execute_with(|| {
		migrate_exclusively(&who, &keypair(Scheme::MlDsa65, 2));
		assert_ok!(PqVerifier::remove_key(RuntimeOrigin::signed(who.clone())));
		assert!(!crate::Pallet::<Test>::only_registered_key(&who));
		System::assert_has_event(Event::OnlyRegisteredKeySet { who: who.clone(), enabled: false }.into());
		let call = remark(b"hello");
		assert_eq!(validate_general(inline(&ed25519, &call), &call), Ok(Some(who)));
	});
}

/// With `CheckNonce` after `AuthorizePq`, the nonce is part of what is signed; a transaction
/// applied once is refused the second time.
#[test]
fn replay_is_refused() {
	let signer = keypair(Scheme::MlDsa44, 1);
	let who = signer.account_id();
	new_test_ext_with(&[who.clone()]).execute_with(|| {
		let call = remark(b"once");
		let nonce = CheckNonce::<Test>::from(0);
		let pipeline = pipeline(inline_with_nonce(&signer, &who, &call, &nonce), nonce);
		let info = call.get_dispatch_info();

		assert_ok!(pipeline.clone().dispatch_transaction(RuntimeOrigin::none(), call.clone(), &info, 0, 0).unwrap());
		assert_eq!(frame_system::Pallet::<Test>::account_nonce(&who), 1);
		assert_eq!(
			pipeline.dispatch_transaction(RuntimeOrigin::none(), call, &info, 0, 0).unwrap_err(),
			InvalidTransaction::Stale.into()
		);
	});
}

/// The test runtime's pipeline: `AuthorizePq`, then the nonce.
fn pipeline(authorization: Authorization, nonce: CheckNonce<Test>) -> TxExtension {
	(AuthorizePq::new(authorization), nonce)
}

/// What `AuthorizePq` signs when `CheckNonce` follows it: version, call and nonce.
fn statement_with_nonce<'a>(call: &RuntimeCall, nonce: &CheckNonce<Test>, authorizer: Authorizer<'a>) -> AuthorizationStatement<'a, polkadot_sdk::sp_core::H256> {
	AuthorizationStatement::new(crate::Pallet::<Test>::genesis_hash(), authorizer, &(0u8, call, nonce, ()))
}

/// `signer`'s key-inline authorization of `call` from `account` at `nonce`.
fn inline_with_nonce(signer: &Keypair, account: &AccountId32, call: &RuntimeCall, nonce: &CheckNonce<Test>) -> Authorization {
	let statement = statement_with_nonce(call, nonce, Authorizer::KeyInline(account));
	inline_signed(signer, account, &statement.message(), statement.purpose()).0
}

#[test]
fn aggregate_signature_in_the_registered_form_is_refused() {
	let alice = AccountId32::new([1; 32]);
	new_test_ext_with(&[alice.clone()]).execute_with(|| {
		let call = remark(b"hello");
		let MultiSignature::MlDsa87(signature) = keypair(Scheme::MlDsa87, 1).sign_deterministic(b"x", Purpose::Transaction) else {
			unreachable!()
		};
		let aggregate = MultiSignature::AggregateMlDsa87(pq_crypto::AggregateSignature {
			committee: pq_crypto::aggregate::CommitteeId([0; 32]),
			signers: pq_crypto::aggregate::SignerBitfield::new(1, [0]).unwrap(),
			signature,
		});
		let extension = AuthorizePq::new(Authorization::KeyRegistered { account: alice, signature: aggregate });
		assert_eq!(validate_general(extension, &call), Err(PqInvalidTransaction::AggregateUnsupported.into()));
	});
}

/// A repeat signer hits the decoded-key cache, with the same outcome as a cold verification.
#[test]
fn repeat_signer_gives_the_same_outcome_through_the_cache() {
	let signer = keypair(Scheme::MlDsa44, 11);
	new_test_ext_with(&[signer.account_id()]).execute_with(|| {
		for _ in 0..3 {
			let call = remark(b"again");
			assert_eq!(validate_general(inline(&signer, &call), &call), Ok(Some(signer.account_id())));
			assert_eq!(validate_general(inline(&signer, &call), &remark(b"tampered")), Err(bad_proof()));
		}
	});
}

#[test]
fn refusal_codes_name_their_reason() {
	for code in 1..=8u8 {
		let reason = PqInvalidTransaction::from_code(code).expect("codes 1 to 8 are assigned");
		assert_eq!(reason as u8, code);
	}
	assert_eq!(PqInvalidTransaction::from_code(0), None);
	assert_eq!(PqInvalidTransaction::from_code(9), None);
}

mod committees {
	use super::*;
	use crate::{committee::committee_account, CommitteeMember, CommitteeShares, Committees, HoldReason};
	use pq_crypto::aggregate::{aggregator::Committee, committee::PackedShare, SignerBitfield};
	use std::sync::OnceLock;

	/// A 16-member committee with threshold 3.
	fn committee() -> &'static Committee {
		static COMMITTEE: OnceLock<Committee> = OnceLock::new();
		COMMITTEE.get_or_init(|| Committee::from_seed(&[0x33; 32], 16, 3))
	}

	fn owner() -> AccountId32 {
		AccountId32::new([0x0e; 32])
	}

	/// Every member's share with its proof of possession for creation by `owner` on this chain.
	pub(super) fn members_for(committee: &Committee, owner: &AccountId32) -> Vec<CommitteeMember> {
		let genesis_hash = crate::Pallet::<Test>::genesis_hash();
		(0..committee.size())
			.map(|index| CommitteeMember {
				share: committee.share(index),
				proof: committee.membership_proof(index, genesis_hash, owner),
			})
			.collect()
	}

	fn members(committee: &Committee) -> Vec<CommitteeMember> {
		members_for(committee, &owner())
	}

	fn create(members: Vec<CommitteeMember>) -> polkadot_sdk::sp_runtime::DispatchResult {
		let committee = committee();
		PqVerifier::create_committee(RuntimeOrigin::signed(owner()), committee.rho(), committee.threshold(), members.try_into().unwrap())
	}

	/// `committee`'s signature of `call` by `signers`.
	pub(super) fn aggregate_of(committee: &Committee, signers: SignerBitfield, call: &RuntimeCall) -> pq_crypto::AggregateSignature {
		let id = committee.id();
		let statement = statement(call, Authorizer::Committee(&id, &signers));
		committee.sign(&signers, &statement.message(), statement.purpose()).unwrap()
	}

	fn aggregate(signers: SignerBitfield, call: &RuntimeCall) -> pq_crypto::AggregateSignature {
		aggregate_of(committee(), signers, call)
	}

	/// An aggregate-authorized transaction of `call` by `signers`.
	fn authorization(signers: SignerBitfield, call: &RuntimeCall) -> AuthorizePq<Test> {
		AuthorizePq::new(Authorization::Committee(aggregate(signers, call)))
	}

	/// The test committee, created by `owner()`, its account funded.
	fn with_committee(test: impl FnOnce()) {
		new_test_ext_with(&[owner(), committee_account(&committee().id())]).execute_with(|| {
			assert_ok!(create(members(committee())));
			test()
		});
	}

	#[test]
	fn creating_stores_shares_and_holds_the_deposit() {
		with_committee(|| {
			let id = committee().id();
			let info = Committees::<Test>::get(&id).unwrap();
			assert_eq!((info.size, info.threshold, info.owner.clone()), (16, 3, owner()));
			assert_eq!(CommitteeShares::<Test>::iter_prefix(&id).count(), 16);
			let deposit = crate::Pallet::<Test>::committee_deposit(16);
			assert_eq!(Balances::balance_on_hold(&HoldReason::CommitteeDeposit.into(), &owner()), deposit);
			System::assert_last_event(
				Event::CommitteeCreated { committee: id.clone(), account: committee_account(&id), owner: owner(), size: 16, threshold: 3, deposit }.into(),
			);
		});
	}

	#[test]
	fn a_committee_signed_transaction_is_from_the_committee_account() {
		with_committee(|| {
			let call = remark(b"committee");
			let signers = committee().signers([0, 4, 9]).unwrap();
			let account = committee_account(&committee().id());
			assert_eq!(validate_general(authorization(signers, &call), &call), Ok(Some(account)));
		});
	}

	/// More than half signed: the key is the stored sum minus the absent members.
	#[test]
	fn a_near_full_signer_set_verifies() {
		with_committee(|| {
			let call = remark(b"committee");
			let signers = committee().signers((0..16).filter(|i| *i != 7)).unwrap();
			assert!(validate_general(authorization(signers, &call), &call).is_ok());
		});
	}

	#[test]
	fn a_tampered_call_is_a_bad_proof() {
		with_committee(|| {
			let signers = committee().signers([0, 1, 2]).unwrap();
			let extension = authorization(signers, &remark(b"committee"));
			assert_eq!(validate_general(extension, &remark(b"tampered")), Err(bad_proof()));
		});
	}

	#[test]
	fn another_signer_set_than_signed_is_a_bad_proof() {
		with_committee(|| {
			let call = remark(b"committee");
			let mut aggregate = aggregate(committee().signers([0, 1, 2]).unwrap(), &call);
			aggregate.signers = committee().signers([0, 1, 2, 3]).unwrap();
			let extension = AuthorizePq::new(Authorization::Committee(aggregate));
			assert_eq!(validate_general(extension, &call), Err(bad_proof()));
		});
	}

	#[test]
	fn fewer_signers_than_the_threshold_are_refused() {
		with_committee(|| {
			let call = remark(b"committee");
			let extension = authorization(committee().signers([0, 1]).unwrap(), &call);
			assert_eq!(validate_general(extension, &call), Err(PqInvalidTransaction::BelowThreshold.into()));
		});
	}

	#[test]
	fn a_non_canonical_signer_bitfield_is_refused() {
		with_committee(|| {
			let call = remark(b"committee");
			let mut aggregate = aggregate(committee().signers([0, 1, 2]).unwrap(), &call);
			// The same signers with a trailing zero byte.
			aggregate.signers = SignerBitfield::new(24, [0, 1, 2]).unwrap();
			let extension = AuthorizePq::new(Authorization::Committee(aggregate));
			assert_eq!(validate_general(extension, &call), Err(PqInvalidTransaction::InvalidSigners.into()));
		});
	}

	#[test]
	fn an_unknown_committee_is_refused() {
		new_test_ext_with(&[committee_account(&committee().id())]).execute_with(|| {
			let call = remark(b"committee");
			let extension = authorization(committee().signers([0, 1, 2]).unwrap(), &call);
			assert_eq!(validate_general(extension, &call), Err(PqInvalidTransaction::UnknownCommittee.into()));
		});
	}

	#[test]
	fn the_weight_charges_the_shares_a_signer_set_can_read() {
		let call = remark(b"committee");
		let weight = |members: Vec<u32>| {
			new_test_ext().execute_with(|| authorization(committee().signers(members).unwrap(), &call).weight(&call))
		};
		use crate::WeightInfo;
		use polkadot_sdk::sp_runtime::traits::TransactionExtension;
		assert_eq!(weight(vec![0, 1, 2]), <() as WeightInfo>::authorize_committee(3));
		assert_eq!(weight((0..14).collect()), <() as WeightInfo>::authorize_committee(2));
	}

	#[test]
	fn a_share_without_a_valid_proof_is_refused() {
		new_test_ext_with(&[owner()]).execute_with(|| {
			let mut members = members(committee());
			members[5].proof = members[6].proof.clone();
			assert_noop!(create(members), Error::<Test>::InvalidMembershipProof);
		});
	}

	#[test]
	fn a_share_not_reduced_mod_q_is_refused() {
		new_test_ext_with(&[owner()]).execute_with(|| {
			let mut members = members(committee());
			members[0].share = PackedShare([0xff; PackedShare::LEN]);
			assert_noop!(create(members), Error::<Test>::InvalidShare);
		});
	}

	#[test]
	fn a_threshold_outside_one_to_size_is_refused() {
		new_test_ext_with(&[owner()]).execute_with(|| {
			let origin = || RuntimeOrigin::signed(owner());
			let members = || members(committee()).try_into().unwrap();
			assert_noop!(PqVerifier::create_committee(origin(), committee().rho(), 0, members()), Error::<Test>::InvalidThreshold);
			assert_noop!(PqVerifier::create_committee(origin(), committee().rho(), 17, members()), Error::<Test>::InvalidThreshold);
			assert_noop!(PqVerifier::create_committee(origin(), committee().rho(), 1, Default::default()), Error::<Test>::InvalidThreshold);
		});
	}

	#[test]
	fn the_same_committee_cannot_be_created_twice() {
		with_committee(|| {
			assert_noop!(create(members(committee())), Error::<Test>::CommitteeExists);
		});
	}

	#[test]
	fn a_committee_needs_its_deposit() {
		new_test_ext().execute_with(|| {
			assert_noop!(create(members(committee())), Error::<Test>::InsufficientBalance);
		});
	}

	#[test]
	fn dissolving_removes_everything_and_releases_the_deposit() {
		with_committee(|| {
			let id = committee().id();
			assert_ok!(PqVerifier::dissolve_committee(RuntimeOrigin::signed(owner()), id.clone()));
			assert!(!Committees::<Test>::contains_key(&id));
			assert_eq!(CommitteeShares::<Test>::iter_prefix(&id).count(), 0);
			assert_eq!(Balances::balance_on_hold(&HoldReason::CommitteeDeposit.into(), &owner()), 0);
			let call = remark(b"committee");
			let extension = authorization(committee().signers([0, 1, 2]).unwrap(), &call);
			assert_eq!(validate_general(extension, &call), Err(PqInvalidTransaction::UnknownCommittee.into()));
		});
	}

	#[test]
	fn only_the_owner_dissolves() {
		with_committee(|| {
			let stranger = RuntimeOrigin::signed(AccountId32::new([0x0f; 32]));
			assert_noop!(PqVerifier::dissolve_committee(stranger, committee().id()), Error::<Test>::NotCommitteeOwner);
		});
	}

	#[test]
	fn dissolving_an_unknown_committee_fails() {
		new_test_ext_with(&[owner()]).execute_with(|| {
			assert_noop!(
				PqVerifier::dissolve_committee(RuntimeOrigin::signed(owner()), committee().id()),
				Error::<Test>::UnknownCommittee
			);
		});
	}
}

/// Each attack of `docs/security.md`, as an attacker would try it, refused with its named
/// error.
mod attacks {
	use super::{committees::{aggregate_of, members_for}, *};
	use crate::{committee::committee_account, CommitteeShares, Committees};
	use polkadot_sdk::sp_runtime::traits::Dispatchable;
	use pq_crypto::aggregate::aggregator::Committee;

	/// A transaction of account D, signed by D's registered key K, presented for account E to
	/// which K is registered too (E migrated to K), once E's nonce equals D's: the statement
	/// names D, so the signature is void for E.
	#[test]
	fn cross_account_replay_of_a_registered_key_signature_is_bad_proof() {
		let key = keypair(Scheme::MlDsa65, 1);
		let derived = key.account_id();
		let migrated = keypair(Scheme::Ed25519, 2).account_id();
		new_test_ext_with(&[derived.clone(), migrated.clone()]).execute_with(|| {
			register(&derived, &key);
			register(&migrated, &key);
			let call = remark(b"transfer everything");
			let info = call.get_dispatch_info();
			let nonce = CheckNonce::<Test>::from(frame_system::Pallet::<Test>::account_nonce(&derived));
			assert_eq!(nonce, CheckNonce::from(frame_system::Pallet::<Test>::account_nonce(&migrated)));
			let statement = statement_with_nonce(&call, &nonce, Authorizer::KeyRegistered(&derived));
			let signature = key.sign_deterministic(&statement.message(), statement.purpose());

			let replayed = Authorization::KeyRegistered { account: migrated.clone(), signature: signature.clone() };
			let refused = pipeline(replayed, nonce.clone()).dispatch_transaction(RuntimeOrigin::none(), call.clone(), &info, 0, 0);
			assert_eq!(refused.unwrap_err(), bad_proof());

			let genuine = Authorization::KeyRegistered { account: derived.clone(), signature };
			assert_ok!(pipeline(genuine, nonce).dispatch_transaction(RuntimeOrigin::none(), call, &info, 0, 0).unwrap());
		});
	}

	/// Two committees from the same seed with different thresholds have the same `ρ` and
	/// shares, so one signer set has one `pk*` in both; a transaction of one is presented as
	/// the other's. The statement names the committee, so the signature is void for the other.
	#[test]
	fn cross_committee_replay_is_bad_proof() {
		let first = Committee::from_seed(&[0x44; 32], 4, 2);
		let second = Committee::from_seed(&[0x44; 32], 4, 3);
		let signers = first.signers([0, 1, 2]).unwrap();
		assert_eq!(first.aggregate_key(&signers), second.aggregate_key(&signers), "one pk* for both");
		let owner = AccountId32::new([0x0e; 32]);
		let accounts = [owner.clone(), committee_account(&first.id()), committee_account(&second.id())];
		new_test_ext_with(&accounts).execute_with(|| {
			for committee in [&first, &second] {
				let members = members_for(committee, &owner).try_into().unwrap();
				assert_ok!(PqVerifier::create_committee(RuntimeOrigin::signed(owner.clone()), committee.rho(), committee.threshold(), members));
			}
			let call = remark(b"committee transfer");
			let signed = aggregate_of(&first, signers.clone(), &call);
			let replayed = pq_crypto::AggregateSignature { committee: second.id(), ..signed.clone() };
			assert_eq!(validate_general(AuthorizePq::new(Authorization::Committee(replayed)), &call), Err(bad_proof()));
			let genuine = validate_general(AuthorizePq::new(Authorization::Committee(signed)), &call);
			assert_eq!(genuine, Ok(Some(committee_account(&first.id()))));
		});
	}

	/// An observer copies a pending `create_committee` and submits it first with a higher tip,
	/// to own the committee and dissolve it once funds arrive. The members' proofs name the
	/// creator they chose, so the copy fails, and the genuine creation still goes through.
	#[test]
	fn front_running_a_committee_creation_is_invalid_membership_proof() {
		let committee = Committee::from_seed(&[0x45; 32], 3, 2);
		let (creator, observer) = (AccountId32::new([0x0e; 32]), AccountId32::new([0x0f; 32]));
		new_test_ext_with(&[creator.clone(), observer.clone()]).execute_with(|| {
			let members = || members_for(&committee, &creator).try_into().unwrap();
			let copied = PqVerifier::create_committee(RuntimeOrigin::signed(observer.clone()), committee.rho(), 2, members());
			assert_noop!(copied, Error::<Test>::InvalidMembershipProof);
			assert_ok!(PqVerifier::create_committee(RuntimeOrigin::signed(creator.clone()), committee.rho(), 2, members()));
			assert_eq!(Committees::<Test>::get(committee.id()).unwrap().owner, creator);
			assert_noop!(
				PqVerifier::dissolve_committee(RuntimeOrigin::signed(observer), committee.id()),
				Error::<Test>::NotCommitteeOwner
			);
		});
	}

	/// The members' proofs of a committee created on another chain, submitted here by the same
	/// creator: they name the other chain's genesis hash.
	#[test]
	fn committee_proofs_from_another_chain_are_invalid_membership_proof() {
		let committee = Committee::from_seed(&[0x46; 32], 2, 1);
		let creator = AccountId32::new([0x0e; 32]);
		new_test_ext_with(&[creator.clone()]).execute_with(|| {
			let other_chain = polkadot_sdk::sp_core::H256([0x77; 32]);
			let members: Vec<_> = (0..2)
				.map(|index| crate::CommitteeMember {
					share: committee.share(index),
					proof: committee.membership_proof(index, other_chain, &creator),
				})
				.collect();
			let replayed = PqVerifier::create_committee(RuntimeOrigin::signed(creator), committee.rho(), 1, members.try_into().unwrap());
			assert_noop!(replayed, Error::<Test>::InvalidMembershipProof);
		});
	}

	/// An account derived from ML-DSA key K1 migrates to K2 and accepts only K2; whoever still
	/// holds K1 tries to spend with it, key inline and as an ordinary signed extrinsic.
	#[test]
	fn the_old_ml_dsa_key_of_a_migrated_account_is_refused() {
		let (old, new) = (keypair(Scheme::MlDsa44, 1), keypair(Scheme::MlDsa87, 2));
		let who = old.account_id();
		new_test_ext_with(&[who.clone()]).execute_with(|| {
			migrate_exclusively(&who, &new);
			let call = remark(b"drain");
			assert_eq!(validate_general(inline(&old, &call), &call), Err(only_registered_key()));
			// An ordinary signed extrinsic by K1 reaches the extension as a signed origin.
			assert_eq!(validate(AuthorizePq::new(Authorization::None), RuntimeOrigin::signed(who.clone()), &call), Err(only_registered_key()));
			assert_eq!(validate_general(registered(&who, &new, &call), &call), Ok(Some(who)));
		});
	}

	/// Right after a migration that accepts only the new key, the old Ed25519 key tries to
	/// remove the new key (to register its own): refused, in either form.
	#[test]
	fn the_old_ed25519_key_cannot_undo_a_migration() {
		let ed25519 = keypair(Scheme::Ed25519, 1);
		let who = ed25519.account_id();
		new_test_ext_with(&[who.clone()]).execute_with(|| {
			migrate_exclusively(&who, &keypair(Scheme::MlDsa65, 2));
			let remove: RuntimeCall = crate::Call::remove_key {}.into();
			assert_eq!(validate(AuthorizePq::new(Authorization::None), RuntimeOrigin::signed(who.clone()), &remove), Err(only_registered_key()));
			assert_eq!(validate_general(inline(&ed25519, &remove), &remove), Err(only_registered_key()));
		});
	}

	/// Changing the registered key of an account that accepts only it, in two steps
	/// (`remove_key`, then `register_key`), would let the old key act in between; `rotate_key`
	/// changes it in one call and the old key never gets a transaction in.
	#[test]
	fn a_key_rotation_leaves_the_old_key_no_window() {
		let ed25519 = keypair(Scheme::Ed25519, 1);
		let who = ed25519.account_id();
		let (first, second) = (keypair(Scheme::MlDsa65, 2), keypair(Scheme::MlDsa87, 3));
		new_test_ext_with(&[who.clone()]).execute_with(|| {
			migrate_exclusively(&who, &first);
			let rotate: RuntimeCall =
				crate::Call::rotate_key { key: second.public(), proof: Some(possession_proof(&second, &who)) }.into();
			assert_eq!(validate_general(registered(&who, &first, &rotate), &rotate), Ok(Some(who.clone())));
			assert_ok!(rotate.dispatch(RuntimeOrigin::signed(who.clone())));
			let drain = remark(b"drain");
			assert_eq!(validate_general(inline(&ed25519, &drain), &drain), Err(only_registered_key()));
			assert_eq!(validate(AuthorizePq::new(Authorization::None), RuntimeOrigin::signed(who.clone()), &drain), Err(only_registered_key()));
		});
	}

	/// A committee's account registers a single key and accepts only it (for instance, a
	/// committee handing its funds to one member's key); valid committee signatures by
	/// the old members are refused from then on, as any other key is.
	#[test]
	fn a_committee_account_that_migrated_refuses_the_committee() {
		let committee = Committee::from_seed(&[0x49; 32], 3, 2);
		let owner = AccountId32::new([0x0e; 32]);
		let account = committee_account(&committee.id());
		let key = keypair(Scheme::MlDsa87, 4);
		new_test_ext_with(&[owner.clone(), account.clone()]).execute_with(|| {
			let members = members_for(&committee, &owner).try_into().unwrap();
			assert_ok!(PqVerifier::create_committee(RuntimeOrigin::signed(owner), committee.rho(), 2, members));
			migrate_exclusively(&account, &key);
			let call = remark(b"committee transfer");
			let signed = aggregate_of(&committee, committee.signers([0, 1]).unwrap(), &call);
			assert_eq!(validate_general(AuthorizePq::new(Authorization::Committee(signed)), &call), Err(only_registered_key()));
			assert_eq!(validate_general(registered(&account, &key, &call), &call), Ok(Some(account)));
		});
	}

	/// Garbage signatures naming a large committee with many signers (new bytes each time, to
	/// dodge the pool's ban list) make a node read shares and verify, unpaid. Unless the
	/// committee's account can pay, nothing is read: here its shares are even gone from
	/// storage, and the refusal is `Payment`, not the `UnknownCommittee` a share read gives.
	#[test]
	fn garbage_from_a_committee_that_cannot_pay_reads_no_share() {
		let committee = Committee::from_seed(&[0x47; 32], 16, 1);
		let owner = AccountId32::new([0x0e; 32]);
		new_test_ext_with(&[owner.clone()]).execute_with(|| {
			let members = members_for(&committee, &owner).try_into().unwrap();
			assert_ok!(PqVerifier::create_committee(RuntimeOrigin::signed(owner), committee.rho(), 1, members));
			let _ = CommitteeShares::<Test>::clear_prefix(committee.id(), u32::MAX, None);
			let call = remark(b"garbage");
			let MultiSignature::MlDsa87(garbage) = keypair(Scheme::MlDsa87, 9).sign_deterministic(b"x", Purpose::Transaction) else {
				unreachable!()
			};
			let signers = committee.signers(0..8).unwrap();
			let aggregate = pq_crypto::AggregateSignature { committee: committee.id(), signers, signature: garbage };
			let extension = AuthorizePq::new(Authorization::Committee(aggregate));
			assert_eq!(validate_general(extension.clone(), &call), Err(InvalidTransaction::Payment.into()));
			// Once the account can pay, the same transaction reads shares (and finds none).
			fund(&committee_account(&committee.id()));
			assert_eq!(validate_general(extension, &call), Err(PqInvalidTransaction::UnknownCommittee.into()));
		});
	}

	/// A garbage signature under a fresh key (whose account holds nothing) costs the node a
	/// balance read, not an ML-DSA decode and verification.
	#[test]
	fn garbage_from_an_account_that_cannot_pay_is_not_verified() {
		new_test_ext().execute_with(|| {
			let call = remark(b"garbage");
			for scheme in SCHEMES {
				let signer = keypair(scheme, 3);
				let garbage = inline_signed(&signer, &signer.account_id(), b"not the statement", Purpose::ExtensionKeyInline);
				assert_eq!(validate_general(garbage, &call), Err(InvalidTransaction::Payment.into()), "{scheme:?}");
			}
		});
	}

	/// A signature made for another chain running this runtime (another genesis hash) is void
	/// here, whether or not the runtime checks the genesis hash elsewhere (this one does not).
	#[test]
	fn a_signature_from_another_chain_is_bad_proof() {
		let signer = keypair(Scheme::MlDsa44, 1);
		let account = signer.account_id();
		new_test_ext_with(&[account.clone()]).execute_with(|| {
			let call = remark(b"hello");
			let other_chain = polkadot_sdk::sp_core::H256([0x77; 32]);
			let statement = AuthorizationStatement::new(other_chain, Authorizer::KeyInline(&account), &(0u8, &call));
			let extension = inline_signed(&signer, &account, &statement.message(), statement.purpose());
			assert_eq!(validate_general(extension, &call), Err(bad_proof()));
		});
	}

	/// A member holding two seats with the same share: the signer sets {0} and {1} have the
	/// same `pk*`. A transaction signed by seat 0 is re-labelled as seat 1's; the statement
	/// names the exact signer set, so it is void.
	#[test]
	fn a_re_labelled_signer_set_is_bad_proof() {
		let committee = Committee::generate([0x48; 32], &[[1; 32], [1; 32], [2; 32]], 1);
		let (zero, one) = (committee.signers([0]).unwrap(), committee.signers([1]).unwrap());
		assert_eq!(committee.aggregate_key(&zero), committee.aggregate_key(&one), "one pk* for both seats");
		let owner = AccountId32::new([0x0e; 32]);
		new_test_ext_with(&[owner.clone(), committee_account(&committee.id())]).execute_with(|| {
			let members = members_for(&committee, &owner).try_into().unwrap();
			assert_ok!(PqVerifier::create_committee(RuntimeOrigin::signed(owner), committee.rho(), 1, members));
			let call = remark(b"committee transfer");
			let signed = aggregate_of(&committee, zero, &call);
			let re_labelled = pq_crypto::AggregateSignature { signers: one, ..signed.clone() };
			assert_eq!(validate_general(AuthorizePq::new(Authorization::Committee(re_labelled)), &call), Err(bad_proof()));
			assert!(validate_general(AuthorizePq::new(Authorization::Committee(signed)), &call).is_ok());
		});
	}

	/// A block author re-encodes a key-inline transaction in the registered form (smaller, so
	/// cheaper), or the other way round: the form is part of what is signed.
	#[test]
	fn re_encoding_the_form_is_bad_proof() {
		let signer = keypair(Scheme::MlDsa65, 1);
		let who = signer.account_id();
		new_test_ext_with(&[who.clone()]).execute_with(|| {
			let call = remark(b"hello");
			register(&who, &signer);
			let Authorization::KeyInline { signed, .. } = inline(&signer, &call).0 else { unreachable!() };
			let (_, signature) = signed.into_parts(&who);
			let re_encoded = AuthorizePq::new(Authorization::KeyRegistered { account: who.clone(), signature });
			assert_eq!(validate_general(re_encoded, &call), Err(bad_proof()));

			let Authorization::KeyRegistered { signature, .. } = registered(&who, &signer, &call).0 else { unreachable!() };
			let signed = SignatureWithKey::new(signer.public(), signature).unwrap();
			let re_encoded = AuthorizePq::new(Authorization::KeyInline { account: who, signed });
			assert_eq!(validate_general(re_encoded, &call), Err(bad_proof()));
		});
	}

	/// A relay changes an unused byte of an ML-DSA signature's hint encoding (FIPS 204
	/// `HintBitUnpack` requires zeros after the last index) to get a second, valid-looking
	/// encoding of the same transaction under another hash.
	#[test]
	fn a_re_encoded_ml_dsa_signature_is_bad_proof() {
		let signer = keypair(Scheme::MlDsa44, 1);
		new_test_ext_with(&[signer.account_id()]).execute_with(|| {
			let call = remark(b"hello");
			let Authorization::KeyInline { account, signed: SignatureWithKey::MlDsa44(key, mut signature) } = inline(&signer, &call).0 else {
				unreachable!()
			};
			// ML-DSA-44: ω = 80 index bytes, then k = 4 cumulative counts.
			let (omega, k) = (80, 4);
			let hints = signature.0[signature.0.len() - 1] as usize;
			assert!(hints < omega, "an unused index byte exists");
			signature.0[signature.0.len() - k - 1] = 1;
			let re_encoded = AuthorizePq::new(Authorization::KeyInline { account, signed: SignatureWithKey::MlDsa44(key, signature) });
			assert_eq!(validate_general(re_encoded, &call), Err(bad_proof()));
		});
	}

	/// A relay adds the group order ℓ to an Ed25519 signature's `S`: the same equation holds,
	/// but the project's rule (`S < ℓ`) refuses it, so no second encoding exists.
	#[test]
	fn a_re_encoded_ed25519_signature_is_bad_proof() {
		const ORDER: [u8; 32] = [
			0xed, 0xd3, 0xf5, 0x5c, 0x1a, 0x63, 0x12, 0x58, 0xd6, 0x9c, 0xf7, 0xa2, 0xde, 0xf9, 0xde, 0x14, 0, 0, 0, 0, 0, 0, 0,
			0, 0, 0, 0, 0, 0, 0, 0, 0x10,
		];
		let signer = keypair(Scheme::Ed25519, 1);
		new_test_ext_with(&[signer.account_id()]).execute_with(|| {
			let call = remark(b"hello");
			let Authorization::KeyInline { account, signed: SignatureWithKey::Ed25519(mut signature) } = inline(&signer, &call).0 else {
				unreachable!()
			};
			let mut carry = 0u16;
			for (s, l) in signature.0[32..].iter_mut().zip(ORDER) {
				let sum = *s as u16 + l as u16 + carry;
				*s = sum as u8;
				carry = sum >> 8;
			}
			assert_eq!(carry, 0, "S + ℓ fits in 32 bytes");
			let re_encoded = AuthorizePq::new(Authorization::KeyInline { account, signed: SignatureWithKey::Ed25519(signature) });
			assert_eq!(validate_general(re_encoded, &call), Err(bad_proof()));
		});
	}

	/// An observer copies a pending migration's proof of possession into a `register_key` of
	/// their own account, to control the key's account — or replays it on another chain.
	#[test]
	fn a_copied_or_replayed_proof_of_possession_is_invalid_proof() {
		let key = keypair(Scheme::MlDsa65, 2);
		let (who, observer) = (keypair(Scheme::Ed25519, 1).account_id(), AccountId32::new([0x0f; 32]));
		new_test_ext_with(&[who.clone(), observer.clone()]).execute_with(|| {
			let copied = PqVerifier::register_key(RuntimeOrigin::signed(observer), key.public(), Some(possession_proof(&key, &who)), false);
			assert_noop!(copied, Error::<Test>::InvalidProof);
			let other_chain = pq_crypto::statement::PossessionStatement { genesis_hash: polkadot_sdk::sp_core::H256([0x77; 32]), account: &who };
			let replayed = key.sign_deterministic(&other_chain.encode(), Purpose::ProofOfPossession);
			let registering = PqVerifier::register_key(RuntimeOrigin::signed(who), key.public(), Some(replayed), false);
			assert_noop!(registering, Error::<Test>::InvalidProof);
		});
	}
}
