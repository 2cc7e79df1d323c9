//! Each attack of `docs/security.md`, as an attacker would try it, refused with its named
//! error.

use super::{
	committees::{aggregate_of, committee_signed, garbage_aggregate, members_for},
	*,
};
use crate::{CommitteeShares, Committees};
use polkadot_sdk::sp_runtime::traits::Dispatchable;
use pq_crypto::{
	keys::{EcdsaSignature, Ed25519Signature, Sr25519Signature},
	transaction::Parts,
};
use pq_signer::aggregator::Committee;

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
		let account_nonce = frame_system::Pallet::<Test>::account_nonce;
		assert_eq!(account_nonce(&derived), account_nonce(&migrated));
		let genuine = registered(&derived, &key, &call);
		let replayed = signed(&migrated, signature_of(&genuine), &call);
		assert_eq!(validate(replayed), Err(bad_proof()));
		assert_eq!(validate(genuine), Ok(Some(derived)));
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
	let accounts = [owner.clone(), first.id().account_id(), second.id().account_id()];
	new_test_ext_with(&accounts).execute_with(|| {
		for committee in [&first, &second] {
			let members = members_for(committee, &owner).try_into().unwrap();
			assert_ok!(PqVerifier::create_committee(
				RuntimeOrigin::signed(owner.clone()),
				committee.rho(),
				committee.threshold(),
				members
			));
		}
		let call = remark(b"committee transfer");
		let genuine = aggregate_of(&first, signers.clone(), &call);
		let replayed = pq_crypto::AggregateSignature { committee: second.id(), ..genuine.clone() };
		assert_eq!(validate(committee_signed(replayed, &call)), Err(bad_proof()));
		assert_eq!(validate(committee_signed(genuine, &call)), Ok(Some(first.id().account_id())));
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
		let copied = PqVerifier::create_committee(
			RuntimeOrigin::signed(observer.clone()),
			committee.rho(),
			2,
			members(),
		);
		assert_noop!(copied, Error::<Test>::InvalidMembershipProof);
		assert_ok!(PqVerifier::create_committee(
			RuntimeOrigin::signed(creator.clone()),
			committee.rho(),
			2,
			members()
		));
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
	new_test_ext_with(core::slice::from_ref(&creator)).execute_with(|| {
		let other_chain = polkadot_sdk::sp_core::H256([0x77; 32]);
		let members: Vec<_> = (0..2)
			.map(|index| crate::CommitteeMember {
				share: committee.share(index),
				proof: committee.membership_proof(index, other_chain, &creator),
			})
			.collect();
		let replayed = PqVerifier::create_committee(
			RuntimeOrigin::signed(creator),
			committee.rho(),
			1,
			members.try_into().unwrap(),
		);
		assert_noop!(replayed, Error::<Test>::InvalidMembershipProof);
	});
}

/// An account derived from ML-DSA key K1 migrates to K2 and accepts only K2; whoever still
/// holds K1 tries to spend with it.
#[test]
fn the_old_ml_dsa_key_of_a_migrated_account_is_refused() {
	let (old, new) = (keypair(Scheme::MlDsa44, 1), keypair(Scheme::MlDsa87, 2));
	let who = old.account_id();
	new_test_ext_with(core::slice::from_ref(&who)).execute_with(|| {
		migrate_exclusively(&who, &new);
		let call = remark(b"drain");
		assert_eq!(validate(inline(&old, &call)), Err(only_registered_key()));
		assert_eq!(validate(registered(&who, &new, &call)), Ok(Some(who)));
	});
}

/// Right after a migration that accepts only the new key, the old Ed25519 key tries to
/// remove the new key (to register its own): refused.
#[test]
fn the_old_ed25519_key_cannot_undo_a_migration() {
	let ed25519 = keypair(Scheme::Ed25519, 1);
	let who = ed25519.account_id();
	new_test_ext_with(core::slice::from_ref(&who)).execute_with(|| {
		migrate_exclusively(&who, &keypair(Scheme::MlDsa65, 2));
		let remove: RuntimeCall = crate::Call::remove_key {}.into();
		assert_eq!(validate(inline(&ed25519, &remove)), Err(only_registered_key()));
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
	new_test_ext_with(core::slice::from_ref(&who)).execute_with(|| {
		migrate_exclusively(&who, &first);
		let rotate: RuntimeCall = crate::Call::rotate_key {
			key: Box::new(second.public()),
			proof: Some(Box::new(possession_proof(&second, &who))),
			only_registered_key: false,
		}
		.into();
		assert_eq!(validate(registered(&who, &first, &rotate)), Ok(Some(who.clone())));
		assert_ok!(rotate.dispatch(RuntimeOrigin::signed(who.clone())));
		assert_eq!(validate(inline(&ed25519, &remark(b"drain"))), Err(only_registered_key()));
	});
}

/// An account derived from key K, with K registered, rotates away from K (stolen, or being
/// retired) to K2: were the rule set by a second call, K — which still derives the account,
/// so still signs for it key inline — could get a transaction in first and undo the rotation.
/// `rotate_key` with `only_registered_key` closes that in the one call; without it, K still
/// signs, as the account asked.
#[test]
fn rotating_away_from_the_derived_key_can_refuse_it_at_once() {
	let (own, new) = (keypair(Scheme::MlDsa44, 0x31), keypair(Scheme::MlDsa87, 0x32));
	let who = own.account_id();
	let rotate = |exclusively| -> RuntimeCall {
		crate::Call::rotate_key {
			key: Box::new(new.public()),
			proof: Some(Box::new(possession_proof(&new, &who))),
			only_registered_key: exclusively,
		}
		.into()
	};
	for exclusively in [true, false] {
		new_test_ext_with(core::slice::from_ref(&who)).execute_with(|| {
			register(&who, &own);
			assert_ok!(rotate(exclusively).dispatch(RuntimeOrigin::signed(who.clone())));
			let old_key = validate(inline(&own, &remark(b"undo the rotation")));
			if exclusively {
				assert_eq!(old_key, Err(only_registered_key()));
			} else {
				assert_eq!(old_key, Ok(Some(who.clone())));
			}
			assert_eq!(validate(registered(&who, &new, &remark(b"new"))), Ok(Some(who.clone())));
		});
	}
	// The rule needs a key that does not derive the account, as `register_key`'s does.
	new_test_ext_with(core::slice::from_ref(&who)).execute_with(|| {
		register(&who, &keypair(Scheme::MlDsa65, 0x33));
		assert_noop!(
			PqVerifier::rotate_key(
				RuntimeOrigin::signed(who.clone()),
				Box::new(own.public()),
				None,
				true
			),
			Error::<Test>::NotMigrated
		);
	});
}

/// A committee's account registers a single key and accepts only it (for instance, a
/// committee handing its funds to one member's key); valid committee signatures by
/// the old members are refused from then on, as any other key is.
#[test]
fn a_committee_account_that_migrated_refuses_the_committee() {
	let committee = Committee::from_seed(&[0x49; 32], 3, 2);
	let owner = AccountId32::new([0x0e; 32]);
	let account = committee.id().account_id();
	let key = keypair(Scheme::MlDsa87, 4);
	new_test_ext_with(&[owner.clone(), account.clone()]).execute_with(|| {
		let members = members_for(&committee, &owner).try_into().unwrap();
		assert_ok!(PqVerifier::create_committee(
			RuntimeOrigin::signed(owner),
			committee.rho(),
			2,
			members
		));
		migrate_exclusively(&account, &key);
		let call = remark(b"committee transfer");
		let aggregate = aggregate_of(&committee, committee.signers([0, 1]).unwrap(), &call);
		assert_eq!(validate(committee_signed(aggregate, &call)), Err(only_registered_key()));
		assert_eq!(validate(registered(&account, &key, &call)), Ok(Some(account)));
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
	new_test_ext_with(core::slice::from_ref(&owner)).execute_with(|| {
		let members = members_for(&committee, &owner).try_into().unwrap();
		assert_ok!(PqVerifier::create_committee(
			RuntimeOrigin::signed(owner),
			committee.rho(),
			1,
			members
		));
		let _ = CommitteeShares::<Test>::clear_prefix(committee.id(), u32::MAX, None);
		let garbage = committee_signed(
			garbage_aggregate(&committee, committee.signers(0..8).unwrap()),
			&remark(b"garbage"),
		);
		let tried_before = pq_crypto::account::candidates_tried();
		assert_eq!(validate(garbage.clone()), Err(InvalidTransaction::Payment.into()));
		// Nor is its account derived: a committee ground for a long derivation costs nothing.
		assert_eq!(pq_crypto::account::candidates_tried(), tried_before);
		// Once the account can pay, the same transaction reads shares (and finds none).
		fund(&committee.id().account_id());
		assert_eq!(validate(garbage), Err(PqInvalidTransaction::UnknownCommittee.into()));
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
			let garbage = inline_signed(
				&signer,
				&signer.account_id(),
				b"not the statement",
				Purpose::Transaction,
				&call,
			);
			assert_eq!(validate(garbage), Err(InvalidTransaction::Payment.into()), "{scheme:?}");
		}
	});
}

/// A signature made for another chain running this runtime is void here: the genesis hash is
/// in the signed payload (`CheckGenesis`'s implicit data).
#[test]
fn a_signature_from_another_chain_is_bad_proof() {
	let signer = keypair(Scheme::MlDsa44, 1);
	let account = signer.account_id();
	new_test_ext_with(core::slice::from_ref(&account)).execute_with(|| {
		let call = remark(b"hello");
		// The implicit data: `CheckGenesis`'s genesis hash, nothing of `CheckNonce`.
		let payload_on =
			|genesis_hash| signing_payload(&(&call, extension(0), (genesis_hash, ())).encode());
		assert_eq!(
			payload_on(crate::Pallet::<Test>::genesis_hash()),
			payload(&call, 0),
			"this chain's payload"
		);
		let other_chain = polkadot_sdk::sp_core::H256([0x77; 32]);
		let extrinsic =
			inline_signed(&signer, &account, &payload_on(other_chain), Purpose::Transaction, &call);
		assert_eq!(validate(extrinsic), Err(bad_proof()));
	});
}

/// A member holding two seats with the same share: the signer sets {0} and {1} have the
/// same `pk*`. A transaction signed by seat 0 is re-labelled as seat 1's; the statement
/// names the exact signer set, so it is void.
#[test]
fn a_re_labelled_signer_set_is_bad_proof() {
	let committee = Committee::generate([0x48; 32], &[[1; 32], [1; 32], [2; 32]], 1);
	let (zero, one) = (committee.signers([0]).unwrap(), committee.signers([1]).unwrap());
	assert_eq!(
		committee.aggregate_key(&zero),
		committee.aggregate_key(&one),
		"one pk* for both seats"
	);
	let owner = AccountId32::new([0x0e; 32]);
	new_test_ext_with(&[owner.clone(), committee.id().account_id()]).execute_with(|| {
		let members = members_for(&committee, &owner).try_into().unwrap();
		assert_ok!(PqVerifier::create_committee(
			RuntimeOrigin::signed(owner),
			committee.rho(),
			1,
			members
		));
		let call = remark(b"committee transfer");
		let genuine = aggregate_of(&committee, zero, &call);
		let re_labelled = pq_crypto::AggregateSignature { signers: one, ..genuine.clone() };
		assert_eq!(validate(committee_signed(re_labelled, &call)), Err(bad_proof()));
		assert!(validate(committee_signed(genuine, &call)).is_ok());
	});
}

/// A block author re-encodes a key-inline transaction in the registered form (smaller, so
/// cheaper), or the other way round: the form is part of what is signed.
#[test]
fn re_encoding_the_form_is_bad_proof() {
	let signer = keypair(Scheme::MlDsa65, 1);
	let who = signer.account_id();
	new_test_ext_with(core::slice::from_ref(&who)).execute_with(|| {
		let call = remark(b"hello");
		register(&who, &signer);
		let Parts::KeyInline(_, signature) = signature_of(&inline(&signer, &call)).parts(&who)
		else {
			panic!("key inline")
		};
		let re_encoded = TransactionSignature::key_registered(signature).unwrap();
		assert_eq!(validate(signed(&who, re_encoded, &call)), Err(bad_proof()));

		let Parts::KeyRegistered(signature) =
			signature_of(&registered(&who, &signer, &call)).parts(&who)
		else {
			panic!("registered")
		};
		let re_encoded = TransactionSignature::key_inline(signer.public(), signature).unwrap();
		assert_eq!(validate(signed(&who, re_encoded, &call)), Err(bad_proof()));
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
		let TransactionSignature::MlDsa44(key, mut signature) =
			signature_of(&inline(&signer, &call))
		else {
			unreachable!()
		};
		// ML-DSA-44: ω = 80 index bytes, then k = 4 cumulative counts.
		let (omega, k) = (80, 4);
		let hints = signature.0[signature.0.len() - 1] as usize;
		assert!(hints < omega, "an unused index byte exists");
		signature.0[signature.0.len() - k - 1] = 1;
		let re_encoded = TransactionSignature::MlDsa44(key, signature);
		assert_eq!(validate(signed(&signer.account_id(), re_encoded, &call)), Err(bad_proof()));
	});
}

/// A relay adds the group order ℓ to an Ed25519 signature's `S`: the same equation holds,
/// but the project's rule (`S < ℓ`) refuses it, so no second encoding exists.
#[test]
fn a_re_encoded_ed25519_signature_is_bad_proof() {
	const ORDER: [u8; 32] = [
		0xed, 0xd3, 0xf5, 0x5c, 0x1a, 0x63, 0x12, 0x58, 0xd6, 0x9c, 0xf7, 0xa2, 0xde, 0xf9, 0xde,
		0x14, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x10,
	];
	let signer = keypair(Scheme::Ed25519, 1);
	new_test_ext_with(&[signer.account_id()]).execute_with(|| {
		let call = remark(b"hello");
		let TransactionSignature::Ed25519(mut signature) = signature_of(&inline(&signer, &call))
		else {
			unreachable!()
		};
		let mut carry = 0u16;
		for (s, l) in signature.0[32..].iter_mut().zip(ORDER) {
			let sum = *s as u16 + l as u16 + carry;
			*s = sum as u8;
			carry = sum >> 8;
		}
		assert_eq!(carry, 0, "S + ℓ fits in 32 bytes");
		let re_encoded = TransactionSignature::Ed25519(signature);
		assert_eq!(validate(signed(&signer.account_id(), re_encoded, &call)), Err(bad_proof()));
	});
}

/// An observer copies a pending migration's proof of possession into a `register_key` of
/// their own account, to control the key's account — or replays it on another chain.
#[test]
fn a_copied_or_replayed_proof_of_possession_is_invalid_proof() {
	let key = keypair(Scheme::MlDsa65, 2);
	let (who, observer) = (keypair(Scheme::Ed25519, 1).account_id(), AccountId32::new([0x0f; 32]));
	new_test_ext_with(&[who.clone(), observer.clone()]).execute_with(|| {
		let copied = PqVerifier::register_key(
			RuntimeOrigin::signed(observer),
			Box::new(key.public()),
			Some(Box::new(possession_proof(&key, &who))),
			false,
		);
		assert_noop!(copied, Error::<Test>::InvalidProof);
		let other_chain = pq_crypto::statement::PossessionStatement {
			genesis_hash: polkadot_sdk::sp_core::H256([0x77; 32]),
			account: &who,
		};
		let replayed = key.sign_deterministic(&other_chain.encode(), Purpose::ProofOfPossession);
		let registering = PqVerifier::register_key(
			RuntimeOrigin::signed(who),
			Box::new(key.public()),
			Some(Box::new(replayed)),
			false,
		);
		assert_noop!(registering, Error::<Test>::InvalidProof);
	});
}

/// The owner of a dissolved committee creates it again from the proofs already on chain (the
/// members dissolved it to retire a share; the creator alone brings every share back). A
/// dissolved id is kept, and refused.
#[test]
fn re_creating_a_dissolved_committee_is_refused() {
	let committee = Committee::from_seed(&[0x47; 32], 3, 2);
	let creator = AccountId32::new([0x0e; 32]);
	new_test_ext_with(core::slice::from_ref(&creator)).execute_with(|| {
		let create = || {
			let members = members_for(&committee, &creator).try_into().unwrap();
			PqVerifier::create_committee(
				RuntimeOrigin::signed(creator.clone()),
				committee.rho(),
				2,
				members,
			)
		};
		assert_ok!(create());
		assert_ok!(PqVerifier::dissolve_committee(
			RuntimeOrigin::signed(creator.clone()),
			committee.id()
		));
		assert_noop!(create(), Error::<Test>::CommitteeDissolved);
		assert_ok!(crate::Pallet::<Test>::do_try_state());
	});
}

/// Whoever can take a discrete logarithm signs an Ed25519 transaction for any account id that
/// decodes as an Ed25519 key — about half of all hashes, so half of the post-quantum accounts
/// of version-1 ids, the ML-DSA-44 `//Alice` among them — or an sr25519 or ECDSA one for any
/// account. No post-quantum account id decodes now, and no sr25519 or ECDSA signature is taken,
/// so every classical signature is refused before anything is verified, however funded the
/// account, and with it every call such a signature could make (a migration of the account to
/// the attacker's key included).
#[test]
fn a_classical_signature_for_a_post_quantum_account_is_refused_before_verification() {
	let mut accounts: Vec<AccountId32> =
		ML_DSA.iter().map(|scheme| keypair(*scheme, 7).account_id()).collect();
	accounts.extend(
		ML_DSA
			.iter()
			.map(|scheme| Keypair::from_suri(*scheme, "//Alice").unwrap().account_id()),
	);
	accounts.push(Committee::from_seed(&[0x48; 32], 2, 1).id().account_id());
	new_test_ext_with(&accounts).execute_with(|| {
		let call = remark(b"drain the account");
		for account in &accounts {
			let ed25519 =
				signed(account, TransactionSignature::Ed25519(Ed25519Signature([0x11; 64])), &call);
			assert_eq!(
				validate(ed25519),
				Err(PqInvalidTransaction::InvalidKey.into()),
				"{account}"
			);
			for forged in [
				TransactionSignature::Sr25519(Sr25519Signature([0x11; 64])),
				TransactionSignature::Ecdsa(EcdsaSignature([0x11; 65])),
			] {
				assert_eq!(
					validate(signed(account, forged, &call)),
					Err(PqInvalidTransaction::ClassicalSignature.into()),
					"{account}"
				);
			}
		}
	});
}

/// A migrated Ed25519 account that holds a role no classical key may hold — the runtime's sudo
/// key, here the test runtime's `RoleHolderAccount` — and lifts its only-registered-key rule or
/// removes its key lets its Ed25519 key sign for the role again, for whoever takes that key's
/// discrete logarithm: neither is allowed while it holds the role. An account no Ed25519 key
/// could sign for (an ML-DSA key's, migrated to another ML-DSA key) may lift its rule; so may
/// the Ed25519 account once the role has moved on.
#[test]
fn a_role_holder_cannot_return_to_a_classical_key() {
	let (ed25519, key) = (keypair(Scheme::Ed25519, 0x31), keypair(Scheme::MlDsa44, 0x32));
	let (derived, other) = (keypair(Scheme::MlDsa65, 0x33), keypair(Scheme::MlDsa44, 0x34));
	let accounts = [ed25519.account_id(), derived.account_id()];
	new_test_ext_with(&accounts).execute_with(|| {
		migrate_exclusively(&accounts[0], &key);
		migrate_exclusively(&accounts[1], &other);
		let origin = |who: &AccountId32| RuntimeOrigin::signed(who.clone());

		RoleHolderAccount::set(Some(accounts[0].clone()));
		assert_noop!(
			PqVerifier::set_only_registered_key(origin(&accounts[0]), false),
			Error::<Test>::PostQuantumRole
		);
		assert_noop!(PqVerifier::remove_key(origin(&accounts[0])), Error::<Test>::PostQuantumRole);
		let remove: RuntimeCall = crate::Call::remove_key {}.into();
		assert_eq!(validate(inline(&ed25519, &remove)), Err(only_registered_key()));

		RoleHolderAccount::set(Some(accounts[1].clone()));
		assert_ok!(PqVerifier::set_only_registered_key(origin(&accounts[1]), false));
		assert_ok!(PqVerifier::set_only_registered_key(origin(&accounts[0]), false));
		RoleHolderAccount::set(None);
	});
}

/// Two key-inline transactions of `signer`'s with the same call and length, one whose
/// signature covers garbage and one signed.
fn garbage_and_signed(signer: &Keypair) -> (Extrinsic, Extrinsic) {
	let call = remark(b"fits an empty block");
	let garbage =
		inline_signed(signer, &signer.account_id(), b"garbage", Purpose::Transaction, &call);
	(garbage, inline(signer, &call))
}

/// Once a block is full by length, every transaction its author tries until its deadline is
/// refused before its signature is verified (a garbage signature gets `ExhaustsResources`, not
/// `BadProof`), as `CheckWeight` would refuse it after, unpaid; a transaction that fits the
/// room left is verified as ever.
#[test]
fn a_transaction_the_full_block_has_no_room_for_is_refused_before_verification() {
	use polkadot_sdk::frame_support::{dispatch::DispatchClass, traits::Get};
	let signer = keypair(Scheme::MlDsa87, 0x36);
	new_test_ext_with(&[signer.account_id()]).execute_with(|| {
		let (garbage, signed) = garbage_and_signed(&signer);
		let len = garbage.encoded_size() as u32;
		let length_limits: frame_system::limits::BlockLength =
			<Test as frame_system::Config>::BlockLength::get();
		let normal_length = *length_limits.max.get(DispatchClass::Normal);

		frame_system::BlockSize::<Test>::put(normal_length - len);
		assert_eq!(validate(garbage.clone()), Err(bad_proof()), "the room left fits it");
		assert!(validate(signed.clone()).is_ok());

		frame_system::BlockSize::<Test>::put(normal_length - len + 1);
		assert_eq!(validate(garbage), Err(InvalidTransaction::ExhaustsResources.into()));
		assert_eq!(validate(signed), Err(InvalidTransaction::ExhaustsResources.into()));
	});
}

/// Once a block is full by weight, every transaction its author tries until its deadline is
/// refused before its signature is verified (a garbage signature gets `ExhaustsResources`, not
/// `BadProof`), where `CheckWeight` would refuse it after, unpaid; a transaction that fits the
/// weight left is verified as ever. (The weight edge of the test above.)
#[test]
fn a_transaction_the_full_block_has_no_weight_left_for_is_refused_before_verification() {
	use polkadot_sdk::frame_support::{dispatch::DispatchClass, traits::Get, weights::Weight};
	let signer = keypair(Scheme::MlDsa87, 0x37);
	new_test_ext_with(&[signer.account_id()]).execute_with(|| {
		let (garbage, signed) = garbage_and_signed(&signer);
		let len = signed.encoded_size();
		let checked = signed.clone().check(&IdentityLookup::<AccountId32>::default()).unwrap();
		let limits: frame_system::limits::BlockWeights =
			<Test as frame_system::Config>::BlockWeights::get();
		// What `CheckWeight` books for it, and what the block's Normal class may hold.
		let booked = frame_system::calculate_consumed_extrinsic_weight::<RuntimeCall>(
			&limits,
			&checked.get_dispatch_info(),
			len,
		);
		let normal_total = limits.get(DispatchClass::Normal).max_total.unwrap();
		let consume = |weight| {
			frame_system::BlockWeight::<Test>::mutate(|consumed| {
				consumed.set(weight, DispatchClass::Normal)
			})
		};

		consume(normal_total - booked);
		assert_eq!(validate(garbage.clone()), Err(bad_proof()), "the weight left fits it");
		assert!(validate(signed.clone()).is_ok());

		consume(normal_total - booked + Weight::from_parts(1, 0));
		assert_eq!(validate(garbage), Err(InvalidTransaction::ExhaustsResources.into()));
		assert_eq!(validate(signed), Err(InvalidTransaction::ExhaustsResources.into()));
	});
}

/// Bytes or weight no block of the transaction's class can carry — a Normal-class remark
/// longer than the class's share of the block, a call heavier than its class's
/// `max_extrinsic`, a signed transaction of the inherents' class — are refused before the
/// signature is verified (a garbage signature from a funded account gets the class's error,
/// not `BadProof`), as `CheckWeight` would refuse them after it, unpaid.
#[test]
fn a_transaction_its_class_cannot_carry_is_refused_before_verification() {
	use polkadot_sdk::frame_support::{
		dispatch::{DispatchClass, DispatchInfo},
		traits::Get,
	};
	let signer = keypair(Scheme::MlDsa87, 0x35);
	new_test_ext_with(&[signer.account_id()]).execute_with(|| {
		let garbage = |call: &RuntimeCall| {
			inline_signed(&signer, &signer.account_id(), b"garbage", Purpose::Transaction, call)
		};
		assert_eq!(validate(garbage(&remark(b"fits"))), Err(bad_proof()));

		let length_limits: frame_system::limits::BlockLength =
			<Test as frame_system::Config>::BlockLength::get();
		let normal_length = *length_limits.max.get(DispatchClass::Normal);
		let too_long = remark(&vec![0; normal_length as usize]);
		let too_heavy: RuntimeCall = SystemCall::kill_storage { keys: vec![vec![]; 10_000] }.into();
		let weight_limits: frame_system::limits::BlockWeights =
			<Test as frame_system::Config>::BlockWeights::get();
		let max_extrinsic = weight_limits.get(DispatchClass::Normal).max_extrinsic.unwrap();
		assert!(too_heavy.get_dispatch_info().total_weight().any_gt(max_extrinsic));
		for call in [too_long, too_heavy] {
			assert_eq!(validate(garbage(&call)), Err(InvalidTransaction::ExhaustsResources.into()));
		}
		// No call of the test runtime is of the inherents' class; the check a signed one meets:
		let inherent_class = DispatchInfo { class: DispatchClass::Mandatory, ..Default::default() };
		assert_eq!(
			crate::extrinsic::fits_the_block::<Test>(&inherent_class, 100),
			Err(InvalidTransaction::MandatoryValidation.into())
		);
	});
}

/// Two keys ground for long account derivations (about `2^k` key generations each), an
/// account rotating between them again and again — the same deposit held throughout — to make
/// every node derive them unpaid: each rotation is charged every candidate its call tries,
/// beyond the one its benchmark timed, and computing its weight derives nothing.
#[test]
fn rotating_between_ground_keys_is_charged_every_derivation_candidate() {
	use crate::WeightInfo;
	let mut ground = ground_keys(3);
	let (first, second) = (ground.next().unwrap(), ground.next().unwrap());
	let who = AccountId32::new([7; 32]);
	new_test_ext_with(core::slice::from_ref(&who)).execute_with(|| {
		register(&who, &first);
		for key in [&second, &first, &second, &first] {
			let rotate: RuntimeCall = crate::Call::rotate_key {
				key: Box::new(key.public()),
				proof: Some(Box::new(possession_proof(key, &who))),
				only_registered_key: false,
			}
			.into();
			let tried_before = pq_crypto::account::candidates_tried();
			let charged = rotate.get_dispatch_info().call_weight;
			let post = rotate.dispatch(RuntimeOrigin::signed(who.clone())).expect("rotates");
			let tried = pq_crypto::account::candidates_tried() - tried_before;
			assert!(tried >= 3, "a key ground for three candidates, derived once");
			let kept = post.actual_weight.expect("the rotation's own weight");
			let beyond_the_benchmarked = <() as WeightInfo>::account_candidates(tried as u32 - 1);
			assert!(kept.all_gte(<() as WeightInfo>::rotate_key() + beyond_the_benchmarked));
			assert!(charged.all_gte(kept), "no more than was charged before the call");
		}
	});
}
