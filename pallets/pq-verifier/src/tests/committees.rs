//! Committees: creation with proofs of possession, deposits, aggregate-signed transactions.

use super::*;
use crate::{CommitteeMember, CommitteeShares, Committees, CommitteesOwned, HoldReason};
use pq_crypto::{
	aggregate::SignerBitfield, committee::PackedShare, keys::MlDsa87Signature, AggregateSignature,
};
use pq_signer::aggregator::Committee;
use std::sync::OnceLock;

/// A 16-member committee with threshold 3.
fn committee() -> &'static Committee {
	static COMMITTEE: OnceLock<Committee> = OnceLock::new();
	COMMITTEE.get_or_init(|| Committee::from_seed(&[0x33; 32], 16, 3))
}

/// The committees' owner: an ML-DSA key's account, as owners must be post-quantum.
fn owner() -> AccountId32 {
	keypair(Scheme::MlDsa44, 0x0e).account_id()
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
	PqVerifier::create_committee(
		RuntimeOrigin::signed(owner()),
		committee.rho(),
		committee.threshold(),
		members.try_into().unwrap(),
	)
}

/// `committee`'s signature of `call` by `signers`.
pub(super) fn aggregate_of(
	committee: &Committee,
	signers: SignerBitfield,
	call: &RuntimeCall,
) -> AggregateSignature {
	let id = committee.id();
	let (message, purpose) = statement(call, Signatory::Committee(&id, &signers));
	committee.sign(&signers, &message, purpose).unwrap()
}

/// A transaction of `call` from the account of the committee `aggregate` names.
pub(super) fn committee_signed(aggregate: AggregateSignature, call: &RuntimeCall) -> Extrinsic {
	signed(
		&aggregate.committee.account_id(),
		TransactionSignature::Committee(Box::new(aggregate)),
		call,
	)
}

/// A signature naming `committee` and `signers` that verifies for nothing: what an attacker
/// sends, and enough for what is charged.
pub(super) fn garbage_aggregate(
	committee: &Committee,
	signers: SignerBitfield,
) -> AggregateSignature {
	AggregateSignature {
		committee: committee.id(),
		signers,
		signature: MlDsa87Signature([0; MlDsa87Signature::LEN]),
	}
}

fn aggregate(signers: SignerBitfield, call: &RuntimeCall) -> AggregateSignature {
	aggregate_of(committee(), signers, call)
}

/// The test committee's transaction of `call` signed by `signers`.
fn transaction(signers: SignerBitfield, call: &RuntimeCall) -> Extrinsic {
	committee_signed(aggregate(signers, call), call)
}

/// The test committee, created by `owner()`, its account funded.
fn with_committee(test: impl FnOnce()) {
	new_test_ext_with(&[owner(), committee().id().account_id()]).execute_with(|| {
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
		assert_eq!(
			Balances::balance_on_hold(&HoldReason::CommitteeDeposit.into(), &owner()),
			deposit
		);
		System::assert_last_event(
			Event::CommitteeCreated {
				committee: id.clone(),
				account: id.account_id(),
				owner: owner(),
				size: 16,
				threshold: 3,
				deposit,
			}
			.into(),
		);
	});
}

#[test]
fn a_committee_signed_transaction_is_from_the_committee_account() {
	with_committee(|| {
		let call = remark(b"committee");
		let signers = committee().signers([0, 4, 9]).unwrap();
		let account = committee().id().account_id();
		assert_eq!(validate(transaction(signers, &call)), Ok(Some(account)));
	});
}

/// The committee form signs for the committee's account only.
#[test]
fn a_committee_signature_for_another_account_is_bad_signer() {
	with_committee(|| {
		let call = remark(b"committee");
		let aggregate = aggregate(committee().signers([0, 4, 9]).unwrap(), &call);
		let elsewhere =
			signed(&owner(), TransactionSignature::Committee(Box::new(aggregate)), &call);
		assert_eq!(validate(elsewhere), Err(InvalidTransaction::BadSigner.into()));
	});
}

/// More than half signed: the key is the stored sum minus the absent members.
#[test]
fn a_near_full_signer_set_verifies() {
	with_committee(|| {
		let call = remark(b"committee");
		let signers = committee().signers((0..16).filter(|i| *i != 7)).unwrap();
		assert!(validate(transaction(signers, &call)).is_ok());
	});
}

#[test]
fn a_tampered_call_is_a_bad_proof() {
	with_committee(|| {
		let signers = committee().signers([0, 1, 2]).unwrap();
		let tampered = with_call(transaction(signers, &remark(b"committee")), remark(b"tampered"));
		assert_eq!(validate(tampered), Err(bad_proof()));
	});
}

#[test]
fn another_signer_set_than_signed_is_a_bad_proof() {
	with_committee(|| {
		let call = remark(b"committee");
		let mut aggregate = aggregate(committee().signers([0, 1, 2]).unwrap(), &call);
		aggregate.signers = committee().signers([0, 1, 2, 3]).unwrap();
		assert_eq!(validate(committee_signed(aggregate, &call)), Err(bad_proof()));
	});
}

#[test]
fn fewer_signers_than_the_threshold_are_refused() {
	with_committee(|| {
		let call = remark(b"committee");
		let extrinsic = transaction(committee().signers([0, 1]).unwrap(), &call);
		assert_eq!(validate(extrinsic), Err(PqInvalidTransaction::BelowThreshold.into()));
	});
}

#[test]
fn a_non_canonical_signer_bitfield_is_refused() {
	with_committee(|| {
		let call = remark(b"committee");
		let mut aggregate = aggregate(committee().signers([0, 1, 2]).unwrap(), &call);
		// The same signers with a trailing zero byte.
		aggregate.signers = SignerBitfield::new(24, [0, 1, 2]).unwrap();
		assert_eq!(
			validate(committee_signed(aggregate, &call)),
			Err(PqInvalidTransaction::InvalidSigners.into())
		);
	});
}

#[test]
fn an_unknown_committee_is_refused() {
	new_test_ext_with(&[committee().id().account_id()]).execute_with(|| {
		let call = remark(b"committee");
		let extrinsic = transaction(committee().signers([0, 1, 2]).unwrap(), &call);
		assert_eq!(validate(extrinsic), Err(PqInvalidTransaction::UnknownCommittee.into()));
	});
}

#[test]
fn the_weight_charges_the_shares_a_signer_set_can_read() {
	// The charge depends on the signer set alone, not on whether the signature verifies.
	let weight = |members: Vec<u32>| {
		let aggregate = garbage_aggregate(committee(), committee().signers(members).unwrap());
		crate::SignatureCheck::of(&TransactionSignature::Committee(Box::new(aggregate)))
			.weight::<()>()
	};
	use crate::WeightInfo;
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
		assert_noop!(
			PqVerifier::create_committee(origin(), committee().rho(), 0, members()),
			Error::<Test>::InvalidThreshold
		);
		assert_noop!(
			PqVerifier::create_committee(origin(), committee().rho(), 17, members()),
			Error::<Test>::InvalidThreshold
		);
		assert_noop!(
			PqVerifier::create_committee(origin(), committee().rho(), 1, Default::default()),
			Error::<Test>::InvalidThreshold
		);
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

/// Empties the committee's account, as the committee would before its owner dissolves it.
fn empty_committee_account() {
	let account = committee().id().account_id();
	<Balances as Mutate<AccountId32>>::set_balance(&account, 0);
}

#[test]
fn dissolving_removes_everything_and_releases_the_deposit_but_the_tombstone() {
	with_committee(|| {
		let id = committee().id();
		empty_committee_account();
		let before = Balances::free_balance(owner());
		assert_ok!(PqVerifier::dissolve_committee(RuntimeOrigin::signed(owner()), id.clone()));
		assert!(!Committees::<Test>::contains_key(&id));
		assert!(crate::DissolvedCommittees::<Test>::contains_key(&id));
		assert_eq!(CommitteeShares::<Test>::iter_prefix(&id).count(), 0);
		assert_eq!(Balances::balance_on_hold(&HoldReason::CommitteeDeposit.into(), &owner()), 0);
		let (deposit, burned) = (
			crate::Pallet::<Test>::committee_deposit(16),
			crate::Pallet::<Test>::tombstone_deposit(),
		);
		assert!(burned > 0);
		assert_eq!(Balances::free_balance(owner()), before + deposit - burned);
		System::assert_last_event(
			Event::CommitteeDissolved { committee: id, deposit: deposit - burned, burned }.into(),
		);
		let call = remark(b"committee");
		let extrinsic = transaction(committee().signers([0, 1, 2]).unwrap(), &call);
		assert_eq!(validate(extrinsic), Err(PqInvalidTransaction::UnknownCommittee.into()));
		assert_ok!(crate::Pallet::<Test>::do_try_state());
	});
}

/// Dissolving while the committee's account holds funds would strand them: no one could sign
/// for the account any more.
#[test]
fn dissolving_a_committee_whose_account_holds_funds_is_refused() {
	with_committee(|| {
		assert_noop!(
			PqVerifier::dissolve_committee(RuntimeOrigin::signed(owner()), committee().id()),
			Error::<Test>::CommitteeAccountNotEmpty
		);
	});
}

#[test]
fn only_the_owner_dissolves() {
	with_committee(|| {
		let stranger = RuntimeOrigin::signed(AccountId32::new([0x0f; 32]));
		assert_noop!(
			PqVerifier::dissolve_committee(stranger, committee().id()),
			Error::<Test>::NotCommitteeOwner
		);
	});
}

/// A quantum attacker holding an Ed25519 owner's key could dissolve the committee the moment
/// its account is empty — front-running a transfer to it, which would then be stranded — so an
/// account an Ed25519 key signs for cannot own a committee; an Ed25519 account that migrated to
/// accept only its ML-DSA key can.
#[test]
fn an_owner_an_ed25519_key_signs_for_cannot_create_a_committee() {
	let (ed25519, migrated) = (keypair(Scheme::Ed25519, 0x21), keypair(Scheme::Ed25519, 0x22));
	let create_by = |owner: &AccountId32| {
		let committee = committee();
		PqVerifier::create_committee(
			RuntimeOrigin::signed(owner.clone()),
			committee.rho(),
			committee.threshold(),
			members_for(committee, owner).try_into().unwrap(),
		)
	};
	new_test_ext_with(&[ed25519.account_id(), migrated.account_id()]).execute_with(|| {
		assert_noop!(create_by(&ed25519.account_id()), Error::<Test>::ClassicalOwner);
		let key = keypair(Scheme::MlDsa44, 0x23);
		register(&migrated.account_id(), &key);
		assert_noop!(create_by(&migrated.account_id()), Error::<Test>::ClassicalOwner);
		assert_ok!(PqVerifier::set_only_registered_key(
			RuntimeOrigin::signed(migrated.account_id()),
			true
		));
		assert_ok!(create_by(&migrated.account_id()));
	});
}

/// The same attack after creation: an owner that lifts its only-registered-key rule lets its
/// Ed25519 key sign for it again, and whoever takes that key's discrete logarithm re-migrates
/// the owner to a key of its own (`rotate_key(K, its own proof, true)`), which passes the owner
/// re-check at dissolution — to take the deposit and end the committee the moment its account
/// is empty. While it owns a committee, an owner whose id is an Ed25519 key can neither lift
/// the rule nor remove its key; the Ed25519 key is refused; once the committee is dissolved,
/// the owner may.
#[test]
fn an_owner_that_lifts_its_key_rule_cannot_be_re_migrated_to_dissolve() {
	with_migrated_owner(|ed25519| {
		let owner = ed25519.account_id();
		assert_eq!(CommitteesOwned::<Test>::get(&owner), Some(1));
		let origin = || RuntimeOrigin::signed(owner.clone());
		assert_noop!(
			PqVerifier::set_only_registered_key(origin(), false),
			Error::<Test>::PostQuantumRole
		);
		assert_noop!(PqVerifier::remove_key(origin()), Error::<Test>::PostQuantumRole);
		let attacker = keypair(Scheme::MlDsa87, 0x26);
		let re_migrate: RuntimeCall = crate::Call::rotate_key {
			key: Box::new(attacker.public()),
			proof: Some(Box::new(possession_proof(&attacker, &owner))),
			only_registered_key: true,
		}
		.into();
		assert_eq!(validate(inline(ed25519, &re_migrate)), Err(only_registered_key()));

		empty_committee_account();
		assert_ok!(PqVerifier::dissolve_committee(origin(), committee().id()));
		assert_eq!(CommitteesOwned::<Test>::get(&owner), None);
		assert_ok!(PqVerifier::set_only_registered_key(origin(), false));
	});
}

/// Defence in depth for a chain whose owner lifted its rule before storage version 2 counted
/// committees: dissolution re-checks the owner, and an owner an Ed25519 key signs for cannot
/// dissolve until it accepts only its ML-DSA key once more.
#[test]
fn an_owner_whose_ed25519_key_signs_again_cannot_dissolve() {
	with_migrated_owner(|ed25519| {
		let owner = ed25519.account_id();
		empty_committee_account();
		// The rule lifted as only a chain from before storage version 2 could have.
		crate::OnlyRegisteredKey::<Test>::remove(&owner);
		let origin = || RuntimeOrigin::signed(owner.clone());
		assert_noop!(
			PqVerifier::dissolve_committee(origin(), committee().id()),
			Error::<Test>::ClassicalOwner
		);
		assert_ok!(PqVerifier::set_only_registered_key(origin(), true));
		assert_ok!(PqVerifier::dissolve_committee(origin(), committee().id()));
	});
}

/// Runs `test` with [`committee`] created by an Ed25519 account (the keypair passed) that
/// migrated to an ML-DSA-44 key and accepts only it.
fn with_migrated_owner(test: impl FnOnce(&Keypair)) {
	let (ed25519, key) = (keypair(Scheme::Ed25519, 0x24), keypair(Scheme::MlDsa44, 0x25));
	let owner = ed25519.account_id();
	new_test_ext_with(&[owner.clone(), committee().id().account_id()]).execute_with(|| {
		migrate_exclusively(&owner, &key);
		let committee = committee();
		assert_ok!(PqVerifier::create_committee(
			RuntimeOrigin::signed(owner.clone()),
			committee.rho(),
			committee.threshold(),
			members_for(committee, &owner).try_into().unwrap(),
		));
		test(&ed25519);
	});
}

/// The tombstone a dissolution leaves stays forever, so the deposit it burns pays for every
/// byte of its storage key (pallet and map prefixes, the id's hash, the id), not the id alone.
#[test]
fn the_tombstone_deposit_pays_for_its_whole_storage_key() {
	new_test_ext().execute_with(|| {
		// 16 + 16 bytes of pallet and map prefix, 16 of the id's hash, the id's 32.
		let per_byte = <Test as crate::Config>::KeyDepositPerByte::get();
		assert_eq!(crate::Pallet::<Test>::tombstone_deposit(), per_byte * 80);
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
