//! [`Extrinsic`]'s check: each form verifies, each refusal is its named error, what is signed,
//! replays, the charge of each form and the decoded-key cache.

use super::{
	committees::{committee_signed, garbage_aggregate},
	*,
};
use crate::SignatureCheck;
use pq_crypto::keys::{EcdsaSignature, Sr25519Signature};
use pq_signer::aggregator::Committee;

/// The test runtime's extrinsic as it is on the wire.
type UncheckedExtrinsic = crate::UncheckedExtrinsic<Test, AccountId32, TxExtension>;

#[test]
fn every_scheme_verifies_with_key_inline() {
	let signers = SCHEMES.map(|scheme| keypair(scheme, 1));
	new_test_ext_with(&signers.each_ref().map(Keypair::account_id)).execute_with(|| {
		let call = remark(b"hello");
		for signer in &signers {
			assert_eq!(
				validate(inline(signer, &call)),
				Ok(Some(signer.account_id())),
				"{:?}",
				signer.scheme()
			);
		}
	});
}

#[test]
fn every_ml_dsa_scheme_verifies_with_key_registered() {
	let alice = AccountId32::new([1; 32]);
	new_test_ext_with(core::slice::from_ref(&alice)).execute_with(|| {
		let call = remark(b"hello");
		for scheme in ML_DSA {
			let key = keypair(scheme, 2);
			register(&alice, &key);
			assert_eq!(
				validate(registered(&alice, &key, &call)),
				Ok(Some(alice.clone())),
				"{scheme:?}"
			);
			assert_ok!(PqVerifier::remove_key(RuntimeOrigin::signed(alice.clone())));
		}
	});
}

#[test]
fn wrong_key_is_bad_proof() {
	let alice = AccountId32::new([1; 32]);
	new_test_ext_with(core::slice::from_ref(&alice)).execute_with(|| {
		let call = remark(b"hello");
		register(&alice, &keypair(Scheme::MlDsa65, 2));
		let impostor = keypair(Scheme::MlDsa65, 3);
		assert_eq!(validate(registered(&alice, &impostor, &call)), Err(bad_proof()));
	});
}

#[test]
fn wrong_account_is_bad_signer() {
	let elsewhere = AccountId32::new([9; 32]);
	new_test_ext_with(core::slice::from_ref(&elsewhere)).execute_with(|| {
		let call = remark(b"hello");
		let (message, purpose) = statement(&call, Signatory::Key);
		let extrinsic =
			inline_signed(&keypair(Scheme::MlDsa44, 1), &elsewhere, &message, purpose, &call);
		assert_eq!(validate(extrinsic), Err(InvalidTransaction::BadSigner.into()));
	});
}

#[test]
fn tampered_call_is_bad_proof() {
	let signer = keypair(Scheme::MlDsa87, 1);
	new_test_ext_with(&[signer.account_id()]).execute_with(|| {
		let tampered = with_call(inline(&signer, &remark(b"pay 1")), remark(b"pay 1000"));
		assert_eq!(validate(tampered), Err(bad_proof()));
	});
}

/// The extensions' data is signed after the call: a relay cannot move a transaction to another
/// nonce (or era, or tip) without voiding it.
#[test]
fn tampered_extension_is_bad_proof() {
	let signer = keypair(Scheme::MlDsa44, 1);
	let who = signer.account_id();
	new_test_ext_with(core::slice::from_ref(&who)).execute_with(|| {
		frame_system::Pallet::<Test>::inc_account_nonce(&who);
		let Extrinsic::Decoded(mut extrinsic) = inline(&signer, &remark(b"hello")) else {
			unreachable!()
		};
		let Preamble::Signed(_, _, extension) = &mut extrinsic.preamble else { unreachable!() };
		*extension = super::extension(1);
		assert_eq!(validate(Extrinsic::Decoded(extrinsic)), Err(bad_proof()));
	});
}

#[test]
fn signature_for_another_purpose_is_bad_proof() {
	let signer = keypair(Scheme::MlDsa44, 1);
	let account = signer.account_id();
	new_test_ext_with(core::slice::from_ref(&account)).execute_with(|| {
		let call = remark(b"hello");
		let (message, _) = statement(&call, Signatory::Key);
		for purpose in Purpose::ALL.into_iter().filter(|purpose| *purpose != Purpose::Transaction) {
			let extrinsic = inline_signed(&signer, &account, &message, purpose, &call);
			assert_eq!(validate(extrinsic), Err(bad_proof()), "{purpose:?}");
		}
	});
}

/// The body of `signer`'s key-inline transaction, as it arrives over RPC (no length prefix).
fn body(signer: &Keypair) -> Vec<u8> {
	let encoded = new_test_ext().execute_with(|| inline(signer, &remark(b"hello")).encode());
	Vec::<u8>::decode(&mut &encoded[..]).unwrap()
}

#[test]
fn truncated_extrinsic_is_undecodable() {
	let mut body = body(&keypair(Scheme::MlDsa44, 1));
	body.pop();
	let extrinsic = Extrinsic::from_body(body);
	assert!(matches!(extrinsic, Extrinsic::Undecodable(..)));
	new_test_ext().execute_with(|| {
		assert_eq!(validate(extrinsic), Err(PqInvalidTransaction::Undecodable.into()))
	});
}

#[test]
fn extrinsic_with_trailing_bytes_is_undecodable() {
	let mut body = body(&keypair(Scheme::MlDsa44, 1));
	body.push(0);
	let extrinsic = Extrinsic::from_body(body);
	assert!(matches!(extrinsic, Extrinsic::Undecodable(..)));
	new_test_ext().execute_with(|| {
		assert_eq!(validate(extrinsic), Err(PqInvalidTransaction::Undecodable.into()))
	});
}

/// The length the payment extension charges is the encoded extrinsic's, prefix included, whether
/// it was built or decoded (then measured without encoding it again).
#[test]
fn the_charged_length_is_the_encoded_length_with_its_prefix() {
	new_test_ext().execute_with(|| {
		let signer = keypair(Scheme::MlDsa87, 1);
		// Below and above 64 bytes (a one-byte and a two-byte compact prefix), and above 2^14 (four).
		for remark_len in [1, 100, 20_000] {
			let Extrinsic::Decoded(built) = inline(&signer, &remark(&vec![7; remark_len])) else {
				unreachable!()
			};
			assert_eq!(
				crate::extrinsic::encoded_length(&built),
				built.encoded_size(),
				"built, {remark_len}"
			);
			let body = Vec::<u8>::decode(&mut &built.encode()[..]).unwrap();
			let Extrinsic::Decoded(decoded) = Extrinsic::from_body(body) else { panic!("decodes") };
			assert!(decoded.encoded_len.is_some(), "the decoder records the body's length");
			assert_eq!(
				crate::extrinsic::encoded_length(&decoded),
				built.encoded_size(),
				"decoded, {remark_len}"
			);
		}
	});
}

/// The executive encodes each extrinsic it applies and decodes it again, and keeps the bytes
/// for the extrinsics root: they are the bytes `UncheckedExtrinsic` encodes, for every form,
/// built or decoded (a decoded call as its bytes were), and the body of bytes that are no
/// extrinsic; the size hint is their length.
#[test]
fn an_extrinsic_encodes_to_the_bytes_it_was_decoded_from() {
	use polkadot_sdk::frame_support::traits::InherentBuilder;
	let account = AccountId32::new([1; 32]);
	new_test_ext().execute_with(|| {
		for remark_len in [1, 100, 20_000] {
			let call = remark(&vec![7; remark_len]);
			let mut built = vec![
				Extrinsic::new_inherent(call.clone()),
				// Format 5, which `check` refuses but the executive encodes first.
				UncheckedExtrinsic::new_bare(call.clone()).into(),
				UncheckedExtrinsic::new_transaction(call.clone(), super::extension(0)).into(),
			];
			for scheme in SCHEMES {
				built.push(inline(&keypair(scheme, 1), &call));
			}
			for scheme in ML_DSA {
				built.push(registered(&account, &keypair(scheme, 1), &call));
			}
			for extrinsic in built {
				let Extrinsic::Decoded(unchecked) = &extrinsic else { unreachable!() };
				let expected = unchecked.encode();
				assert_eq!(extrinsic.encode(), expected, "built, {remark_len}");
				assert_eq!(extrinsic.size_hint(), expected.len(), "built, {remark_len}");
				let decoded = Extrinsic::decode(&mut &expected[..]).unwrap();
				assert!(matches!(decoded, Extrinsic::Decoded(_)), "decodes, {remark_len}");
				assert_eq!(decoded.encode(), expected, "decoded, {remark_len}");
				assert_eq!(decoded.size_hint(), expected.len(), "decoded, {remark_len}");
				// The call's bytes as decoded, not as its value encodes: here, another call.
				let Extrinsic::Decoded(mut unchecked) = decoded else { unreachable!() };
				unchecked.encoded_call = Some(remark(b"other").encode());
				let expected = unchecked.encode();
				assert_eq!(Extrinsic::from(unchecked).encode(), expected, "{remark_len}");
			}
		}
		let garbage = Extrinsic::from_body(vec![0xff; 3]);
		assert_eq!(garbage.encode(), vec![0xff_u8; 3].encode());
		assert_eq!(garbage.size_hint(), garbage.encode().len());
	});
}

/// No sender can pay for a whole block: a fee estimate of bytes that are no extrinsic says so.
#[test]
fn undecodable_bytes_weigh_a_whole_block() {
	use polkadot_sdk::frame_support::traits::Get;
	let extrinsic = Extrinsic::from_body(vec![0xff; 3]);
	let weights: frame_system::limits::BlockWeights =
		<Test as frame_system::Config>::BlockWeights::get();
	assert_eq!(extrinsic.get_dispatch_info().call_weight, weights.max_block);
}

#[test]
fn unregistered_account_is_no_registered_key() {
	let alice = AccountId32::new([1; 32]);
	new_test_ext_with(core::slice::from_ref(&alice)).execute_with(|| {
		let extrinsic = registered(&alice, &keypair(Scheme::MlDsa44, 1), &remark(b"hello"));
		assert_eq!(validate(extrinsic), Err(PqInvalidTransaction::NoRegisteredKey.into()));
	});
}

#[test]
fn scheme_mismatch_is_refused() {
	let alice = AccountId32::new([1; 32]);
	new_test_ext_with(core::slice::from_ref(&alice)).execute_with(|| {
		register(&alice, &keypair(Scheme::MlDsa44, 2));
		let extrinsic = registered(&alice, &keypair(Scheme::MlDsa65, 2), &remark(b"hello"));
		assert_eq!(validate(extrinsic), Err(PqInvalidTransaction::SchemeMismatch.into()));
	});
}

/// The signature carries the form: a general (v5) transaction has none to carry.
#[test]
fn a_general_transaction_is_refused() {
	new_test_ext().execute_with(|| {
		let general = UncheckedExtrinsic::new_transaction(remark(b"hello"), super::extension(0));
		assert_eq!(
			validate(Extrinsic::Decoded(general)),
			Err(PqInvalidTransaction::GeneralTransaction.into())
		);
	});
}

/// An inherent is checked as FRAME checks it: from no one.
#[test]
fn a_bare_extrinsic_is_checked_without_a_signer() {
	new_test_ext().execute_with(|| {
		let bare = Extrinsic::Decoded(UncheckedExtrinsic::new_bare_legacy(remark(b"hello")));
		let checked = bare.check(&IdentityLookup::<AccountId32>::default()).unwrap();
		assert_eq!(checked.signer(), None);
	});
}

/// A bare extrinsic of format 5, which the metadata does not list, is refused like a general
/// one: no block carries an extrinsic that stock decoders are told does not exist.
#[test]
fn a_format_5_bare_extrinsic_is_refused() {
	new_test_ext().execute_with(|| {
		let bare = Extrinsic::Decoded(UncheckedExtrinsic::new_bare(remark(b"hello")));
		let refused = bare.check(&IdentityLookup::<AccountId32>::default()).map(|_| ());
		assert_eq!(refused, Err(PqInvalidTransaction::GeneralTransaction.into()));
	});
}

/// A stock wallet's sr25519 or ECDSA signature decodes, and is refused by name unverified,
/// however funded its account.
#[test]
fn a_classical_signature_is_refused() {
	let alice = AccountId32::new([1; 32]);
	new_test_ext_with(core::slice::from_ref(&alice)).execute_with(|| {
		let call = remark(b"hello");
		for classical in [
			TransactionSignature::Sr25519(Sr25519Signature([7; 64])),
			TransactionSignature::Ecdsa(EcdsaSignature([7; 65])),
		] {
			assert_eq!(
				validate(signed(&alice, classical, &call)),
				Err(PqInvalidTransaction::ClassicalSignature.into())
			);
		}
	});
}

#[test]
fn a_sender_that_cannot_pay_is_refused_before_verification() {
	let signer = keypair(Scheme::MlDsa87, 1);
	new_test_ext().execute_with(|| {
		assert_eq!(
			validate(inline(&signer, &remark(b"hello"))),
			Err(InvalidTransaction::Payment.into())
		);
	});
}

/// Junk key bytes whose account derivation needs many candidates are found by hashing alone:
/// an inline key is bound to its account only once the account can pay, so a key for an
/// unfunded account is refused without one candidate tried (a funded account of another key
/// is `BadSigner`, `wrong_account_is_bad_signer`).
#[test]
fn a_ground_junk_key_is_refused_before_its_account_is_derived() {
	let unfunded = AccountId32::new([9; 32]);
	new_test_ext().execute_with(|| {
		let call = remark(b"hello");
		let (message, purpose) = statement(&call, Signatory::Key);
		let extrinsic =
			inline_signed(&keypair(Scheme::MlDsa44, 1), &unfunded, &message, purpose, &call);
		assert_eq!(validate(extrinsic), Err(InvalidTransaction::Payment.into()));
	});
}

/// `CheckNonce` is signed with the call: a transaction applied once is refused the second time.
#[test]
fn replay_is_refused() {
	let signer = keypair(Scheme::MlDsa44, 1);
	let who = signer.account_id();
	new_test_ext_with(core::slice::from_ref(&who)).execute_with(|| {
		let apply = |extrinsic: Extrinsic| {
			let (info, len) = (extrinsic.get_dispatch_info(), extrinsic.encoded_size());
			extrinsic
				.check(&IdentityLookup::<AccountId32>::default())?
				.apply::<Test>(&info, len)
		};
		let transaction = inline(&signer, &remark(b"once"));
		assert_ok!(apply(transaction.clone()).unwrap());
		assert_eq!(frame_system::Pallet::<Test>::account_nonce(&who), 1);
		assert_eq!(apply(transaction).unwrap_err(), InvalidTransaction::Stale.into());
	});
}

/// The weight [`crate::Config::WeightPerExtrinsicByte`] charges for `extrinsic`'s bytes.
fn bytes_weight<E: Encode>(extrinsic: &E) -> polkadot_sdk::frame_support::weights::Weight {
	WeightPerExtrinsicByte::get() * extrinsic.encoded_size() as u64
}

/// Every form's dispatch info — what the pool, the fee and `CheckWeight` see — adds its
/// signature's check and its bytes to the extension weight, before and after the check; a bare
/// extrinsic adds only its bytes.
#[test]
fn each_form_is_charged_its_signature_check() {
	let (ed25519, ml_dsa) = (keypair(Scheme::Ed25519, 1), keypair(Scheme::MlDsa87, 2));
	let alice = AccountId32::new([1; 32]);
	let committee = Committee::from_seed(&[0x34; 32], 4, 1);
	new_test_ext_with(&[ed25519.account_id(), ml_dsa.account_id(), alice.clone()]).execute_with(
		|| {
			let call = remark(b"hello");
			register(&alice, &ml_dsa);
			let transactions = [
				inline(&ed25519, &call),
				inline(&ml_dsa, &call),
				registered(&alice, &ml_dsa, &call),
				committee_signed(
					garbage_aggregate(&committee, committee.signers([0, 1, 2]).unwrap()),
					&call,
				),
				signed(&alice, TransactionSignature::Sr25519(Sr25519Signature([7; 64])), &call),
			];
			for transaction in transactions {
				let signature = signature_of(&transaction);
				let check = SignatureCheck::of(&signature);
				let Extrinsic::Decoded(unchecked) = &transaction else { unreachable!() };
				let extensions_weight = unchecked.get_dispatch_info().extension_weight;
				let info = transaction.get_dispatch_info();
				let derivation = crate::derivation_weight::<Test>(signature.account_candidates());
				assert_eq!(
					info.extension_weight,
					extensions_weight + check.weight::<()>() + derivation + bytes_weight(unchecked),
					"{check:?}"
				);
				// The forms that verify (the committee is unknown, sr25519 refused) keep the charge.
				if let Ok(checked) = transaction.check(&IdentityLookup::<AccountId32>::default()) {
					assert_eq!(checked.get_dispatch_info(), info, "{check:?}");
				}
			}
			let bare = UncheckedExtrinsic::new_bare_legacy(call);
			let mut expected = bare.get_dispatch_info();
			expected.extension_weight += bytes_weight(&bare);
			assert_eq!(Extrinsic::Decoded(bare).get_dispatch_info(), expected);
		},
	);
}

/// Long transactions cannot fill a block below their cost: importing a block costs per byte
/// of every extrinsic (decoding, encoding again, the extrinsics root) beyond any benchmark of a
/// call or a signature, so each byte is charged, before and after the check. Two remarks by
/// one key differ by their length's weight, and the remark's own (its benchmark's per-byte
/// slope).
#[test]
fn a_long_transaction_is_charged_for_its_bytes() {
	let signer = keypair(Scheme::MlDsa44, 1);
	new_test_ext_with(&[signer.account_id()]).execute_with(|| {
		let (short, long) = (remark(&[7; 10]), remark(&[7; 5_010]));
		let call_difference =
			long.get_dispatch_info().total_weight() - short.get_dispatch_info().total_weight();
		let [short, long] = [short, long].map(|call| inline(&signer, &call));
		let (Extrinsic::Decoded(short_unchecked), Extrinsic::Decoded(long_unchecked)) =
			(&short, &long)
		else {
			unreachable!()
		};
		assert_eq!(long_unchecked.encoded_size() - short_unchecked.encoded_size(), 5_001);
		let charged = |extrinsic: &Extrinsic| extrinsic.get_dispatch_info().total_weight();
		let quoted = charged(&long) - charged(&short);
		assert_eq!(quoted, call_difference + WeightPerExtrinsicByte::get() * 5_001);
		let checked_weight = |extrinsic: Extrinsic| {
			let info = extrinsic.get_dispatch_info();
			let checked = extrinsic.check(&IdentityLookup::<AccountId32>::default()).unwrap();
			assert_eq!(checked.get_dispatch_info(), info, "the check keeps the quote");
			info.total_weight()
		};
		assert_eq!(checked_weight(long) - checked_weight(short), quoted);
	});
}

/// A key ground for a long account derivation — `k` candidates take about `2^k` tries — is
/// charged for every candidate it makes a node try: checking the transaction derives its
/// account once, `k` candidates, of which the signature check's benchmark derived one. In the
/// quote (the unchecked extrinsic's dispatch info, which derives to count them) and in the
/// checked extrinsic's, alike.
#[test]
fn a_ground_key_is_charged_for_every_derivation_candidate_it_makes_a_node_try() {
	let ground = ground_key(3);
	let candidates = ground.public().account_derivation().1;
	let beyond_the_first = <() as crate::WeightInfo>::account_candidates(candidates - 1);
	assert!(beyond_the_first.ref_time() > 0, "the weights charge derivation candidates");
	new_test_ext_with(&[ground.account_id()]).execute_with(|| {
		let transaction = inline(&ground, &remark(b"hello"));
		let signature = signature_of(&transaction);
		assert_eq!(signature.account_candidates(), candidates);
		let Extrinsic::Decoded(unchecked) = &transaction else { unreachable!() };
		let uncharged = unchecked.get_dispatch_info().extension_weight
			+ SignatureCheck::of(&signature).weight::<()>()
			+ bytes_weight(unchecked);
		let quoted = transaction.get_dispatch_info();
		assert_eq!(quoted.extension_weight, uncharged + beyond_the_first);
		let tried_before = pq_crypto::account::candidates_tried();
		let checked = transaction
			.check(&IdentityLookup::<AccountId32>::default())
			.expect("a valid transaction");
		let tried = pq_crypto::account::candidates_tried() - tried_before;
		assert_eq!(
			tried,
			u64::from(candidates),
			"the check derives once: the first, then the charged"
		);
		assert_eq!(checked.get_dispatch_info(), quoted);
	});
}

/// A registered key ground for a long derivation (registered for its own account, or for a
/// migrated one) costs a node no derivation when it signs: the registered form is charged
/// none, and the key is looked up in the decoded-key caches by one hash of it, not by its
/// account id.
#[test]
fn a_registered_key_ground_for_a_long_derivation_derives_nothing_when_it_signs() {
	let ground = ground_key(3);
	let alice = AccountId32::new([1; 32]);
	new_test_ext_with(&[alice.clone(), ground.account_id()]).execute_with(|| {
		register(&alice, &ground);
		let transaction = registered(&alice, &ground, &remark(b"hello"));
		assert_eq!(signature_of(&transaction).account_candidates(), 0, "charged none");
		let tried_before = pq_crypto::account::candidates_tried();
		for _ in 0..2 {
			// A miss, then a hit.
			assert_eq!(validate(transaction.clone()), Ok(Some(alice.clone())));
		}
		assert_eq!(pq_crypto::account::candidates_tried(), tried_before, "none tried");
	});
}

/// A repeat signer hits the decoded-key cache, with the same outcome as a cold verification.
#[test]
fn repeat_signer_gives_the_same_outcome_through_the_cache() {
	let signer = keypair(Scheme::MlDsa44, 11);
	new_test_ext_with(&[signer.account_id()]).execute_with(|| {
		for _ in 0..3 {
			let call = remark(b"again");
			assert_eq!(validate(inline(&signer, &call)), Ok(Some(signer.account_id())));
			assert_eq!(
				validate(with_call(inline(&signer, &call), remark(b"tampered"))),
				Err(bad_proof())
			);
		}
	});
}

/// Codes 1, 2, … name the reasons; 5 (a refusal of aggregate signatures in the registered form,
/// which the signature type can no longer express) is retired, never given to another reason.
#[test]
fn refusal_codes_name_their_reason() {
	let assigned: Vec<u8> = (0..=u8::MAX)
		.filter(|code| PqInvalidTransaction::from_code(*code).is_some())
		.collect();
	assert_eq!(assigned, [1, 2, 3, 4, 6, 7, 8, 9, 10, 11]);
	for code in assigned {
		let reason = PqInvalidTransaction::from_code(code).unwrap();
		assert_eq!(reason as u8, code);
		assert_eq!(TransactionValidityError::from(reason), InvalidTransaction::Custom(code).into());
	}
}
