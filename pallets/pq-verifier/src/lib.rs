//! # pallet-pq-verifier
//!
//! Post-quantum accounts for a FRAME runtime: ML-DSA keys on chain, transactions signed with
//! ML-DSA-44/65/87 or Ed25519, and migration of existing Ed25519 accounts to ML-DSA.
//!
//! ## Overview
//!
//! An ML-DSA public key is 1.3–2.6 KB and a signature 2.4–4.6 KB, so carrying the key in every
//! transaction costs block space, and verifying costs more than the sr25519 figure stock
//! weights assume. This pallet gives a runtime four things:
//!
//! - a **key registry** ([`Pallet::register_key`], [`Pallet::rotate_key`],
//!   [`Pallet::remove_key`]): an account publishes its ML-DSA key once and holds a deposit for
//!   the bytes it stores; an existing account migrates to ML-DSA by registering a key with a
//!   proof of possession, and can accept only that key from then on, in the same call or later
//!   ([`Pallet::set_only_registered_key`]), through rotations too;
//! - an **extrinsic type** ([`Extrinsic`]) whose signature, [`pq_crypto::TransactionSignature`],
//!   carries the form and the scheme — the key inline, a registered key, or a committee — so
//!   every transaction is an ordinary signed (v4) extrinsic stock clients decode; it refuses
//!   cheaply first, verifies by form ([`authorize`]) and charges each signature what its form
//!   and scheme cost ([`SignatureCheck`]);
//! - **committees** ([`Pallet::create_committee`], [`Pallet::dissolve_committee`]): members
//!   publish aggregate ML-DSA-87 shares with proofs of possession, and any set of at least the
//!   threshold of them signs for the committee's account with one 4,627-byte signature
//!   (the committee form), verified as one ordinary ML-DSA-87 signature under a key
//!   derived from the signers' shares (see [`committee`] and [`pq_crypto::aggregate`]);
//! - **weights** per scheme and form that charge storage reads + key decode + verify (for
//!   committees, also the share reads and the key derivation), measured by this pallet's
//!   benchmarks.
//!
//! Storage layout changed in this release (committee keys are hashed, the key rule has its own
//! map): a chain created before needs a new genesis. No chain with the old layout exists.
//!
//! ## Terminology
//!
//! - **Derived account**: the account a key controls by construction,
//!   [`pq_crypto::AccountSigner::account_id`] (an Ed25519 key is its account; an ML-DSA key's
//!   account is a hash of it).
//! - **Migrated account**: an account with a registered key it is not derived from — an
//!   Ed25519 account that moved to ML-DSA.
//! - **Key inline / key registered / committee**: the forms of a
//!   [`pq_crypto::TransactionSignature`]; each is signed under its own FIPS 204 context
//!   ([`pq_crypto::Purpose`]), so a signature for one form can never be re-encoded as another
//!   to change the fee.
//! - **Transaction statement**: what every form signs
//!   ([`pq_crypto::statement::TransactionStatement`]) — the registered key's account, or the
//!   committee and its exact signer set, then the runtime's standard signed payload (call,
//!   nonce, era, tip, versions, genesis hash).
//! - **Committee account**: [`pq_crypto::AccountSigner::AggregateMlDsa87`]'s account id, a hash
//!   of the committee id, which is itself a hash of `ρ`, the threshold and every share.
//!
//! ## Usage
//!
//! Add the pallet and declare the runtime's extrinsic as [`Extrinsic`], with the stock
//! transaction extensions (nonce, mortality, genesis, payment), which give every form replay
//! protection and bind the fee parameters. [`Config`] and [`Extrinsic`] show both, compiled,
//! from the test runtime (`mock.rs`).
//!
//! A user then signs, with [`pq_signer::signing::Keypair`], the
//! [`TransactionStatement`](pq_crypto::statement::TransactionStatement) of the standard signed
//! payload — with the key inline (any scheme), or once the key is registered, with the
//! registered key (1.3–2.6 KB smaller). `docs/security.md` writes the signed bytes out and
//! lists the attacks each rule stops.
//!
//! ## Assumptions
//!
//! - Accounts are `AccountId32`, and the runtime's extrinsic is [`Extrinsic`]. A key-inline
//!   transaction is signed by the key the account *is* (Ed25519) or is derived from (ML-DSA) —
//!   never by the registered key of a migrated account, whose hash is not the account. That is
//!   how [`authorize`] refuses every key but the registered one for an account that accepts
//!   only it: it refuses the key-inline form for that account.
//! - [`Config::FeeCheck`] answers as the runtime's payment extension will, so a sender that
//!   cannot pay is refused before anything expensive.
//! - [`Config::WeightPerExtrinsicByte`] is what a byte of an extrinsic costs the runtime's
//!   block import ([`MeasuredWeightPerExtrinsicByte`] if it has not measured its own), so long
//!   transactions are charged for their length.
//! - The deposit constants make a registered key cost at least the existential deposit, and
//!   the registry holds a consumer reference, so an account with a key cannot be reaped: the
//!   key, its deposit and the account go away together, through [`Pallet::remove_key`]. The
//!   same holds for a committee's owner and [`Pallet::dissolve_committee`].
//! - The aggregate signing protocol is research cryptography (see [`pq_crypto::aggregate`]);
//!   what this pallet checks — proofs of possession, then one standard FIPS 204 verification —
//!   is standard.

#![cfg_attr(not(feature = "std"), no_std)]

extern crate alloc;

mod authorization;
#[cfg(feature = "runtime-benchmarks")]
mod benchmarking;
mod call_weights;
pub mod committee;
mod extrinsic;
mod fee_check;
mod invalid_transaction;
mod invariants;
mod key_cache;
pub mod migrations;
#[cfg(test)]
mod mock;
pub mod runtime_api;
#[cfg(test)]
mod tests;
mod uncounted_accesses;
pub mod weights;

pub use authorization::{authorize, derivation_weight, FeeCheck, SignatureCheck};
pub use extrinsic::{
	longest_block_length, ChargedExtrinsic, CheckedExtrinsic, Extrinsic, UncheckedExtrinsic,
};
pub use fee_check::TransactionPaymentFeeCheck;
pub use invalid_transaction::PqInvalidTransaction;
pub use pallet::*;
pub use weights::WeightInfo;

/// What each encoded byte of an extrinsic costs a block's import, measured over whole blocks on
/// `pq-runtime`'s pure-Wasm build (24.0 ns, plus 10%: `runtime/src/weights/block_import.rs`,
/// which a test keeps this equal to; `docs/benchmarking.md`): a
/// [`Config::WeightPerExtrinsicByte`] for runtimes that have not measured their own.
pub struct MeasuredWeightPerExtrinsicByte;

impl frame_support::traits::Get<frame_support::weights::Weight> for MeasuredWeightPerExtrinsicByte {
	fn get() -> frame_support::weights::Weight {
		frame_support::weights::Weight::from_parts(26_386, 0)
	}
}

use codec::{Decode, DecodeWithMemTracking, Encode, MaxEncodedLen};
use polkadot_sdk::{frame_support, frame_system, sp_runtime};
use pq_crypto::{AccountSigner, Scheme};
use scale_info::TypeInfo;

/// The proof size the benchmark CLI estimates for reading an entry of a map keyed by a 32-byte
/// account with `Blake2_128Concat` whose value is `value_bytes` long: the entry's hashed key
/// (16 + 32 bytes), its value and, for a map of up to a million entries, five trie layers of 15
/// sibling hashes of 33 bytes.
pub(crate) const fn map_read_proof(value_bytes: u64) -> u64 {
	16 + 32 + value_bytes + 5 * 15 * 33
}

/// A key in the registry.
#[derive(
	Clone, Debug, PartialEq, Eq, Encode, Decode, DecodeWithMemTracking, MaxEncodedLen, TypeInfo,
)]
pub struct RegisteredKey<Balance> {
	/// The ML-DSA public key.
	pub key: AccountSigner,
	/// The deposit held for storing it.
	pub deposit: Balance,
	/// Whether the account is not the key's derived account (it migrated to this key).
	pub migrated: bool,
}

/// A member's entry when a committee is created: its share and the proof that it holds the
/// share's secret key.
#[derive(
	Clone, Debug, PartialEq, Eq, Encode, Decode, DecodeWithMemTracking, MaxEncodedLen, TypeInfo,
)]
pub struct CommitteeMember {
	/// `tᵢ = A·s1ᵢ + s2ᵢ`, packed.
	pub share: pq_crypto::committee::PackedShare,
	/// An ML-DSA-87 signature under the share key over the member's
	/// [`MembershipStatement`](pq_crypto::statement::MembershipStatement) (this chain, the
	/// creator, the committee and the member's seat), for [`pq_crypto::Purpose::CommitteeShare`].
	pub proof: pq_crypto::keys::MlDsa87Signature,
}

/// Supplies what benchmarks need from the runtime.
#[cfg(feature = "runtime-benchmarks")]
pub trait BenchmarkHelper<AccountId> {
	/// Gives `who` enough funds to hold the largest key or committee deposit and pay fees.
	fn endow(who: &AccountId);
}

#[frame_support::pallet]
pub mod pallet {
	use super::*;
	use crate::committee::CommitteeInfo;
	use alloc::boxed::Box;
	use frame_support::{
		pallet_prelude::*,
		traits::{
			fungible::{Inspect, Mutate, MutateHold},
			tokens::{Fortitude, Precision},
			Contains,
		},
	};
	use frame_system::pallet_prelude::*;
	use pq_crypto::{
		aggregate::{CommitteeId, MAX_COMMITTEE_SIZE},
		backend::Backend,
		committee::{committee_id, verify_membership, PackedShare, ShareSum},
		statement::{MembershipStatement, PossessionStatement},
		AccountSignature, Purpose,
	};
	use sp_runtime::{
		traits::{Saturating, Zero},
		AccountId32,
	};

	/// The balance type of [`Config::Currency`].
	pub type BalanceOf<T> = <<T as Config>::Currency as Inspect<AccountId32>>::Balance;

	/// The storage version: 1 added [`DissolvedCommittees`] and version-2 account ids
	/// ([`migrations::v1`](crate::migrations::v1) says what moves); 2 added
	/// [`CommitteesOwned`] ([`migrations::v2`](crate::migrations::v2)).
	const STORAGE_VERSION: StorageVersion = StorageVersion::new(2);

	#[pallet::pallet]
	#[pallet::storage_version(STORAGE_VERSION)]
	pub struct Pallet<T>(_);

	#[pallet::hooks]
	impl<T: Config> Hooks<BlockNumberFor<T>> for Pallet<T> {
		/// The invariants of [`Pallet::do_try_state`].
		#[cfg(feature = "try-runtime")]
		fn try_state(_block: BlockNumberFor<T>) -> Result<(), sp_runtime::TryRuntimeError> {
			Self::do_try_state()
		}
	}

	/// The pallet's configuration. From the test runtime:
	#[doc = docify::embed!("src/mock.rs", config_example)]
	#[pallet::config]
	pub trait Config: polkadot_sdk::frame_system::Config<AccountId = AccountId32> {
		/// Verifies every signature: a `pq_crypto` backend. `Host` (the node's host functions)
		/// is the fastest measured but runs only on nodes that provide them; `Libcrux` is the
		/// fastest in Wasm. Changing it changes speed only; all backends accept exactly the same
		/// signatures.
		type Backend: Backend;

		/// Holds key deposits (and moves a committee's funds to its account of today in the
		/// migration to storage version 1).
		type Currency: MutateHold<AccountId32, Reason = Self::RuntimeHoldReason>
			+ Mutate<AccountId32>;

		/// The runtime's hold reasons, of which [`HoldReason`] is part.
		type RuntimeHoldReason: From<HoldReason>;

		/// Deposit for registering any key or creating a committee.
		#[pallet::constant]
		type KeyDepositBase: Get<BalanceOf<Self>>;

		/// Deposit per byte of a stored key or committee (record and shares).
		#[pallet::constant]
		type KeyDepositPerByte: Get<BalanceOf<Self>>;

		/// Bytes of decoded keys kept for repeat signers during one runtime call (one block);
		/// 0 disables the cache. A decoded ML-DSA-87 key of the RustCrypto backend is ~72 KiB;
		/// libcrux keeps only the encoded key. Speed only: weights always charge a decode.
		#[pallet::constant]
		type KeyCacheBytes: Get<u32>;

		/// Whether an account can pay a transaction's fee. [`authorize`] asks before it
		/// verifies a signature (for a committee, before it reads any share), so a transaction
		/// from an account that cannot pay costs a node a balance read, not a verification.
		/// The runtime's payment pallet answers (see `docs/pallet.md`); `()` checks nothing.
		type FeeCheck: FeeCheck<Self::RuntimeCall>;

		/// Accounts the runtime gives a role no classical key may hold — Root's, through the
		/// sudo key, say. Such an account whose id is an Ed25519 key, once it accepts only its
		/// registered key, may not lift that rule ([`Pallet::set_only_registered_key`]) nor
		/// remove its key ([`Pallet::remove_key`]): [`Error::PostQuantumRole`]. Otherwise its
		/// Ed25519 key would sign for the role again, for whoever takes that key's discrete
		/// logarithm. Committee owners are held to this by the pallet itself
		/// ([`CommitteesOwned`]). This keeps a role post-quantum only if the runtime also refuses
		/// to give it to an account a classical key signs for ([`Pallet::classical_key_signs_for`]),
		/// as pq-runtime's call filter and genesis do for the sudo key. Asked only when such an
		/// account lifts its rule; its reads are part of those calls' benchmarks (one read is
		/// charged beside the weights committed before it). `Nothing` for a runtime with no
		/// such role.
		type PostQuantumRoles: Contains<AccountId32>;

		/// Weights of calls and of each signature's check, from this pallet's benchmarks.
		type WeightInfo: WeightInfo;

		/// Weight of each encoded byte of an extrinsic of this pallet's [`Extrinsic`] type,
		/// charged with its signature: what importing a block does per byte of a transaction
		/// (decoding it, encoding it again for its length and signed payload, keeping it for the
		/// extrinsics root and hashing it there), which no benchmark of a call or a signature
		/// check sees — ML-DSA transactions are 17–50 times an Ed25519 one's length. Measured
		/// at block level (`benchmarking/charge-check.sh --calibrate`, `docs/benchmarking.md`);
		/// `()` charges nothing.
		type WeightPerExtrinsicByte: Get<Weight>;

		/// Runtime hooks the benchmarks need.
		#[cfg(feature = "runtime-benchmarks")]
		type BenchmarkHelper: BenchmarkHelper<AccountId32>;
	}

	/// Why this pallet holds funds.
	#[pallet::composite_enum]
	pub enum HoldReason {
		/// The deposit for a registered key.
		KeyDeposit,
		/// The deposit for a committee's record and shares.
		CommitteeDeposit,
	}

	/// Registered post-quantum keys, by account.
	#[pallet::storage]
	pub type Keys<T: Config> =
		StorageMap<_, Blake2_128Concat, AccountId32, RegisteredKey<BalanceOf<T>>>;

	/// Migrated accounts that accept only their registered key: every other key — the old
	/// Ed25519 key, or the ML-DSA key the account is derived from — is refused in every form.
	/// Apart from [`Keys`], so the check every ordinary signed extrinsic makes reads a few bytes
	/// rather than a 2.6 KB key. An entry implies a migrated [`Keys`] entry.
	#[pallet::storage]
	pub type OnlyRegisteredKey<T: Config> = StorageMap<_, Blake2_128Concat, AccountId32, ()>;

	/// Accounts of a version-1 id of their registered key, as the migration to storage version
	/// 1 found them ([`migrations::v1`](crate::migrations::v1)): no key derives such an account
	/// any more, so its registered key, alone, is all that signs for it. That key can be
	/// rotated, never removed, and the only-key rule never lifted: either would leave the
	/// account to no one, or — its id being an Ed25519 key about half the time — to whoever
	/// takes discrete logarithms. Empty on a chain that started at version 1.
	#[pallet::storage]
	pub type Version1Accounts<T: Config> = StorageMap<_, Blake2_128Concat, AccountId32, ()>;

	/// Committees whose members sign together with aggregate ML-DSA-87, by id. Ids are hashes
	/// their creator can grind; the keys are hashed again all the same, as FRAME does for every
	/// key a user influences (see `docs/security.md`).
	#[pallet::storage]
	pub type Committees<T: Config> =
		StorageMap<_, Blake2_128Concat, CommitteeId, CommitteeInfo<BalanceOf<T>>>;

	/// How many committees each account owns; no entry for none. An owner keeps a key no
	/// classical key replaces while it owns any ([`Error::PostQuantumRole`]): the owner decides
	/// when a committee ends, and [`Pallet::dissolve_committee`] refuses an owner an Ed25519 key
	/// signs for.
	#[pallet::storage]
	pub type CommitteesOwned<T: Config> = StorageMap<_, Blake2_128Concat, AccountId32, u32>;

	/// Ids of dissolved committees, which can never be created again: the proofs that created
	/// one stay on chain, so without this its creator could bring back the committee its
	/// members dissolved — with every share, including those the dissolution meant to retire.
	/// Each entry's bytes are paid for by the part of the committee deposit that dissolution
	/// burns ([`Pallet::tombstone_deposit`]).
	#[pallet::storage]
	pub type DissolvedCommittees<T: Config> = StorageMap<_, Blake2_128Concat, CommitteeId, ()>;

	/// Every committee member's share, by committee and member index. Read per signature only
	/// for the members a signer set needs (see [`committee`](crate::committee)).
	#[pallet::storage]
	pub type CommitteeShares<T: Config> =
		StorageDoubleMap<_, Blake2_128Concat, CommitteeId, Twox64Concat, u32, PackedShare>;

	#[pallet::event]
	#[pallet::generate_deposit(pub(super) fn deposit_event)]
	pub enum Event<T: Config> {
		/// `who` registered a key it is derived from.
		KeyRegistered {
			/// The account.
			who: AccountId32,
			/// The key's scheme.
			scheme: Scheme,
			/// The deposit held.
			deposit: BalanceOf<T>,
		},
		/// `who` proved possession of a key it is not derived from and migrated to it.
		AccountMigrated {
			/// The account.
			who: AccountId32,
			/// The new key's scheme.
			scheme: Scheme,
			/// The deposit held.
			deposit: BalanceOf<T>,
		},
		/// `who` replaced its registered key in one call; the deposit now held is `deposit`.
		KeyRotated {
			/// The account.
			who: AccountId32,
			/// The new key's scheme.
			scheme: Scheme,
			/// The deposit held for the new key.
			deposit: BalanceOf<T>,
		},
		/// `who` removed its key; the deposit was released.
		KeyRemoved {
			/// The account.
			who: AccountId32,
			/// The deposit released.
			deposit: BalanceOf<T>,
		},
		/// `owner` created a committee; aggregate signatures of its members now control `account`.
		CommitteeCreated {
			/// The committee's id.
			committee: CommitteeId,
			/// The account the committee controls.
			account: AccountId32,
			/// The creator, who holds the deposit.
			owner: AccountId32,
			/// Number of members.
			size: u32,
			/// Fewest signers an aggregate signature must name.
			threshold: u32,
			/// The deposit held.
			deposit: BalanceOf<T>,
		},
		/// The owner dissolved a committee whose account was empty; its deposit was released
		/// but for the part that pays for its tombstone, burned. The id can never be created
		/// again.
		CommitteeDissolved {
			/// The committee's id.
			committee: CommitteeId,
			/// The deposit released.
			deposit: BalanceOf<T>,
			/// The deposit burned for the tombstone ([`DissolvedCommittees`]).
			burned: BalanceOf<T>,
		},
		/// `who` changed whether only its registered key may sign for it.
		OnlyRegisteredKeySet {
			/// The account.
			who: AccountId32,
			/// Whether every other key is now refused.
			enabled: bool,
		},
	}

	#[pallet::error]
	pub enum Error<T> {
		/// Only ML-DSA-44/65/87 keys can be registered (Ed25519 keys are their own account;
		/// committees have their own registry).
		UnsupportedScheme,
		/// The account already has a key; remove it first.
		AlreadyRegistered,
		/// The account has no registered key.
		NotRegistered,
		/// The key does not derive the account, so a proof of possession is required.
		ProofRequired,
		/// The proof of possession does not verify for this key, account and chain.
		InvalidProof,
		/// The account cannot hold the key deposit.
		InsufficientBalance,
		/// Only a migrated account can accept its registered key alone: a derived account's
		/// registered key is the key it is derived from.
		NotMigrated,
		/// A committee needs at least one member, and a threshold from 1 to its size.
		InvalidThreshold,
		/// A committee with this definition (seed, threshold and shares) already exists.
		CommitteeExists,
		/// A share is not a vector mod `q` (a coefficient is not below `q`).
		InvalidShare,
		/// A member's proof of possession does not verify for its share, seat and committee.
		InvalidMembershipProof,
		/// No committee has this id.
		UnknownCommittee,
		/// Only the committee's owner can dissolve it.
		NotCommitteeOwner,
		/// This committee was dissolved; its id can never be created again.
		CommitteeDissolved,
		/// The committee's account holds funds: dissolving would strand them (no one could sign
		/// for it any more). The committee moves them out first.
		CommitteeAccountNotEmpty,
		/// The account is a version-1 id of its key ([`Version1Accounts`]): its key signs for it
		/// alone, so it cannot be removed, nor that rule lifted.
		Version1Account,
		/// A committee's owner must be an account no classical key signs for — an ML-DSA
		/// key's or a committee's account, or a migrated account that accepts only its
		/// registered key — as the owner decides when the committee ends: an Ed25519 key would
		/// let whoever takes its discrete logarithm dissolve the committee, and, the moment its
		/// account is empty, strand what is being sent to it.
		ClassicalOwner,
		/// The account's id is an Ed25519 key and it holds a role no classical key may hold —
		/// it owns a committee ([`CommitteesOwned`]), or the runtime names it
		/// ([`Config::PostQuantumRoles`], the sudo key on pq-runtime) — so it cannot remove its
		/// key or lift its only-registered-key rule: its Ed25519 key would sign for it again.
		/// It gives up the role first (dissolves its committees; the sudo key moves).
		PostQuantumRole,
	}

	#[pallet::call]
	impl<T: Config> Pallet<T> {
		/// Registers `key` for the sender and holds a deposit for it.
		///
		/// If the sender is not `key`'s derived account (migrating an existing account),
		/// `proof` must be a signature by `key`, for [`Purpose::ProofOfPossession`], over the
		/// [`PossessionStatement`](pq_crypto::statement::PossessionStatement) naming the sender
		/// and this chain's genesis hash. A migration with `only_registered_key` completes in
		/// this one call: from the next transaction on, no other key signs for the account (see
		/// [`Pallet::set_only_registered_key`]), so the old key cannot race to remove the new one.
		#[pallet::call_index(0)]
		#[pallet::weight(call_weights::registration::<T::WeightInfo>())]
		pub fn register_key(
			origin: OriginFor<T>,
			key: Box<AccountSigner>,
			proof: Option<Box<AccountSignature>>,
			only_registered_key: bool,
		) -> DispatchResultWithPostInfo {
			let (key, proof) = (*key, proof.map(|proof| *proof));
			let who = ensure_signed(origin)?;
			ensure!(!Keys::<T>::contains_key(&who), Error::<T>::AlreadyRegistered);
			let (migrated, candidates) = Self::check_possession(&who, &key, proof)?;
			ensure!(migrated || !only_registered_key, Error::<T>::NotMigrated);

			let deposit = Self::deposit_for(&key);
			T::Currency::hold(&HoldReason::KeyDeposit.into(), &who, deposit)
				.map_err(|_| Error::<T>::InsufficientBalance)?;
			frame_system::Pallet::<T>::inc_consumers(&who)?;
			let scheme = key.scheme();
			Keys::<T>::insert(&who, RegisteredKey { key, deposit, migrated });

			if migrated {
				Self::deposit_event(Event::AccountMigrated { who: who.clone(), scheme, deposit });
				if only_registered_key {
					OnlyRegisteredKey::<T>::insert(&who, ());
					Self::deposit_event(Event::OnlyRegisteredKeySet { who, enabled: true });
				}
			} else {
				Self::deposit_event(Event::KeyRegistered { who, scheme, deposit });
			}
			Ok(Some(call_weights::registered::<T::WeightInfo>(migrated, candidates)).into())
		}

		/// Removes the sender's key and releases its deposit. An account that accepted only
		/// this key accepts its other keys again; to change keys without that, use
		/// [`Pallet::rotate_key`].
		#[pallet::call_index(1)]
		#[pallet::weight(T::WeightInfo::remove_key().saturating_add(
			Pallet::<T>::uncounted_weight(crate::uncounted_accesses::REMOVE_KEY)
		))]
		pub fn remove_key(origin: OriginFor<T>) -> DispatchResult {
			let who = ensure_signed(origin)?;
			Self::ensure_rule_may_lift(&who)?;
			let registered = Keys::<T>::take(&who).ok_or(Error::<T>::NotRegistered)?;
			let released = T::Currency::release(
				&HoldReason::KeyDeposit.into(),
				&who,
				registered.deposit,
				Precision::BestEffort,
			)?;
			frame_system::Pallet::<T>::dec_consumers(&who);
			if OnlyRegisteredKey::<T>::take(&who).is_some() {
				Self::deposit_event(Event::OnlyRegisteredKeySet {
					who: who.clone(),
					enabled: false,
				});
			}
			Self::deposit_event(Event::KeyRemoved { who, deposit: released });
			Ok(())
		}

		/// Sets whether only the sender's registered key may sign for it from now on. The
		/// sender must be a migrated account; when enabled, every other key — its Ed25519 key
		/// or the ML-DSA key it is derived from, as an ordinary signed extrinsic or key inline —
		/// is refused with [`PqInvalidTransaction::OnlyRegisteredKey`]. Removing the key
		/// ([`Pallet::remove_key`]) ends it; rotating it ([`Pallet::rotate_key`]) keeps it.
		#[pallet::call_index(2)]
		#[pallet::weight(T::WeightInfo::set_only_registered_key().saturating_add(if *enabled {
			Weight::zero()
		} else {
			Pallet::<T>::uncounted_weight(crate::uncounted_accesses::SET_ONLY_REGISTERED_KEY)
		}))]
		pub fn set_only_registered_key(origin: OriginFor<T>, enabled: bool) -> DispatchResult {
			let who = ensure_signed(origin)?;
			let registered = Keys::<T>::get(&who).ok_or(Error::<T>::NotRegistered)?;
			ensure!(registered.migrated, Error::<T>::NotMigrated);
			if enabled {
				OnlyRegisteredKey::<T>::insert(&who, ());
			} else {
				Self::ensure_rule_may_lift(&who)?;
				OnlyRegisteredKey::<T>::remove(&who);
			}
			Self::deposit_event(Event::OnlyRegisteredKeySet { who, enabled });
			Ok(())
		}

		/// Replaces the sender's registered key with `key` in one call, adjusting the deposit.
		/// `proof` is required as for [`Pallet::register_key`]. An account that accepts only its
		/// registered key keeps doing so, with the new key — unless `key` is the account's own
		/// derived key, which needs no such rule — so no other key is accepted in between. With
		/// `only_registered_key` (for a `key` that does not derive the account), the account
		/// accepts only the new key from the next transaction on, whatever it accepted before:
		/// rotating away from the key the account is derived from, that key cannot race to undo
		/// the rotation, as it could before a second call set the rule.
		#[pallet::call_index(5)]
		#[pallet::weight(call_weights::rotation::<T::WeightInfo>(*only_registered_key))]
		pub fn rotate_key(
			origin: OriginFor<T>,
			key: Box<AccountSigner>,
			proof: Option<Box<AccountSignature>>,
			only_registered_key: bool,
		) -> DispatchResultWithPostInfo {
			let (key, proof) = (*key, proof.map(|proof| *proof));
			let who = ensure_signed(origin)?;
			let old = Keys::<T>::get(&who).ok_or(Error::<T>::NotRegistered)?;
			let (migrated, candidates) = Self::check_possession(&who, &key, proof)?;
			ensure!(migrated || !only_registered_key, Error::<T>::NotMigrated);
			if !migrated {
				// The key derives the account, which needs no rule (no Ed25519 key signs for a
				// derived account): checked all the same, as every lifting of the rule is. This
				// branch reads the rule and `Version1Accounts`, which the benchmarked rotation (to
				// a migrated key) does not, but neither the genesis hash nor verifies a proof.
				Self::ensure_rule_may_lift(&who)?;
			}

			let deposit = Self::deposit_for(&key);
			let reason = HoldReason::KeyDeposit.into();
			if deposit > old.deposit {
				T::Currency::hold(&reason, &who, deposit - old.deposit)
					.map_err(|_| Error::<T>::InsufficientBalance)?;
			} else if deposit < old.deposit {
				T::Currency::release(&reason, &who, old.deposit - deposit, Precision::Exact)?;
			}
			let scheme = key.scheme();
			Keys::<T>::insert(&who, RegisteredKey { key, deposit, migrated });
			if !migrated && OnlyRegisteredKey::<T>::take(&who).is_some() {
				Self::deposit_event(Event::OnlyRegisteredKeySet {
					who: who.clone(),
					enabled: false,
				});
			}
			Self::deposit_event(Event::KeyRotated { who: who.clone(), scheme, deposit });
			if only_registered_key && !OnlyRegisteredKey::<T>::contains_key(&who) {
				OnlyRegisteredKey::<T>::insert(&who, ());
				Self::deposit_event(Event::OnlyRegisteredKeySet { who, enabled: true });
			}
			let rotated = call_weights::rotated::<T::WeightInfo>;
			Ok(Some(rotated(only_registered_key, candidates)).into())
		}

		/// Creates a committee whose members, at least `threshold` of them at a time, sign for
		/// its account with one aggregate ML-DSA-87 signature. The sender holds a deposit for
		/// its record and shares.
		///
		/// Each member's proof must verify under its share key over its
		/// [`MembershipStatement`](pq_crypto::statement::MembershipStatement), which names this
		/// chain, the sender, the member's seat and the committee id computed from `rho`,
		/// `threshold` and the shares: a share chosen to cancel others (a rogue key) has no
		/// secret key to prove, and a creation copied from another sender or chain fails.
		#[pallet::call_index(3)]
		#[pallet::weight(
			T::WeightInfo::create_committee(members.len() as u32)
				.saturating_add(Pallet::<T>::owner_check_weight())
				.saturating_add(Pallet::<T>::uncounted_weight(crate::uncounted_accesses::COMMITTEE))
		)]
		pub fn create_committee(
			origin: OriginFor<T>,
			rho: [u8; 32],
			threshold: u32,
			members: BoundedVec<crate::CommitteeMember, ConstU32<MAX_COMMITTEE_SIZE>>,
		) -> DispatchResult {
			let owner = ensure_signed(origin)?;
			ensure!(!Self::classical_key_signs_for(&owner), Error::<T>::ClassicalOwner);
			let size = members.len() as u32;
			ensure!(threshold >= 1 && threshold <= size, Error::<T>::InvalidThreshold);
			let committee =
				committee_id(&rho, threshold, members.iter().map(|member| &member.share));
			ensure!(!Committees::<T>::contains_key(&committee), Error::<T>::CommitteeExists);
			ensure!(
				!DissolvedCommittees::<T>::contains_key(&committee),
				Error::<T>::CommitteeDissolved
			);

			let genesis_hash = Self::genesis_hash();
			let mut sum = ShareSum::default();
			for (index, member) in (0u32..).zip(&members) {
				sum.add(&member.share).map_err(|_| Error::<T>::InvalidShare)?;
				let statement = MembershipStatement {
					genesis_hash,
					owner: &owner,
					committee: &committee,
					member: index,
				};
				verify_membership::<T::Backend, _>(&rho, &member.share, &statement, &member.proof)
					.map_err(|_| Error::<T>::InvalidMembershipProof)?;
			}

			let shares = members.into_iter().map(|member| member.share);
			Self::store_committee(owner, committee, rho, threshold, shares, sum)
		}

		/// Dissolves a committee the sender owns, once its account is empty: its record and
		/// shares are removed, its id kept so that it can never be created again, and the
		/// deposit released but for [`Pallet::tombstone_deposit`], burned to pay for that.
		#[pallet::call_index(4)]
		#[pallet::weight(
			T::WeightInfo::dissolve_committee(MAX_COMMITTEE_SIZE)
				.saturating_add(Pallet::<T>::owner_check_weight())
				.saturating_add(Pallet::<T>::uncounted_weight(crate::uncounted_accesses::COMMITTEE))
		)]
		pub fn dissolve_committee(
			origin: OriginFor<T>,
			committee: CommitteeId,
		) -> DispatchResultWithPostInfo {
			let who = ensure_signed(origin)?;
			let info = Committees::<T>::get(&committee).ok_or(Error::<T>::UnknownCommittee)?;
			ensure!(info.owner == who, Error::<T>::NotCommitteeOwner);
			// Again, as the owner may have let its Ed25519 key sign again since the creation.
			ensure!(!Self::classical_key_signs_for(&who), Error::<T>::ClassicalOwner);
			ensure!(
				T::Currency::total_balance(&committee.account_id()).is_zero(),
				Error::<T>::CommitteeAccountNotEmpty
			);
			let _ = CommitteeShares::<T>::clear_prefix(&committee, info.size, None);
			Committees::<T>::remove(&committee);
			DissolvedCommittees::<T>::insert(&committee, ());
			let reason = HoldReason::CommitteeDeposit.into();
			let burned = T::Currency::burn_held(
				&reason,
				&who,
				Self::tombstone_deposit().min(info.deposit),
				Precision::BestEffort,
				Fortitude::Force,
			)?;
			let released = T::Currency::release(
				&reason,
				&who,
				info.deposit.saturating_sub(burned),
				Precision::BestEffort,
			)?;
			CommitteesOwned::<T>::mutate_exists(&who, |owned| {
				*owned = owned.and_then(|owned| owned.checked_sub(1)).filter(|owned| *owned > 0);
			});
			frame_system::Pallet::<T>::dec_consumers(&who);
			Self::deposit_event(Event::CommitteeDissolved { committee, deposit: released, burned });
			let weight = T::WeightInfo::dissolve_committee(info.size)
				.saturating_add(Self::owner_check_weight())
				.saturating_add(Self::uncounted_weight(crate::uncounted_accesses::COMMITTEE));
			Ok(Some(weight).into())
		}
	}

	impl<T: Config> Pallet<T> {
		/// Holds the owner's deposit and stores a committee whose shares were checked;
		/// `share_sum` is their sum.
		pub(crate) fn store_committee(
			owner: AccountId32,
			committee: CommitteeId,
			rho: [u8; 32],
			threshold: u32,
			shares: impl ExactSizeIterator<Item = PackedShare>,
			share_sum: ShareSum,
		) -> DispatchResult {
			let size = shares.len() as u32;
			let deposit = Self::committee_deposit(size);
			T::Currency::hold(&HoldReason::CommitteeDeposit.into(), &owner, deposit)
				.map_err(|_| Error::<T>::InsufficientBalance)?;
			frame_system::Pallet::<T>::inc_consumers(&owner)?;
			CommitteesOwned::<T>::mutate(&owner, |owned| {
				*owned = Some(owned.unwrap_or(0).saturating_add(1));
			});
			for (index, share) in (0u32..).zip(shares) {
				CommitteeShares::<T>::insert(&committee, index, share);
			}
			let share_sum = share_sum.pack();
			Committees::<T>::insert(
				&committee,
				CommitteeInfo { rho, size, threshold, owner: owner.clone(), deposit, share_sum },
			);
			let account = committee.account_id();
			Self::deposit_event(Event::CommitteeCreated {
				committee,
				account,
				owner,
				size,
				threshold,
				deposit,
			});
			Ok(())
		}

		/// The deposit for a committee of `size` members: base plus per byte of its record and
		/// shares (which covers its tombstone's bytes too).
		pub fn committee_deposit(size: u32) -> BalanceOf<T> {
			let share_entry =
				(CommitteeId::max_encoded_len() + 4 + PackedShare::max_encoded_len()) as u32;
			let bytes = (CommitteeInfo::<BalanceOf<T>>::max_encoded_len() as u32)
				.saturating_add(size.saturating_mul(share_entry));
			T::KeyDepositBase::get()
				.saturating_add(T::KeyDepositPerByte::get().saturating_mul(bytes.into()))
		}

		/// The part of a committee's deposit that dissolving it burns: the bytes of its entry in
		/// [`DissolvedCommittees`], which stays forever — its whole storage key (pallet and map
		/// prefixes, the id's hash and the id: 80 bytes), the value being empty.
		pub fn tombstone_deposit() -> BalanceOf<T> {
			let entry_bytes = DissolvedCommittees::<T>::hashed_key_for(CommitteeId([0; 32])).len();
			T::KeyDepositPerByte::get().saturating_mul((entry_bytes as u32).into())
		}

		/// The deposit for storing `key`: base plus per byte of its registry entry.
		pub fn deposit_for(key: &AccountSigner) -> BalanceOf<T> {
			let bytes = RegisteredKey::<BalanceOf<T>>::max_encoded_len()
				.saturating_sub(AccountSigner::max_encoded_len())
				.saturating_add(key.encoded_size()) as u32;
			T::KeyDepositBase::get()
				.saturating_add(T::KeyDepositPerByte::get().saturating_mul(bytes.into()))
		}

		/// The hash of this chain's genesis block, which every statement signed here names.
		pub fn genesis_hash() -> T::Hash {
			frame_system::Pallet::<T>::block_hash(BlockNumberFor::<T>::zero())
		}

		/// The encoded [`PossessionStatement`] a proof of possession for `who` signs.
		pub fn possession_statement(who: &AccountId32) -> alloc::vec::Vec<u8> {
			PossessionStatement { genesis_hash: Self::genesis_hash(), account: who }.encode()
		}

		/// Verifies `signature` by `signer` over `message` in `domain` with [`Config::Backend`]:
		/// what [`runtime_api::PqVerifierApi`](crate::runtime_api::PqVerifierApi) answers.
		pub fn verify_signature(
			signer: &AccountSigner,
			signature: &AccountSignature,
			message: &[u8],
			domain: &pq_crypto::Domain,
		) -> Result<(), pq_crypto::VerifyError> {
			signature.verify_in_domain::<T::Backend>(signer, message, domain)
		}

		/// Verifies each `(signer, signature, message, purpose)` with [`Config::Backend`] through
		/// the in-call decoded-key cache, as transactions are checked: what
		/// [`runtime_api::PqVerifierApi::verify_signatures`](crate::runtime_api::PqVerifierApi::verify_signatures)
		/// answers.
		pub fn verify_signatures(
			checks: &[(AccountSigner, AccountSignature, alloc::vec::Vec<u8>, Purpose)],
		) -> alloc::vec::Vec<Result<(), pq_crypto::VerifyError>> {
			key_cache::with_cache::<T::Backend, _>(T::KeyCacheBytes::get(), |cache| {
				checks
					.iter()
					.map(|(signer, signature, message, purpose)| {
						cache.verify(signer, signature, message, *purpose)
					})
					.collect()
			})
		}

		/// Whether only `who`'s registered key may sign for it (it migrated and opted in).
		pub fn only_registered_key(who: &AccountId32) -> bool {
			OnlyRegisteredKey::<T>::contains_key(who)
		}

		/// What [`Self::classical_key_signs_for`] costs at most: a Legendre symbol (charged as a
		/// derivation candidate, whose hash it does not compute) and a read of
		/// [`OnlyRegisteredKey`] (no value), with its estimated proof size
		/// (`map_read_proof`). The committee calls' benchmarks have owners that are no curve
		/// point, so they measure less of it.
		pub fn owner_check_weight() -> Weight {
			T::WeightInfo::account_candidates(1)
				.saturating_add(T::DbWeight::get().reads(1))
				.saturating_add(Weight::from_parts(0, map_read_proof(0)))
		}

		/// Whether an Ed25519 key signs for `who`: its id is an edwards25519 encoding (under the
		/// permissive rule every derived id is kept out of) and it does not accept only its
		/// registered key. Reads storage only for such ids.
		pub fn classical_key_signs_for(who: &AccountId32) -> bool {
			pq_crypto::account::edwards::decodes_as_point(who.as_ref())
				&& !Self::only_registered_key(who)
		}

		/// Checks that `who` may stop accepting only its registered key (by lifting the rule,
		/// removing the key, or rotating to a key that derives it): not a version-1 account
		/// ([`Version1Accounts`]), and not an account an Ed25519 key would then sign for while
		/// it holds a post-quantum role — a committee it owns, or one the runtime names
		/// ([`Config::PostQuantumRoles`]). Reads only the rule for an account that does not accept
		/// only its registered key (its other keys sign for it already), and only the rule and
		/// the version-1 map for an id that is no curve point.
		fn ensure_rule_may_lift(who: &AccountId32) -> Result<(), Error<T>> {
			if !Self::only_registered_key(who) {
				return Ok(());
			}
			ensure!(!Version1Accounts::<T>::contains_key(who), Error::<T>::Version1Account);
			let role =
				|| CommitteesOwned::<T>::contains_key(who) || T::PostQuantumRoles::contains(who);
			ensure!(
				!(pq_crypto::account::edwards::decodes_as_point(who.as_ref()) && role()),
				Error::<T>::PostQuantumRole
			);
			Ok(())
		}

		/// Checks that `key` may be registered for `who`: an ML-DSA key, and, unless it is
		/// `who`'s derived key, `proof` of its possession for `who` on this chain. Whether `who`
		/// migrates (the key does not derive it), and how many candidates deriving the key's
		/// account tried ([`call_weights::key_derivation`] charges them).
		fn check_possession(
			who: &AccountId32,
			key: &AccountSigner,
			proof: Option<AccountSignature>,
		) -> Result<(bool, u32), Error<T>> {
			ensure!(key.scheme().is_registerable(), Error::<T>::UnsupportedScheme);
			let (derived, candidates) = key.account_derivation();
			let migrated = derived != *who;
			if migrated {
				let proof = proof.ok_or(Error::<T>::ProofRequired)?;
				proof
					.verify::<T::Backend>(
						key,
						&Self::possession_statement(who),
						Purpose::ProofOfPossession,
					)
					.map_err(|_| Error::<T>::InvalidProof)?;
			}
			Ok((migrated, candidates))
		}
	}
}
