//! Pallet configurations.

use crate::*;
use codec::DecodeAll;
use polkadot_sdk::{
	frame_support::{
		derive_impl,
		dispatch::DispatchClass,
		parameter_types,
		traits::{
			ConstBool, ConstU128, ConstU16, ConstU32, ConstU64, ConstU8, Contains, OnTimestampSet,
		},
		weights::{
			constants::{BlockExecutionWeight, WEIGHT_REF_TIME_PER_SECOND},
			IdentityFee, Weight,
		},
	},
	frame_system::limits::{BlockLength, BlockWeights},
	pallet_transaction_payment::{ConstFeeMultiplier, FungibleAdapter, Multiplier},
	sp_consensus_aura::{Slot, AURA_ENGINE_ID},
	sp_runtime::{traits::One, MultiAddress, Perbill},
};

/// A quarter of each block's weight is reserved for operational transactions.
const NORMAL_DISPATCH_RATIO: Perbill = Perbill::from_percent(75);
/// 5 MiB per block.
pub const MAXIMUM_BLOCK_LENGTH: u32 = 5 * 1024 * 1024;
/// Two seconds of compute per block.
const MAXIMUM_BLOCK_WEIGHT: Weight =
	Weight::from_parts(WEIGHT_REF_TIME_PER_SECOND.saturating_mul(2), u64::MAX);

parameter_types! {
	pub const Version: RuntimeVersion = VERSION;

	/// Each transaction's fixed cost, measured over whole blocks of this build: an
	/// Ed25519-signed empty remark's import (its extensions included, which therefore charge
	/// nothing of their own: `InExtrinsicBase`) less the Ed25519 verification the extrinsic
	/// type charges with every Ed25519 signature; each transaction's signature is charged by
	/// its form and scheme, and its bytes, through the extrinsic type
	/// (`pallet_pq_verifier::Extrinsic`).
	pub RuntimeBlockWeights: BlockWeights = BlockWeights::builder()
		.base_block(BlockExecutionWeight::get())
		.for_class(DispatchClass::all(), |weights| {
			weights.base_extrinsic = IMPORT_COSTS
				.signed_remark
				.saturating_sub(<PqVerifierWeights as pallet_pq_verifier::WeightInfo>::verify_signed_ed25519());
		})
		.for_class(DispatchClass::Normal, |weights| {
			weights.max_total = Some(NORMAL_DISPATCH_RATIO * MAXIMUM_BLOCK_WEIGHT);
		})
		.for_class(DispatchClass::Operational, |weights| {
			weights.max_total = Some(MAXIMUM_BLOCK_WEIGHT);
			weights.reserved = Some(MAXIMUM_BLOCK_WEIGHT - NORMAL_DISPATCH_RATIO * MAXIMUM_BLOCK_WEIGHT);
		})
		.avg_block_initialization(Perbill::from_percent(10))
		.build_or_panic();

	/// 5 MiB blocks: an ML-DSA-87 transfer with its key inline is ~7.4 KB.
	pub RuntimeBlockLength: BlockLength =
		BlockLength::builder()
			.max_length(MAXIMUM_BLOCK_LENGTH)
			.modify_max_length_for_class(DispatchClass::Normal, |max| *max = NORMAL_DISPATCH_RATIO * *max)
			.build();
}

#[derive_impl(frame_system::config_preludes::SolochainDefaultConfig)]
impl frame_system::Config for Runtime {
	type Block = Block;
	type BlockWeights = RuntimeBlockWeights;
	type BlockLength = RuntimeBlockLength;
	type AccountId = AccountId;
	type Nonce = Nonce;
	type Hash = Hash;
	type BlockHashCount = ConstU32<2400>;
	/// This node's ParityDB, measured by `pq-node benchmark storage`.
	type DbWeight = crate::weights::paritydb_weights::ParityDbWeight;
	type SystemWeightInfo = crate::weights::frame_system::SubstrateWeight<Runtime>;
	type ExtensionsWeightInfo = crate::weights::InExtrinsicBase;
	type Version = Version;
	type AccountData = pallet_balances::AccountData<Balance>;
	type SS58Prefix = ConstU16<42>;
	type MaxConsumers = ConstU32<16>;
	/// Storage migrations, each run once from the storage version it expects.
	type SingleBlockMigrations = (
		pallet_pq_verifier::migrations::v1::MigrateToV1<Runtime>,
		pallet_pq_verifier::migrations::v2::MigrateToV2<Runtime>,
	);
	type BaseCallFilter = NoClassicalSudoKey;
}

/// Every call but the sudo key handing itself to an account an Ed25519 key signs for: Root
/// acts for every account, so a classical sudo key would give a quantum attacker all of them.
/// Genesis refuses one too ([`crate::genesis_config_presets::build_state`]). Root itself is not
/// filtered (`sudo(set_key(…))` bypasses the filter, as every Root call does): whoever holds
/// the sudo key can still do anything, this one included.
pub struct NoClassicalSudoKey;

impl Contains<RuntimeCall> for NoClassicalSudoKey {
	fn contains(call: &RuntimeCall) -> bool {
		match call {
			RuntimeCall::Sudo(pallet_sudo::Call::set_key { new: MultiAddress::Id(new) }) => {
				!PqVerifier::classical_key_signs_for(new)
			},
			_ => true,
		}
	}
}

/// The sudo key: Root's role, which no classical key may hold — set to an account no Ed25519
/// key signs for ([`NoClassicalSudoKey`]), it cannot let one sign for it again
/// (`pallet_pq_verifier::Config::PostQuantumRoles`).
pub struct IsSudoKey;

impl Contains<AccountId> for IsSudoKey {
	fn contains(who: &AccountId) -> bool {
		pallet_sudo::Key::<Runtime>::get().as_ref() == Some(who)
	}
}

impl pallet_timestamp::Config for Runtime {
	type Moment = u64;
	type OnTimestampSet = AuraSlotCheck;
	/// Dev blocks are sealed on demand, possibly within the same millisecond; Aura orders its
	/// own blocks (each slot later than the last, its timestamp in its slot).
	type MinimumPeriod = ConstU64<0>;
	type WeightInfo = crate::weights::pallet_timestamp::SubstrateWeight<Runtime>;
}

/// The local testnet's block time unless its genesis sets another.
pub const DEFAULT_SLOT_DURATION_MS: u64 = 6_000;

parameter_types! {
	/// Aura's slot, the block time of a chain of validators, in milliseconds: set at genesis
	/// (`genesis_config_presets::SLOT_DURATION_FIELD`), else [`DEFAULT_SLOT_DURATION_MS`].
	pub storage AuraSlotDuration: u64 = DEFAULT_SLOT_DURATION_MS;
}

/// Which blocks a chain accepts, by its Aura authorities (set at genesis): a chain of
/// validators (any authority) only blocks with exactly one well-formed Aura slot — the slot
/// pallet-aura took, the one the node checked the author's seal against — and a timestamp in
/// that slot; the dev chain (none) blocks without a slot (its own, sealed on demand) or with
/// one well-formed slot (block builders that always add one, as chopsticks does), which names
/// no author there and is not checked against a timestamp.
///
/// pallet-aura alone reads the first Aura digest item with a lenient decode while the node
/// skips items that do not decode exactly: an author could add a malformed item before its
/// real one and give the runtime a slot of its choosing (to take others' slots), or none (to
/// make many blocks in one slot). Requiring exactly one exact item closes both.
pub struct AuraSlotCheck;

impl OnTimestampSet<u64> for AuraSlotCheck {
	fn on_timestamp_set(moment: u64) {
		let digest = frame_system::Pallet::<Runtime>::digest();
		let slots: Vec<Option<Slot>> = digest
			.logs
			.iter()
			.filter_map(|item| item.as_pre_runtime())
			.filter(|(engine, _)| *engine == AURA_ENGINE_ID)
			.map(|(_, mut data)| Slot::decode_all(&mut data).ok())
			.collect();
		let validators = pallet_aura::Authorities::<Runtime>::decode_len().unwrap_or(0) > 0;
		match (validators, slots.as_slice()) {
			(false, [] | [Some(_)]) => {},
			(true, [Some(slot)]) if *slot == pallet_aura::CurrentSlot::<Runtime>::get() => {
				<Aura as OnTimestampSet<u64>>::on_timestamp_set(moment)
			},
			(true, _) => {
				panic!("a block of a chain of validators carries exactly one well-formed Aura slot")
			},
			(false, _) => panic!("the dev chain's blocks carry at most one well-formed Aura slot"),
		}
	}
}

/// At most this many validators.
const MAX_AUTHORITIES: u32 = 32;

impl pallet_aura::Config for Runtime {
	type AuthorityId = AuraId;
	type MaxAuthorities = ConstU32<MAX_AUTHORITIES>;
	type DisabledValidators = ();
	type AllowMultipleBlocksPerSlot = ConstBool<false>;
	type SlotDuration = AuraSlotDuration;
}

impl pallet_grandpa::Config for Runtime {
	type RuntimeEvent = RuntimeEvent;
	type WeightInfo = ();
	type MaxAuthorities = ConstU32<MAX_AUTHORITIES>;
	type MaxNominators = ConstU32<0>;
	/// No equivocation reports: a fixed validator set without staking has nothing to slash.
	type MaxSetIdSessionEntries = ConstU64<0>;
	type KeyOwnerProof = polkadot_sdk::sp_core::Void;
	type EquivocationReportSystem = ();
}

impl pallet_balances::Config for Runtime {
	type RuntimeEvent = RuntimeEvent;
	type RuntimeHoldReason = RuntimeHoldReason;
	type RuntimeFreezeReason = RuntimeFreezeReason;
	type WeightInfo = crate::weights::pallet_balances::SubstrateWeight<Runtime>;
	type Balance = Balance;
	type DustRemoval = ();
	type ExistentialDeposit = ConstU128<{ UNIT / 1000 }>;
	type AccountStore = System;
	type ReserveIdentifier = [u8; 8];
	type FreezeIdentifier = RuntimeFreezeReason;
	type MaxLocks = ConstU32<50>;
	type MaxReserves = ConstU32<50>;
	type MaxFreezes = ConstU32<0>;
	type DoneSlashHandler = ();
}

parameter_types! {
	pub FeeMultiplier: Multiplier = Multiplier::one();
}

impl pallet_transaction_payment::Config for Runtime {
	type RuntimeEvent = RuntimeEvent;
	type OnChargeTransaction = FungibleAdapter<Balances, ()>;
	type OperationalFeeMultiplier = ConstU8<5>;
	/// One planck per picosecond of weight.
	type WeightToFee = IdentityFee<Balance>;
	/// A millionth of a token per byte: PQ signatures make length matter.
	type LengthToFee = polkadot_sdk::frame_support::weights::ConstantMultiplier<
		Balance,
		ConstU128<{ UNIT / 1_000_000 }>,
	>;
	type FeeMultiplierUpdate = ConstFeeMultiplier<FeeMultiplier>;
	type WeightInfo = crate::weights::InExtrinsicBase;
}

impl pallet_sudo::Config for Runtime {
	type RuntimeEvent = RuntimeEvent;
	type RuntimeCall = RuntimeCall;
	type WeightInfo = crate::weights::pallet_sudo::SubstrateWeight<Runtime>;
}

/// Endows benchmark accounts.
#[cfg(feature = "runtime-benchmarks")]
pub struct PqVerifierBenchmarkHelper;

#[cfg(feature = "runtime-benchmarks")]
impl pallet_pq_verifier::BenchmarkHelper<AccountId> for PqVerifierBenchmarkHelper {
	fn endow(who: &AccountId) {
		use polkadot_sdk::frame_support::traits::fungible::Mutate;
		Balances::set_balance(who, 1_000 * UNIT);
	}
}

parameter_types! {
	/// Measured over whole blocks of this build (`IMPORT_COSTS`).
	pub WeightPerExtrinsicByte: Weight = IMPORT_COSTS.per_extrinsic_byte;
}

impl pallet_pq_verifier::Config for Runtime {
	type Backend = VerifierBackend;
	type Currency = Balances;
	type RuntimeHoldReason = RuntimeHoldReason;
	/// One token per key, plus a thousandth per stored byte (2.6 tokens for ML-DSA-87).
	type KeyDepositBase = ConstU128<UNIT>;
	type KeyDepositPerByte = ConstU128<{ UNIT / 1000 }>;
	type KeyCacheBytes = ConstU32<{ crate::build::KEY_CACHE_BYTES }>;
	type FeeCheck = pallet_pq_verifier::TransactionPaymentFeeCheck<Runtime>;
	type PostQuantumRoles = IsSudoKey;
	type WeightInfo = PqVerifierWeights;
	type WeightPerExtrinsicByte = WeightPerExtrinsicByte;
	#[cfg(feature = "runtime-benchmarks")]
	type BenchmarkHelper = PqVerifierBenchmarkHelper;
}
