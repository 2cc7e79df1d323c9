//! One test per outcome, in the mock runtime (`mock.rs`).

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
	sp_io::hashing::blake2_256,
	sp_runtime::{traits::DispatchTransaction, AccountId32},
};
use pq_crypto::{signing::Keypair, MultiSignature, Purpose, Scheme, SignatureWithKey};

const ML_DSA: [Scheme; 3] = [Scheme::MlDsa44, Scheme::MlDsa65, Scheme::MlDsa87];

fn keypair(scheme: Scheme, seed: u8) -> Keypair {
	Keypair::from_seed(scheme, &[seed; 32]).unwrap()
}

fn remark(text: &[u8]) -> RuntimeCall {
	SystemCall::remark { remark: text.to_vec() }.into()
}

/// What `AuthorizePq` at the end of the pipeline signs for `call`: blake2 of version and call.
fn message(call: &RuntimeCall) -> [u8; 32] {
	(0u8, call).using_encoded(blake2_256)
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

fn fund(who: &AccountId32) {
	<Balances as Mutate<AccountId32>>::set_balance(who, ENDOWMENT);
}

fn inline(signer: &Keypair, call: &RuntimeCall, purpose: Purpose) -> AuthorizePq<Test> {
	let signed = SignatureWithKey::new(signer.public(), signer.sign_deterministic(&message(call), purpose)).unwrap();
	AuthorizePq::new(Authorization::KeyInline { account: signer.account_id(), signed })
}

fn registered(account: &AccountId32, signer: &Keypair, call: &RuntimeCall, purpose: Purpose) -> AuthorizePq<Test> {
	let signature = signer.sign_deterministic(&message(call), purpose);
	AuthorizePq::new(Authorization::KeyRegistered { account: account.clone(), signature })
}

/// Registers `key` for `who` (with a proof when `who` is not its derived account).
fn register(who: &AccountId32, key: &Keypair) {
	let proof = (key.account_id() != *who)
		.then(|| key.sign_deterministic(&crate::Pallet::<Test>::possession_statement(who), Purpose::ProofOfPossession));
	assert_ok!(PqVerifier::register_key(RuntimeOrigin::signed(who.clone()), key.public(), proof));
}

fn bad_proof() -> TransactionValidityError {
	InvalidTransaction::BadProof.into()
}

#[test]
fn every_scheme_verifies_with_key_inline() {
	new_test_ext().execute_with(|| {
		let call = remark(b"hello");
		for scheme in [Scheme::Ed25519, Scheme::MlDsa44, Scheme::MlDsa65, Scheme::MlDsa87] {
			let signer = keypair(scheme, 1);
			let signer_account = validate(inline(&signer, &call, Purpose::ExtensionKeyInline), RuntimeOrigin::none(), &call);
			assert_eq!(signer_account, Ok(Some(signer.account_id())), "{scheme:?}");
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
			let extension = registered(&alice, &key, &call, Purpose::ExtensionKeyRegistered);
			assert_eq!(validate(extension, RuntimeOrigin::none(), &call), Ok(Some(alice.clone())), "{scheme:?}");
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
		let extension = registered(&alice, &impostor, &call, Purpose::ExtensionKeyRegistered);
		assert_eq!(validate(extension, RuntimeOrigin::none(), &call), Err(bad_proof()));
	});
}

#[test]
fn wrong_account_is_bad_signer() {
	new_test_ext().execute_with(|| {
		let call = remark(b"hello");
		let signer = keypair(Scheme::MlDsa44, 1);
		let Authorization::KeyInline { signed, .. } = inline(&signer, &call, Purpose::ExtensionKeyInline).0 else {
			unreachable!()
		};
		let extension = AuthorizePq::new(Authorization::KeyInline { account: AccountId32::new([9; 32]), signed });
		assert_eq!(validate(extension, RuntimeOrigin::none(), &call), Err(InvalidTransaction::BadSigner.into()));
	});
}

#[test]
fn tampered_payload_is_bad_proof() {
	new_test_ext().execute_with(|| {
		let signer = keypair(Scheme::MlDsa87, 1);
		let extension = inline(&signer, &remark(b"pay 1"), Purpose::ExtensionKeyInline);
		assert_eq!(validate(extension, RuntimeOrigin::none(), &remark(b"pay 1000")), Err(bad_proof()));
	});
}

#[test]
fn signature_for_another_purpose_is_bad_proof() {
	new_test_ext().execute_with(|| {
		let call = remark(b"hello");
		let signer = keypair(Scheme::MlDsa44, 1);
		for purpose in [Purpose::Transaction, Purpose::ExtensionKeyRegistered, Purpose::ProofOfPossession, Purpose::CommitteeShare] {
			let extension = inline(&signer, &call, purpose);
			assert_eq!(validate(extension, RuntimeOrigin::none(), &call), Err(bad_proof()), "{purpose:?}");
		}
	});
}

/// A block author re-encoding an inline-key transaction into the registered form (to make it
/// smaller and cheaper) produces a transaction whose signature does not verify.
#[test]
fn re_encoded_form_is_bad_proof() {
	new_test_ext_with(&[]).execute_with(|| {
		let call = remark(b"hello");
		let signer = keypair(Scheme::MlDsa65, 1);
		let who = signer.account_id();
		fund(&who);
		register(&who, &signer);
		let Authorization::KeyInline { signed, .. } = inline(&signer, &call, Purpose::ExtensionKeyInline).0 else {
			unreachable!()
		};
		let (_, signature) = signed.into_parts(&who);
		let re_encoded = AuthorizePq::new(Authorization::KeyRegistered { account: who.clone(), signature });
		assert_eq!(validate(re_encoded, RuntimeOrigin::none(), &call), Err(bad_proof()));

		// And the other way round.
		let registered_form = registered(&who, &signer, &call, Purpose::ExtensionKeyRegistered);
		let Authorization::KeyRegistered { signature, .. } = registered_form.0 else { unreachable!() };
		let signed = SignatureWithKey::new(signer.public(), signature).unwrap();
		let re_encoded = AuthorizePq::new(Authorization::KeyInline { account: who, signed });
		assert_eq!(validate(re_encoded, RuntimeOrigin::none(), &call), Err(bad_proof()));
	});
}

#[test]
fn truncated_signature_fails_to_decode() {
	let call = remark(b"hello");
	let encoded = inline(&keypair(Scheme::MlDsa44, 1), &call, Purpose::ExtensionKeyInline).encode();
	assert!(AuthorizePq::<Test>::decode(&mut &encoded[..encoded.len() - 1]).is_err());
}

#[test]
fn oversized_signature_fails_to_decode() {
	let call = remark(b"hello");
	let mut encoded = inline(&keypair(Scheme::MlDsa44, 1), &call, Purpose::ExtensionKeyInline).encode();
	encoded.push(0);
	assert!(AuthorizePq::<Test>::decode_all(&mut &encoded[..]).is_err());
}

#[test]
fn unregistered_account_is_no_registered_key() {
	new_test_ext().execute_with(|| {
		let call = remark(b"hello");
		let key = keypair(Scheme::MlDsa44, 1);
		let extension = registered(&AccountId32::new([1; 32]), &key, &call, Purpose::ExtensionKeyRegistered);
		assert_eq!(validate(extension, RuntimeOrigin::none(), &call), Err(PqInvalidTransaction::NoRegisteredKey.into()));
	});
}

#[test]
fn scheme_mismatch_is_refused() {
	let alice = AccountId32::new([1; 32]);
	new_test_ext_with(&[alice.clone()]).execute_with(|| {
		let call = remark(b"hello");
		register(&alice, &keypair(Scheme::MlDsa44, 2));
		let extension = registered(&alice, &keypair(Scheme::MlDsa65, 2), &call, Purpose::ExtensionKeyRegistered);
		assert_eq!(validate(extension, RuntimeOrigin::none(), &call), Err(PqInvalidTransaction::SchemeMismatch.into()));
	});
}

#[test]
fn already_authorized_origin_is_bad_signer() {
	new_test_ext().execute_with(|| {
		let call = remark(b"hello");
		let extension = inline(&keypair(Scheme::MlDsa44, 1), &call, Purpose::ExtensionKeyInline);
		let origin = RuntimeOrigin::signed(AccountId32::new([7; 32]));
		assert_eq!(validate(extension, origin, &call), Err(InvalidTransaction::BadSigner.into()));
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
			PqVerifier::register_key(RuntimeOrigin::signed(key.account_id()), key.public(), None),
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
			PqVerifier::register_key(RuntimeOrigin::signed(alice), key.public(), None),
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
		let proof = other.sign_deterministic(&crate::Pallet::<Test>::possession_statement(&alice), Purpose::ProofOfPossession);
		assert_noop!(
			PqVerifier::register_key(RuntimeOrigin::signed(alice), other.public(), Some(proof)),
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
			PqVerifier::register_key(RuntimeOrigin::signed(who), keypair(Scheme::MlDsa65, 2).public(), None),
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
		let proof = key.sign_deterministic(&crate::Pallet::<Test>::possession_statement(&elsewhere), Purpose::ProofOfPossession);
		assert_noop!(
			PqVerifier::register_key(RuntimeOrigin::signed(who), key.public(), Some(proof)),
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
			PqVerifier::register_key(RuntimeOrigin::signed(who), key.public(), Some(proof)),
			Error::<Test>::InvalidProof
		);
	});
}

#[test]
fn classical_signatures_are_refused_after_opt_in() {
	let ed25519 = keypair(Scheme::Ed25519, 1);
	let who = ed25519.account_id();
	new_test_ext_with(&[who.clone()]).execute_with(|| {
		let call = remark(b"hello");
		register(&who, &keypair(Scheme::MlDsa87, 2));
		// Before opting in, Ed25519 still works, inline and as an ordinary signed extrinsic.
		assert!(validate(inline(&ed25519, &call, Purpose::ExtensionKeyInline), RuntimeOrigin::none(), &call).is_ok());
		assert!(validate(AuthorizePq::new(Authorization::None), RuntimeOrigin::signed(who.clone()), &call).is_ok());

		assert_ok!(PqVerifier::set_refuse_classical(RuntimeOrigin::signed(who.clone()), true));
		System::assert_last_event(Event::ClassicalSignaturesRefused { who: who.clone(), refused: true }.into());
		let refused = Err(PqInvalidTransaction::ClassicalRefused.into());
		assert_eq!(validate(inline(&ed25519, &call, Purpose::ExtensionKeyInline), RuntimeOrigin::none(), &call), refused);
		assert_eq!(validate(AuthorizePq::new(Authorization::None), RuntimeOrigin::signed(who.clone()), &call), refused);
		// The registered ML-DSA key still authorizes.
		let extension = registered(&who, &keypair(Scheme::MlDsa87, 2), &call, Purpose::ExtensionKeyRegistered);
		assert!(validate(extension, RuntimeOrigin::none(), &call).is_ok());
	});
}

#[test]
fn derived_account_cannot_refuse_classical() {
	new_test_ext().execute_with(|| {
		let key = keypair(Scheme::MlDsa44, 1);
		let who = key.account_id();
		fund(&who);
		register(&who, &key);
		assert_noop!(PqVerifier::set_refuse_classical(RuntimeOrigin::signed(who), true), Error::<Test>::NotMigrated);
	});
}

/// With `CheckNonce` after `AuthorizePq`, the nonce is part of what is signed; a transaction
/// applied once is refused the second time.
#[test]
fn replay_is_refused() {
	new_test_ext().execute_with(|| {
		let signer = keypair(Scheme::MlDsa44, 1);
		let who = signer.account_id();
		fund(&who);
		let call = remark(b"once");
		let nonce = CheckNonce::<Test>::from(0);
		let payload = (0u8, &call, &nonce).using_encoded(blake2_256);
		let signed = SignatureWithKey::new(signer.public(), signer.sign_deterministic(&payload, Purpose::ExtensionKeyInline)).unwrap();
		let pipeline: TxExtension = (AuthorizePq::new(Authorization::KeyInline { account: who.clone(), signed }), nonce);
		let info = call.get_dispatch_info();

		assert_ok!(pipeline.clone().dispatch_transaction(RuntimeOrigin::none(), call.clone(), &info, 0, 0).unwrap());
		assert_eq!(frame_system::Pallet::<Test>::account_nonce(&who), 1);
		assert_eq!(
			pipeline.dispatch_transaction(RuntimeOrigin::none(), call, &info, 0, 0).unwrap_err(),
			InvalidTransaction::Stale.into()
		);
	});
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
		assert_eq!(validate(extension, RuntimeOrigin::none(), &call), Err(PqInvalidTransaction::AggregateUnsupported.into()));
	});
}

/// A repeat signer hits the decoded-key cache, with the same outcome as a cold verification.
#[test]
fn repeat_signer_gives_the_same_outcome_through_the_cache() {
	new_test_ext().execute_with(|| {
		let signer = keypair(Scheme::MlDsa44, 11);
		for _ in 0..3 {
			let call = remark(b"again");
			assert_eq!(validate(inline(&signer, &call, Purpose::ExtensionKeyInline), RuntimeOrigin::none(), &call), Ok(Some(signer.account_id())));
			let tampered = remark(b"tampered");
			assert_eq!(validate(inline(&signer, &call, Purpose::ExtensionKeyInline), RuntimeOrigin::none(), &tampered), Err(bad_proof()));
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

	fn members(committee: &Committee) -> Vec<CommitteeMember> {
		(0..committee.size())
			.map(|index| CommitteeMember { share: committee.share(index), proof: committee.membership_proof(index) })
			.collect()
	}

	fn create(members: Vec<CommitteeMember>) -> polkadot_sdk::sp_runtime::DispatchResult {
		let committee = committee();
		PqVerifier::create_committee(RuntimeOrigin::signed(owner()), committee.rho(), committee.threshold(), members.try_into().unwrap())
	}

	/// The committee's signature of `call` by `signers`.
	fn aggregate(signers: SignerBitfield, call: &RuntimeCall) -> pq_crypto::AggregateSignature {
		committee().sign(&signers, &message(call), Purpose::ExtensionCommittee).unwrap()
	}

	/// An aggregate-authorized transaction of `call` by `signers`.
	fn authorization(signers: SignerBitfield, call: &RuntimeCall) -> AuthorizePq<Test> {
		AuthorizePq::new(Authorization::Committee(aggregate(signers, call)))
	}

	fn with_committee(test: impl FnOnce()) {
		new_test_ext_with(&[owner()]).execute_with(|| {
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
			assert_eq!(validate(authorization(signers, &call), RuntimeOrigin::none(), &call), Ok(Some(account)));
		});
	}

	/// More than half signed: the key is the stored sum minus the absent members.
	#[test]
	fn a_near_full_signer_set_verifies() {
		with_committee(|| {
			let call = remark(b"committee");
			let signers = committee().signers((0..16).filter(|i| *i != 7)).unwrap();
			assert!(validate(authorization(signers, &call), RuntimeOrigin::none(), &call).is_ok());
		});
	}

	#[test]
	fn a_tampered_call_is_a_bad_proof() {
		with_committee(|| {
			let signers = committee().signers([0, 1, 2]).unwrap();
			let extension = authorization(signers, &remark(b"committee"));
			assert_eq!(validate(extension, RuntimeOrigin::none(), &remark(b"tampered")), Err(bad_proof()));
		});
	}

	#[test]
	fn another_signer_set_than_signed_is_a_bad_proof() {
		with_committee(|| {
			let call = remark(b"committee");
			let mut aggregate = aggregate(committee().signers([0, 1, 2]).unwrap(), &call);
			aggregate.signers = committee().signers([0, 1, 2, 3]).unwrap();
			let extension = AuthorizePq::new(Authorization::Committee(aggregate));
			assert_eq!(validate(extension, RuntimeOrigin::none(), &call), Err(bad_proof()));
		});
	}

	#[test]
	fn fewer_signers_than_the_threshold_are_refused() {
		with_committee(|| {
			let call = remark(b"committee");
			let extension = authorization(committee().signers([0, 1]).unwrap(), &call);
			assert_eq!(validate(extension, RuntimeOrigin::none(), &call), Err(PqInvalidTransaction::BelowThreshold.into()));
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
			assert_eq!(validate(extension, RuntimeOrigin::none(), &call), Err(PqInvalidTransaction::InvalidSigners.into()));
		});
	}

	#[test]
	fn an_unknown_committee_is_refused() {
		new_test_ext().execute_with(|| {
			let call = remark(b"committee");
			let extension = authorization(committee().signers([0, 1, 2]).unwrap(), &call);
			assert_eq!(validate(extension, RuntimeOrigin::none(), &call), Err(PqInvalidTransaction::UnknownCommittee.into()));
		});
	}

	#[test]
	fn the_weight_charges_the_shares_a_signer_set_can_read() {
		let call = remark(b"committee");
		let weight = |members: Vec<u32>| authorization(committee().signers(members).unwrap(), &call).weight(&call);
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
			assert_eq!(validate(extension, RuntimeOrigin::none(), &call), Err(PqInvalidTransaction::UnknownCommittee.into()));
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
