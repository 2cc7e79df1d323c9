//! The pallet's invariants, checked by `try_state` (the runtime's `try-runtime` feature) and by
//! the tests after every call.

use crate::{
	committee::CommitteeInfo, BalanceOf, CommitteeShares, Committees, CommitteesOwned, Config,
	DissolvedCommittees, HoldReason, Keys, OnlyRegisteredKey, Pallet, Version1Accounts,
};
use alloc::{collections::BTreeMap, vec::Vec};
use polkadot_sdk::{
	frame_support::{
		ensure,
		traits::{fungible::InspectHold, GetStorageVersion},
	},
	frame_system,
	sp_runtime::{traits::Saturating, AccountId32, TryRuntimeError},
};
use pq_crypto::{
	aggregate::{CommitteeId, MAX_COMMITTEE_SIZE},
	committee::{committee_id, PackedShare, ShareSum},
};

impl<T: Config> Pallet<T> {
	/// Checks every invariant of the pallet's storage:
	///
	/// - a registered key is an ML-DSA key; it is marked migrated exactly when it does not
	///   derive its account; the account holds exactly its recorded deposit for it;
	/// - only a migrated account accepts only its registered key, and every version-1 account
	///   does;
	/// - a committee's threshold is between 1 and its size, at most
	///   [`MAX_COMMITTEE_SIZE`]; it has exactly one share per seat and no other, they sum to its
	///   stored sum, and they, its `ρ` and its threshold hash to its id; its id was never
	///   dissolved; every owner holds exactly the sum of its committees' deposits, and (from
	///   storage version 2) [`CommitteesOwned`] counts exactly its committees (no entry for an
	///   account that owns none);
	/// - every account with a key or a committee holds at least one consumer reference for
	///   each, so it cannot be reaped while the pallet holds its deposit.
	pub fn do_try_state() -> Result<(), TryRuntimeError> {
		let mut references = BTreeMap::<AccountId32, u32>::new();
		Self::check_keys(&mut references)?;
		Self::check_committees(&mut references)?;
		for (who, count) in references {
			ensure!(
				frame_system::Pallet::<T>::consumers(&who) >= count,
				"an account with keys or committees holds fewer consumer references than it has of them"
			);
		}
		Ok(())
	}

	fn check_keys(references: &mut BTreeMap<AccountId32, u32>) -> Result<(), TryRuntimeError> {
		let reason = HoldReason::KeyDeposit.into();
		for (who, registered) in Keys::<T>::iter() {
			ensure!(
				registered.key.scheme().is_registerable(),
				"a registered key is not an ML-DSA key"
			);
			ensure!(
				registered.migrated == (registered.key.account_id() != who),
				"a registered key is marked migrated but derives its account, or the reverse"
			);
			ensure!(
				T::Currency::balance_on_hold(&reason, &who) == registered.deposit,
				"an account's key deposit held differs from its registry entry"
			);
			*references.entry(who).or_default() += 1;
		}
		for who in OnlyRegisteredKey::<T>::iter_keys() {
			ensure!(
				Keys::<T>::get(&who).is_some_and(|registered| registered.migrated),
				"an account accepts only its registered key but has no migrated key"
			);
		}
		for who in Version1Accounts::<T>::iter_keys() {
			ensure!(
				OnlyRegisteredKey::<T>::contains_key(&who),
				"a version-1 account does not accept only its registered key"
			);
		}
		Ok(())
	}

	fn check_committees(
		references: &mut BTreeMap<AccountId32, u32>,
	) -> Result<(), TryRuntimeError> {
		let mut deposits = BTreeMap::<AccountId32, BalanceOf<T>>::new();
		let mut owned = BTreeMap::<AccountId32, u32>::new();
		for (id, info) in Committees::<T>::iter() {
			Self::check_committee(&id, &info)?;
			let deposit = deposits.entry(info.owner.clone()).or_default();
			*deposit = deposit.saturating_add(info.deposit);
			*owned.entry(info.owner.clone()).or_default() += 1;
			*references.entry(info.owner).or_default() += 1;
		}
		// The counts exist from storage version 2: the migration to version 1, checked on a chain
		// at version 0, runs before the one that counts.
		if Self::on_chain_storage_version() >= 2 {
			ensure!(
				CommitteesOwned::<T>::iter().collect::<BTreeMap<_, _>>() == owned,
				"the committees counted for an owner differ from the committees it owns"
			);
		}
		let reason = HoldReason::CommitteeDeposit.into();
		for (owner, deposit) in deposits {
			ensure!(
				T::Currency::balance_on_hold(&reason, &owner) == deposit,
				"an owner's committee deposit held differs from the sum of its committees' deposits"
			);
		}
		for (id, _) in CommitteeShares::<T>::iter_keys() {
			ensure!(
				Committees::<T>::contains_key(&id),
				"a share is stored for a committee that does not exist"
			);
		}
		Ok(())
	}

	fn check_committee(
		id: &CommitteeId,
		info: &CommitteeInfo<BalanceOf<T>>,
	) -> Result<(), TryRuntimeError> {
		ensure!(
			1 <= info.threshold && info.threshold <= info.size && info.size <= MAX_COMMITTEE_SIZE,
			"a committee's threshold or size is out of range"
		);
		ensure!(!DissolvedCommittees::<T>::contains_key(id), "a dissolved committee exists again");
		let shares: Vec<PackedShare> = (0..info.size)
			.filter_map(|index| CommitteeShares::<T>::get(id, index))
			.collect();
		ensure!(shares.len() as u32 == info.size, "a committee lacks a member's share");
		ensure!(
			CommitteeShares::<T>::iter_key_prefix(id).count() as u32 == info.size,
			"a committee has shares beyond its members"
		);
		let mut sum = ShareSum::default();
		for share in &shares {
			sum.add(share).map_err(|_| "a committee's share is not reduced mod q")?;
		}
		ensure!(
			sum.pack() == info.share_sum,
			"a committee's stored share sum is not the sum of its shares"
		);
		ensure!(
			committee_id(&info.rho, info.threshold, &shares) == *id,
			"a committee's id is not the hash of its definition"
		);
		Ok(())
	}
}
