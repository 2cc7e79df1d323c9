//! Benchmarks (frame-benchmarking v2): the check of a transaction's signature per form and
//! scheme, and every call, each in its worst case.
//!
//! The signature benchmarks measure [`authorize`] as the runtime's [`Extrinsic`](crate::Extrinsic)
//! runs it when a transaction is checked: the reads before verification (the account's key
//! rule, its registered key, or the committee), the fee check ([`Config::FeeCheck`]: a balance
//! read in a runtime), the signed payload (with the two block hashes the stock extensions'
//! implicit data reads), for a committee the share reads and the key
//! derivation, then key decode and verification. Each empties the decoded-key cache first, and
//! the benchmark command turns the node's off (the `Host` backend's), so the weights charge a
//! full decode every time; a cache can only make the real cost lower than the charge.

use super::*;
use crate::{authorize, Pallet as PqVerifier};
use alloc::{boxed::Box, vec, vec::Vec};
use polkadot_sdk::{
	frame_benchmarking::v2::*,
	frame_support::{
		dispatch::{DispatchInfo, GetDispatchInfo},
		traits::Get,
	},
	frame_system::{self, pallet_prelude::BlockNumberFor, Call as SystemCall, RawOrigin},
	sp_runtime::{
		traits::{Dispatchable, Zero},
		transaction_validity::TransactionValidityError,
		AccountId32,
	},
};
use pq_crypto::{
	aggregate::{CommitteeId, SignerBitfield, MAX_COMMITTEE_SIZE},
	committee::{PackedShare, ShareSum},
	keys::MlDsa87Signature,
	statement::{Signatory, TransactionStatement, MAX_UNHASHED_PAYLOAD},
	Purpose, Scheme, TransactionSignature,
};
use pq_signer::{aggregator::Committee, signing::Keypair};

/// A key of `scheme` whose account derivation takes one candidate, as the signature checks'
/// weights assume ([`derivation_weight`] charges longer ones).
fn keypair(scheme: Scheme) -> Keypair {
	(0..=u8::MAX)
		.map(|i| {
			Keypair::from_seed(scheme, &[(scheme as u8 + 0x40).wrapping_add(i); 32])
				.expect("single-key scheme")
		})
		.find(|key| key.public().account_derivation().1 <= 1)
		.expect("about half of all keys derive their account at the first candidate")
}

/// A committee of `size` members and `threshold` whose account derivation takes one
/// candidate, from the first of the seeds `seed`, `seed + 1`, … that gives one.
fn committee(seed: u8, size: u32, threshold: u32) -> Committee {
	(0..=u8::MAX)
		.map(|i| Committee::from_seed(&[seed.wrapping_add(i); 32], size, threshold))
		.find(|committee| committee.id().account_derivation().1 == 1)
		.expect("about half of all committees derive their account at the first candidate")
}

/// A committee owner no classical key signs for (an ML-DSA key's account), as the calls
/// require; their weights charge the owner check's worst case apart
/// ([`Pallet::owner_check_weight`]).
fn post_quantum_owner() -> AccountId32 {
	keypair(Scheme::MlDsa44).account_id()
}

/// The committee size and number of signers (its first members) `authorize_committee`
/// measures at `r` share reads: the costlier of the two ways to the signer set's key
/// ([`pq_crypto::committee::derive_aggregate_key`]) — the stored sum less `r` absent members'
/// shares, one more unpacking than adding `r` present ones — in a committee of `2r + 1` of which
/// `r + 1` sign; at 64 reads, which only adding reaches within 128 members, 64 of 128.
fn costlier_signer_set(r: u32) -> (u32, u32) {
	if 2 * r < MAX_COMMITTEE_SIZE {
		(2 * r + 1, r + 1)
	} else {
		(2 * r, r)
	}
}

/// A stored committee, its id and its signer set needing `r` share reads, the costlier way
/// ([`costlier_signer_set`]).
fn stored_signer_set<T: Config>(
	r: u32,
) -> Result<(Committee, CommitteeId, SignerBitfield), BenchmarkError> {
	let (size, signing) = costlier_signer_set(r);
	let committee = committee(0x51, size, 1);
	store::<T>(&committee)?;
	let signers = committee.signers(0..signing).map_err(|_| BenchmarkError::Stop("members"))?;
	let id = committee.id();
	Ok((committee, id, signers))
}

/// The longest payload a transaction signs as it is; longer ones are signed as their 32-byte
/// blake2 hash.
const LONGEST_UNHASHED_PAYLOAD: [u8; MAX_UNHASHED_PAYLOAD] = [0x5a; MAX_UNHASHED_PAYLOAD];

/// What a transaction signed by `signatory` over [`LONGEST_UNHASHED_PAYLOAD`] signs, and for
/// which purpose.
fn statement(signatory: Signatory) -> (Vec<u8>, Purpose) {
	let statement = TransactionStatement { signatory, signing_payload: &LONGEST_UNHASHED_PAYLOAD };
	(statement.message(), statement.purpose())
}

/// A remark from `who` with `signature`, as the runtime's extrinsic hands it to [`authorize`].
struct Transaction<T: Config> {
	who: AccountId32,
	signature: TransactionSignature,
	call: T::RuntimeCall,
	info: DispatchInfo,
}

impl<T: Config> Transaction<T>
where
	T::RuntimeCall: Dispatchable<Info = DispatchInfo>,
{
	/// The transaction, with the decoded-key cache emptied so that it is checked cold, its key
	/// decoded to keep (the costlier of a cold check's two ways: `key_cache::clear`).
	fn new(who: AccountId32, signature: TransactionSignature) -> Self {
		let call: T::RuntimeCall = SystemCall::remark { remark: vec![] }.into();
		let info = call.get_dispatch_info();
		crate::key_cache::clear::<T::Backend>(T::KeyCacheBytes::get());
		Self { who, signature, call, info }
	}

	/// [`authorize`], asking [`Config::FeeCheck`] and building the signed payload as the
	/// runtime's extrinsic does.
	fn authorize(&self) -> Result<(), TransactionValidityError> {
		authorize::<T>(
			&self.who,
			&self.signature,
			|| {
				// What the stock extensions' implicit data reads: the genesis hash
				// (`CheckGenesis`) and the era's block hash (`CheckMortality`).
				let _genesis = frame_system::Pallet::<T>::block_hash(BlockNumberFor::<T>::zero());
				let _era_block = frame_system::Pallet::<T>::block_hash(
					frame_system::Pallet::<T>::block_number(),
				);
				Ok(LONGEST_UNHASHED_PAYLOAD.to_vec())
			},
			|_| T::FeeCheck::can_pay(&self.who, &self.call, &self.info, 0),
		)
		// The benchmarks' keys and committees need one candidate: nothing beyond is charged.
		.map(|_beyond_the_benchmarked_derivation| ())
	}
}

/// `Ok` if the check gave the `expected` outcome: a benchmark that measured another path than
/// it is named for fails.
fn expect(
	outcome: Result<(), TransactionValidityError>,
	expected: Result<(), TransactionValidityError>,
) -> Result<(), BenchmarkError> {
	if outcome == expected {
		Ok(())
	} else {
		Err(BenchmarkError::Stop("the signature check took another path than benchmarked"))
	}
}

/// A key-inline transaction from the derived account of a funded key of `scheme`.
fn key_inline<T: Config>(scheme: Scheme) -> Result<Transaction<T>, BenchmarkError>
where
	T::RuntimeCall: Dispatchable<Info = DispatchInfo>,
{
	let signer = keypair(scheme);
	let who = signer.account_id();
	T::BenchmarkHelper::endow(&who);
	let (message, purpose) = statement(Signatory::Key);
	let signature = TransactionSignature::key_inline(
		signer.public(),
		signer.sign_deterministic(&message, purpose),
	)
	.ok_or(BenchmarkError::Stop("single-key scheme"))?;
	Ok(Transaction::new(who, signature))
}

/// Registers a key of `scheme` for an Ed25519 account, which migrates to it, and returns the
/// account and its keypair. An Ed25519 account, as migrated accounts are: lifting its key rule
/// reads what only an account a classical key could sign for reads (`ensure_rule_may_lift`).
fn migrated<T: Config>(scheme: Scheme) -> Result<(AccountId32, Keypair), BenchmarkError> {
	let who = keypair(Scheme::Ed25519).account_id();
	let key = migrate::<T>(&who, scheme, false)?;
	Ok((who, key))
}

/// Endows `who` and migrates it to a new key of `scheme` (with its proof of possession),
/// accepting only that key if `only_registered_key`; returns the key.
fn migrate<T: Config>(
	who: &AccountId32,
	scheme: Scheme,
	only_registered_key: bool,
) -> Result<Keypair, BenchmarkError> {
	T::BenchmarkHelper::endow(who);
	let key = keypair(scheme);
	let proof = key.sign_deterministic(
		&PqVerifier::<T>::possession_statement(who),
		Purpose::ProofOfPossession,
	);
	PqVerifier::<T>::register_key(
		RawOrigin::Signed(who.clone()).into(),
		Box::new(key.public()),
		Some(Box::new(proof)),
		only_registered_key,
	)
	.map_err(|_| BenchmarkError::Stop("registering the benchmark key failed"))?;
	Ok(key)
}

/// A registered-key transaction from a migrated account whose key is of `scheme`.
fn key_registered<T: Config>(scheme: Scheme) -> Result<Transaction<T>, BenchmarkError>
where
	T::RuntimeCall: Dispatchable<Info = DispatchInfo>,
{
	let (who, key) = migrated::<T>(scheme)?;
	let (message, purpose) = statement(Signatory::Registered(&who));
	let signature = TransactionSignature::key_registered(key.sign_deterministic(&message, purpose))
		.ok_or(BenchmarkError::Stop("an ML-DSA scheme"))?;
	Ok(Transaction::new(who, signature))
}

/// Stores `committee` owned by a fresh endowed account, as `create_committee` would after
/// checking its proofs, and funds the committee's account.
fn store<T: Config>(committee: &Committee) -> Result<AccountId32, BenchmarkError> {
	let owner: AccountId32 = account("owner", 0, 0);
	T::BenchmarkHelper::endow(&owner);
	let shares = committee.shares();
	let mut sum = ShareSum::default();
	for share in &shares {
		sum.add(share)
			.map_err(|_| BenchmarkError::Stop("generated shares are reduced"))?;
	}
	PqVerifier::<T>::store_committee(
		owner.clone(),
		committee.id(),
		committee.rho(),
		committee.threshold(),
		shares.into_iter(),
		sum,
	)
	.map_err(|_| BenchmarkError::Stop("storing the benchmark committee failed"))?;
	T::BenchmarkHelper::endow(&committee.id().account_id());
	Ok(owner)
}

/// Every member's share of `committee` with its proof of possession for creation by `owner`.
fn members<T: Config>(committee: &Committee, owner: &AccountId32) -> Vec<CommitteeMember> {
	let genesis_hash = PqVerifier::<T>::genesis_hash();
	(0..committee.size())
		.map(|index| CommitteeMember {
			share: committee.share(index),
			proof: committee.membership_proof(index, genesis_hash, owner),
		})
		.collect()
}

#[benchmarks(where T::RuntimeCall: Dispatchable<Info = DispatchInfo>)]
mod benchmarks {
	use super::*;

	/// Ed25519, the key inline (the account): the account is a curve point, key-rule and
	/// fee-check reads, decompress + verify.
	#[benchmark]
	fn verify_signed_ed25519() -> Result<(), BenchmarkError> {
		let transaction = key_inline::<T>(Scheme::Ed25519)?;
		let outcome;
		#[block]
		{
			outcome = transaction.authorize();
		}
		expect(outcome, Ok(()))
	}

	/// ML-DSA-44, the key inline: account derivation, key-rule and fee-check reads, decode +
	/// verify.
	#[benchmark]
	fn verify_signed_ml_dsa_44() -> Result<(), BenchmarkError> {
		let transaction = key_inline::<T>(Scheme::MlDsa44)?;
		let outcome;
		#[block]
		{
			outcome = transaction.authorize();
		}
		expect(outcome, Ok(()))
	}

	/// ML-DSA-65, the key inline: account derivation, key-rule and fee-check reads, decode +
	/// verify.
	#[benchmark]
	fn verify_signed_ml_dsa_65() -> Result<(), BenchmarkError> {
		let transaction = key_inline::<T>(Scheme::MlDsa65)?;
		let outcome;
		#[block]
		{
			outcome = transaction.authorize();
		}
		expect(outcome, Ok(()))
	}

	/// ML-DSA-87, the key inline: account derivation, key-rule and fee-check reads, decode +
	/// verify.
	#[benchmark]
	fn verify_signed_ml_dsa_87() -> Result<(), BenchmarkError> {
		let transaction = key_inline::<T>(Scheme::MlDsa87)?;
		let outcome;
		#[block]
		{
			outcome = transaction.authorize();
		}
		expect(outcome, Ok(()))
	}

	/// The cheapest refusal: a registered-key signature from an account with no registered
	/// key, one registry read.
	#[benchmark]
	fn authorize_none() -> Result<(), BenchmarkError> {
		let who: AccountId32 = account("unregistered", 0, 0);
		let signature = TransactionSignature::MlDsa87Registered(Box::new(MlDsa87Signature(
			[0; MlDsa87Signature::LEN],
		)));
		let transaction = Transaction::<T>::new(who, signature);
		let outcome;
		#[block]
		{
			outcome = transaction.authorize();
		}
		expect(outcome, Err(PqInvalidTransaction::NoRegisteredKey.into()))
	}

	/// ML-DSA-44 with a registered key: registry and fee-check reads, decode + verify.
	#[benchmark]
	fn authorize_registered_ml_dsa_44() -> Result<(), BenchmarkError> {
		let transaction = key_registered::<T>(Scheme::MlDsa44)?;
		let outcome;
		#[block]
		{
			outcome = transaction.authorize();
		}
		expect(outcome, Ok(()))
	}

	/// ML-DSA-65 with a registered key: registry and fee-check reads, decode + verify.
	#[benchmark]
	fn authorize_registered_ml_dsa_65() -> Result<(), BenchmarkError> {
		let transaction = key_registered::<T>(Scheme::MlDsa65)?;
		let outcome;
		#[block]
		{
			outcome = transaction.authorize();
		}
		expect(outcome, Ok(()))
	}

	/// ML-DSA-87 with a registered key: registry and fee-check reads, decode + verify.
	#[benchmark]
	fn authorize_registered_ml_dsa_87() -> Result<(), BenchmarkError> {
		let transaction = key_registered::<T>(Scheme::MlDsa87)?;
		let outcome;
		#[block]
		{
			outcome = transaction.authorize();
		}
		expect(outcome, Ok(()))
	}

	/// A committee-signed transaction whose signer set needs `r` share reads, the costlier way
	/// ([`costlier_signer_set`]). Committee read, key-rule and fee-check reads, share reads,
	/// `pk*` derivation, decode + verify.
	#[benchmark]
	fn authorize_committee(r: Linear<1, { MAX_COMMITTEE_SIZE / 2 }>) -> Result<(), BenchmarkError> {
		let (committee, id, signers) = stored_signer_set::<T>(r)?;
		let (message, purpose) = statement(Signatory::Committee(&id, &signers));
		let aggregate = committee
			.sign_with_randomness(&signers, &message, purpose, [0; 32])
			.map_err(|_| BenchmarkError::Stop("aggregate signing failed"))?;
		let transaction = Transaction::<T>::new(
			id.account_id(),
			TransactionSignature::Committee(Box::new(aggregate)),
		);
		let outcome;
		#[block]
		{
			outcome = transaction.authorize();
		}
		expect(outcome, Ok(()))
	}

	/// Deriving the key of a signer set needing `r` share reads, the costlier way
	/// ([`costlier_signer_set`]), with every share already in the node's storage cache (the
	/// benchmark whitelists them): each share's read on the runtime's side — hashing its key, the
	/// host call, copying and decoding 5,888 bytes — and its unpacking and sum, then
	/// `Power2Round` and `pkEncode`. What a read costs the database is not in it. Not charged
	/// yet: once the generated `WeightInfo` has it, a committee's shares beyond the first are to
	/// be charged its rise (merged as one: `merge-weights --rise-charged`) and a database read
	/// each instead of `authorize_committee`'s slope, which also times the benchmark's in-memory
	/// trie walk that the database weight charges again (docs/benchmarking.md, "A read is timed
	/// by its benchmark and charged again").
	#[benchmark]
	fn derive_committee_key(
		r: Linear<1, { MAX_COMMITTEE_SIZE / 2 }>,
	) -> Result<(), BenchmarkError> {
		let (committee, id, signers) = stored_signer_set::<T>(r)?;
		for index in 0..committee.size() {
			polkadot_sdk::frame_benchmarking::benchmarking::add_to_whitelist(
				CommitteeShares::<T>::hashed_key_for(&id, index).into(),
			);
		}
		let signed = crate::committee::Committee::<T>::signed_by(&id, &signers)
			.map_err(|_| BenchmarkError::Stop("the signer set is refused"))?;
		let key;
		#[block]
		{
			key = signed.aggregate_key();
		}
		match key {
			Ok(key) if key == committee.aggregate_key(&signers) => Ok(()),
			_ => Err(BenchmarkError::Stop("the derivation gave another key")),
		}
	}

	/// An account derivation over `c` candidates, a blake2 hash and a Legendre symbol each
	/// ([`pq_crypto::account::derive_counted`]): what a key or committee whose derivation needs
	/// more than one candidate is charged for each beyond the first ([`derivation_weight`]).
	#[benchmark]
	fn account_candidates(c: Linear<1, 64>) {
		let points;
		#[block]
		{
			points = pq_crypto::account::candidates(b"pq-verifier/benchmark", &[0x33; 32])
				.take(c as usize)
				.filter(pq_crypto::account::edwards::decodes_as_point)
				.count();
		}
		assert!(points <= c as usize);
	}

	/// Creating a committee of `n` members: `n` proof-of-possession verifications (ML-DSA-87),
	/// the share sum, the deposit hold and `n` share writes.
	#[benchmark]
	fn create_committee(n: Linear<1, MAX_COMMITTEE_SIZE>) -> Result<(), BenchmarkError> {
		let committee = Committee::from_seed(&[0x52; 32], n, n);
		let owner = post_quantum_owner();
		T::BenchmarkHelper::endow(&owner);
		let members = members::<T>(&committee, &owner)
			.try_into()
			.map_err(|_| BenchmarkError::Stop("at most 128 members"))?;
		#[extrinsic_call]
		_(RawOrigin::Signed(owner), committee.rho(), n, members);
		assert!(Committees::<T>::contains_key(committee.id()));
		Ok(())
	}

	/// Dissolving a committee of `n` members: `n` share removals, the hold released.
	#[benchmark]
	fn dissolve_committee(n: Linear<1, MAX_COMMITTEE_SIZE>) -> Result<(), BenchmarkError> {
		let owner = post_quantum_owner();
		T::BenchmarkHelper::endow(&owner);
		let id = CommitteeId([0x53; 32]);
		let shares = (0..n).map(|_| PackedShare([0; PackedShare::LEN]));
		PqVerifier::<T>::store_committee(
			owner.clone(),
			id.clone(),
			[0; 32],
			1,
			shares,
			ShareSum::default(),
		)
		.map_err(|_| BenchmarkError::Stop("storing the benchmark committee failed"))?;
		#[extrinsic_call]
		_(RawOrigin::Signed(owner), id.clone());
		assert!(!Committees::<T>::contains_key(id));
		Ok(())
	}

	/// Registering the largest key (ML-DSA-87) for its derived account: deposit hold.
	#[benchmark]
	fn register_key() {
		let key = keypair(Scheme::MlDsa87);
		let who = key.account_id();
		T::BenchmarkHelper::endow(&who);
		#[extrinsic_call]
		_(RawOrigin::Signed(who.clone()), Box::new(key.public()), None, false);
		assert!(Keys::<T>::contains_key(&who));
	}

	/// Migrating to the largest key, accepting only it from then on: verifying its ML-DSA-87
	/// proof of possession, deposit hold.
	#[benchmark]
	fn migrate_key() {
		let who: AccountId32 = account("migrating", 0, 0);
		T::BenchmarkHelper::endow(&who);
		let key = keypair(Scheme::MlDsa87);
		let proof = key.sign_deterministic(
			&PqVerifier::<T>::possession_statement(&who),
			Purpose::ProofOfPossession,
		);
		#[extrinsic_call]
		register_key(
			RawOrigin::Signed(who.clone()),
			Box::new(key.public()),
			Some(Box::new(proof)),
			true,
		);
		assert!(PqVerifier::<T>::only_registered_key(&who));
	}

	/// Removing the key of a migrated Ed25519 account that accepts only it: the checks that it
	/// may lift that rule (as `set_only_registered_key` measures them), registry, rule, hold and
	/// consumer reference released.
	#[benchmark]
	fn remove_key() -> Result<(), BenchmarkError> {
		let (who, _) = migrated::<T>(Scheme::MlDsa87)?;
		PqVerifier::<T>::set_only_registered_key(RawOrigin::Signed(who.clone()).into(), true)
			.map_err(|_| BenchmarkError::Stop("accepting only the registered key failed"))?;
		#[extrinsic_call]
		_(RawOrigin::Signed(who.clone()));
		assert!(!Keys::<T>::contains_key(&who));
		Ok(())
	}

	/// Rotating a migrated account that accepts only its registered key from the smallest key
	/// to the largest (ML-DSA-44 to ML-DSA-87): verifying the new key's ML-DSA-87 proof of
	/// possession, holding the larger deposit. Setting the rule in the same call is charged
	/// apart (`set_only_registered_key`'s weight), so it is not measured here.
	#[benchmark]
	fn rotate_key() -> Result<(), BenchmarkError> {
		let (who, _) = migrated::<T>(Scheme::MlDsa44)?;
		PqVerifier::<T>::set_only_registered_key(RawOrigin::Signed(who.clone()).into(), true)
			.map_err(|_| BenchmarkError::Stop("accepting only the registered key failed"))?;
		let key = keypair(Scheme::MlDsa87);
		let proof = key.sign_deterministic(
			&PqVerifier::<T>::possession_statement(&who),
			Purpose::ProofOfPossession,
		);
		#[extrinsic_call]
		_(RawOrigin::Signed(who.clone()), Box::new(key.public()), Some(Box::new(proof)), false);
		assert!(Keys::<T>::get(&who).is_some_and(|registered| registered.key == key.public()));
		assert!(PqVerifier::<T>::only_registered_key(&who));
		Ok(())
	}

	/// Rotating an account that accepts only its migrated key (ML-DSA-44) back to the key it
	/// is derived from (ML-DSA-87): no proof to verify, but the checks that the rule may lift
	/// (the rule and `Version1Accounts`; a derived id is no curve point) and the rule's removal,
	/// which the rotation to a migrated key does not make. A rotation is to be charged the
	/// larger of the two, part by part, once the generated `WeightInfo` has this one.
	#[benchmark]
	fn rotate_key_to_derived_key() -> Result<(), BenchmarkError> {
		let key = keypair(Scheme::MlDsa87);
		let who = key.account_id();
		migrate::<T>(&who, Scheme::MlDsa44, true)?;
		#[extrinsic_call]
		rotate_key(RawOrigin::Signed(who.clone()), Box::new(key.public()), None, false);
		assert!(Keys::<T>::get(&who).is_some_and(|registered| registered.key == key.public()));
		assert!(!PqVerifier::<T>::only_registered_key(&who));
		Ok(())
	}

	/// A migrated Ed25519 account that accepts only its registered key lifting that rule: the
	/// costlier branch, which reads the rule, `Version1Accounts` (a version-1 account may not lift
	/// it), `CommitteesOwned` and the runtime's `PostQuantumRoles` too (a role holder may not)
	/// where setting the rule reads only the key; each writes one item.
	#[benchmark]
	fn set_only_registered_key() -> Result<(), BenchmarkError> {
		let (who, _) = migrated::<T>(Scheme::MlDsa87)?;
		PqVerifier::<T>::set_only_registered_key(RawOrigin::Signed(who.clone()).into(), true)
			.map_err(|_| BenchmarkError::Stop("accepting only the registered key failed"))?;
		#[extrinsic_call]
		_(RawOrigin::Signed(who.clone()), false);
		assert!(!PqVerifier::<T>::only_registered_key(&who));
		Ok(())
	}

	impl_benchmark_test_suite!(PqVerifier, crate::mock::new_test_ext(), crate::mock::Test);
}

#[cfg(test)]
mod tests {
	use super::*;
	use pq_crypto::committee::derive_aggregate_key;

	/// More than half a committee signing takes the stored sum less the absent members' shares:
	/// one unpacking more than adding as many present ones, so `authorize_committee` measures
	/// that way wherever it exists, reading exactly `r` shares, and a transaction is charged at
	/// least `r` (`shares_read_bound`).
	#[test]
	fn a_signer_set_of_more_than_half_is_benchmarked_at_its_costlier_derivation() {
		let zero = PackedShare([0; PackedShare::LEN]);
		for r in 1..=MAX_COMMITTEE_SIZE / 2 {
			let (size, signing) = costlier_signer_set(r);
			assert!(size <= MAX_COMMITTEE_SIZE, "{r}");
			let signers = SignerBitfield::new(size, 0..signing).unwrap();
			let subtracts = signing > size - signing;
			assert_eq!(
				subtracts,
				r < MAX_COMMITTEE_SIZE / 2,
				"{r}: the costlier way where it exists"
			);
			let mut reads = 0;
			derive_aggregate_key(&[0; 32], size, &zero, &signers, |_| {
				reads += 1;
				Some(zero.clone())
			})
			.unwrap();
			assert_eq!(reads, r, "{r}");
			assert!(crate::committee::shares_read_bound(&signers) >= r, "{r}: charged for them");
		}
	}
}
