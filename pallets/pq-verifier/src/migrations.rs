//! Storage migrations, one module per storage version.

/// To storage version 1: account ids of version 2 (`pq_crypto::account`), and the
/// [`DissolvedCommittees`](crate::DissolvedCommittees) map, which starts empty.
///
/// Version-1 ids of ML-DSA keys were `blake2_256(tag ‖ key)`, and about half of them are
/// Ed25519 keys anyone with a discrete-logarithm oracle can sign for. A key derives a different
/// id now, so an account registered under its version-1 id no longer *is* its key's derived
/// account: this marks it migrated (the registered-key form keeps working for it), makes it
/// accept only that key, which shuts the classical signature out, and records it in
/// [`Version1Accounts`](crate::Version1Accounts), so that rule is never lifted. The registry is the only
/// place a chain knows such accounts from: an account that received funds under its version-1
/// id and never registered its key is a 32-byte hash the chain cannot tell from an Ed25519 key
/// (see `docs/wire-format.md`). Committees it knows all of: what each committee's version-1
/// account holds moves to the account the committee controls now.
pub mod v1 {
	use crate::{
		BalanceOf, Committees, Config, Keys, OnlyRegisteredKey, Pallet, RegisteredKey,
		Version1Accounts,
	};
	#[cfg(feature = "try-runtime")]
	use polkadot_sdk::sp_runtime::TryRuntimeError;
	use polkadot_sdk::{
		frame_support::{
			migrations::VersionedMigration,
			traits::{
				fungible::{Inspect, Mutate},
				tokens::{Fortitude, Preservation},
				Get, UncheckedOnRuntimeUpgrade,
			},
			weights::Weight,
		},
		frame_system,
		sp_runtime::traits::Zero,
	};
	use pq_crypto::AccountSigner;

	/// The registry's accounts of version-1 ids, made migrated accounts that accept only their
	/// key. Runs only from storage version 0, and leaves version 1.
	pub type MigrateToV1<T> = VersionedMigration<
		0,
		1,
		UncheckedMigrateToV1<T>,
		Pallet<T>,
		<T as frame_system::Config>::DbWeight,
	>;

	/// [`MigrateToV1`] without the version check: use that one.
	pub struct UncheckedMigrateToV1<T>(core::marker::PhantomData<T>);

	impl<T: Config> UncheckedOnRuntimeUpgrade for UncheckedMigrateToV1<T> {
		fn on_runtime_upgrade() -> Weight {
			let (mut reads, mut writes) = (0u64, 0u64);
			Keys::<T>::translate::<RegisteredKey<BalanceOf<T>>, _>(|who, mut registered| {
				reads += 1;
				writes += 1;
				let derived_by_version_1 = registered.key.version_1_account_id() == who;
				registered.migrated = registered.key.account_id() != who;
				if derived_by_version_1 && registered.migrated {
					OnlyRegisteredKey::<T>::insert(&who, ());
					Version1Accounts::<T>::insert(&who, ());
					writes += 2;
				}
				Some(registered)
			});
			// A committee controls its account of today; what its version-1 account holds moves
			// there (all of it that can move: a hold or a consumer keeps the rest, as it would
			// for any transfer).
			for (committee, _) in Committees::<T>::iter() {
				reads += 3;
				let (old, new) = (
					AccountSigner::AggregateMlDsa87(committee.clone()).version_1_account_id(),
					committee.account_id(),
				);
				let movable = T::Currency::reducible_balance(
					&old,
					Preservation::Expendable,
					Fortitude::Polite,
				);
				if !movable.is_zero()
					&& T::Currency::transfer(&old, &new, movable, Preservation::Expendable).is_ok()
				{
					writes += 2;
				}
			}
			T::DbWeight::get().reads_writes(reads, writes)
		}

		#[cfg(feature = "try-runtime")]
		fn pre_upgrade() -> Result<alloc::vec::Vec<u8>, TryRuntimeError> {
			use codec::Encode;
			Ok((Keys::<T>::iter().count() as u32).encode())
		}

		#[cfg(feature = "try-runtime")]
		fn post_upgrade(state: alloc::vec::Vec<u8>) -> Result<(), TryRuntimeError> {
			use codec::Decode;
			let keys = u32::decode(&mut &state[..]).map_err(|_| "the pre-upgrade state decodes")?;
			polkadot_sdk::frame_support::ensure!(
				keys == Keys::<T>::iter().count() as u32,
				"the migration lost keys"
			);
			Pallet::<T>::do_try_state()
		}
	}
}

/// To storage version 2: [`CommitteesOwned`](crate::CommitteesOwned), each owner's count of
/// committees, from the committees stored. From then on an owner whose id is an Ed25519 key
/// cannot lift its only-registered-key rule while it owns one
/// ([`Error::PostQuantumRole`](crate::Error::PostQuantumRole)). An owner that lifted it before
/// this version keeps an Ed25519 key that signs for it;
/// [`Pallet::dissolve_committee`](crate::Pallet::dissolve_committee) still refuses such an owner
/// ([`Error::ClassicalOwner`](crate::Error::ClassicalOwner)), and accepting only its key again
/// makes the rule hold from then on.
pub mod v2 {
	use crate::{Committees, CommitteesOwned, Config, Pallet};
	#[cfg(feature = "try-runtime")]
	use polkadot_sdk::sp_runtime::TryRuntimeError;
	use polkadot_sdk::{
		frame_support::{
			migrations::VersionedMigration,
			traits::{Get, UncheckedOnRuntimeUpgrade},
			weights::Weight,
		},
		frame_system,
	};

	/// Counts each owner's committees. Runs only from storage version 1, and leaves version 2.
	pub type MigrateToV2<T> = VersionedMigration<
		1,
		2,
		UncheckedMigrateToV2<T>,
		Pallet<T>,
		<T as frame_system::Config>::DbWeight,
	>;

	/// [`MigrateToV2`] without the version check: use that one.
	pub struct UncheckedMigrateToV2<T>(core::marker::PhantomData<T>);

	impl<T: Config> UncheckedOnRuntimeUpgrade for UncheckedMigrateToV2<T> {
		fn on_runtime_upgrade() -> Weight {
			let (mut reads, mut writes) = (0u64, 0u64);
			for (_, info) in Committees::<T>::iter() {
				reads += 2;
				writes += 1;
				CommitteesOwned::<T>::mutate(&info.owner, |owned| {
					*owned = Some(owned.unwrap_or(0).saturating_add(1));
				});
			}
			T::DbWeight::get().reads_writes(reads, writes)
		}

		#[cfg(feature = "try-runtime")]
		fn pre_upgrade() -> Result<alloc::vec::Vec<u8>, TryRuntimeError> {
			use codec::Encode;
			Ok((Committees::<T>::iter().count() as u32).encode())
		}

		#[cfg(feature = "try-runtime")]
		fn post_upgrade(state: alloc::vec::Vec<u8>) -> Result<(), TryRuntimeError> {
			use codec::Decode;
			let committees =
				u32::decode(&mut &state[..]).map_err(|_| "the pre-upgrade state decodes")?;
			let counted: u32 = CommitteesOwned::<T>::iter_values().sum();
			polkadot_sdk::frame_support::ensure!(
				committees == counted,
				"the migration counted other committees than are stored"
			);
			Pallet::<T>::do_try_state()
		}
	}
}
