//! `AuthorizePq`: each form verifies, each refusal is its named error, replays and the
//! decoded-key cache.

use super::*;

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
	let assigned: Vec<u8> = (0..=u8::MAX).filter(|code| PqInvalidTransaction::from_code(*code).is_some()).collect();
	assert_eq!(assigned, (1..=assigned.len() as u8).collect::<Vec<_>>(), "codes are 1, 2, … without gaps");
	assert!(assigned.len() >= 8);
	for code in assigned {
		let reason = PqInvalidTransaction::from_code(code).unwrap();
		assert_eq!(reason as u8, code);
		assert_eq!(TransactionValidityError::from(reason), InvalidTransaction::Custom(code).into());
	}
}
