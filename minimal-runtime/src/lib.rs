//! # pq-minimal-runtime
//!
//! A minimal runtime with `pallet-pq-verifier`, laid out like polkadot-sdk's minimal template
//! (System, Timestamp, Balances, Sudo, TransactionPayment; no consensus: a node seals its
//! blocks, as `polkadot-omni-node --dev-block-time` does), with the pallet added exactly as
//! `docs/pallet.md` says: the doc's code is taken from this file between its `docs/pallet.md`
//! markers, and `tests/pallet_doc.rs` fails when the two drift. It verifies in Wasm with our
//! own FIPS 204 verifier, so it runs on stock nodes.
//!
//! `scripts/minimal-runtime.sh` builds its Wasm blob (feature `wasm-blob`) and runs it under
//! `polkadot-omni-node`.
//!
//! A template, not a chain to launch: its fees, block limits and database weights are FRAME's
//! defaults or rough, and its genesis preset is for development (its keys' secrets are public).

#![cfg_attr(not(feature = "std"), no_std)]

#[cfg(all(feature = "std", feature = "wasm-blob"))]
include!(concat!(env!("OUT_DIR"), "/wasm_binary.rs"));

extern crate alloc;

use alloc::vec::Vec;
use polkadot_sdk::{
	frame_executive,
	frame_support::{
		self, derive_impl,
		genesis_builder_helper::{build_state, get_preset},
		parameter_types,
		traits::{ConstU128, ConstU16, ConstU32, Contains},
		weights::{constants::ParityDbWeight, ConstantMultiplier, IdentityFee, Weight},
	},
	frame_system, frame_system_rpc_runtime_api, pallet_balances, pallet_sudo, pallet_timestamp,
	pallet_transaction_payment,
	pallet_transaction_payment_rpc_runtime_api::{self, FeeDetails, RuntimeDispatchInfo},
	sp_api::{self, impl_runtime_apis},
	sp_block_builder, sp_consensus_aura,
	sp_core::OpaqueMetadata,
	sp_genesis_builder::{self, PresetId},
	sp_inherents, sp_offchain,
	sp_runtime::{
		self, generic,
		traits::{BlakeTwo256, Block as BlockT},
		transaction_validity::{TransactionSource, TransactionValidity},
		ApplyExtrinsicResult, ExtrinsicInclusionMode,
	},
	sp_session, sp_transaction_pool,
	sp_version::{runtime_version, RuntimeVersion},
};

/// The runtime's version.
#[runtime_version]
pub const VERSION: RuntimeVersion = RuntimeVersion {
	spec_name: alloc::borrow::Cow::Borrowed("pq-minimal-runtime"),
	impl_name: alloc::borrow::Cow::Borrowed("pq-minimal-runtime"),
	authoring_version: 1,
	// 2: the verifier pallet's release 11 (`rotate_key`'s new argument, post-quantum committee
	// owners). 3: its release 12 (storage version 2; the sudo key and committee owners keep
	// their post-quantum key; class limits before verification). 4: its release 13 (`register_key`
	// and `rotate_key` charged their key's account-derivation candidates).
	spec_version: 4,
	// Counts changes within a spec version that leave consensus alone: none yet in 4. (In 3 it
	// reached 5: a key's first signature in a runtime call verified without a decoded key; a
	// transaction the full block has no room for refused before its verification, likewise one
	// the block's weight leaves no room for; bodies decoded without a copy; boxed keys and
	// signatures decoded straight into their boxes; an extrinsic encoded once into one buffer;
	// `w1` encoded a row at a time.)
	impl_version: 0,
	apis: RUNTIME_API_VERSIONS,
	transaction_version: 2,
	system_version: 1,
};

// docs/pallet.md: extrinsic-type
pub type Balance = u128;
pub const UNIT: Balance = 1_000_000_000_000;
pub type Header = generic::Header<u32, BlakeTwo256>;
pub type Signature = pq_crypto::TransactionSignature;
pub type AccountId = sp_runtime::AccountId32;
pub type Address = sp_runtime::MultiAddress<AccountId, ()>;
pub type TxExtension = (
	frame_system::CheckNonZeroSender<Runtime>,
	frame_system::CheckSpecVersion<Runtime>,
	frame_system::CheckTxVersion<Runtime>,
	frame_system::CheckGenesis<Runtime>,
	frame_system::CheckEra<Runtime>,
	frame_system::CheckNonce<Runtime>,
	frame_system::CheckWeight<Runtime>,
	pallet_transaction_payment::ChargeTransactionPayment<Runtime>,
	frame_system::WeightReclaim<Runtime>,
);
pub type RuntimeExtrinsic = pallet_pq_verifier::Extrinsic<Runtime, Address, TxExtension>;
pub type UncheckedExtrinsic = pallet_pq_verifier::UncheckedExtrinsic<Runtime, Address, TxExtension>;
pub type Block = generic::Block<Header, RuntimeExtrinsic>;
// docs/pallet.md: end

/// Dispatches extrinsics to the pallets.
pub type Executive = frame_executive::Executive<
	Runtime,
	Block,
	frame_system::ChainContext<Runtime>,
	Runtime,
	AllPalletsWithSystem,
>;

#[frame_support::runtime]
mod runtime {
	/// The runtime.
	#[runtime::runtime]
	#[runtime::derive(
		RuntimeCall,
		RuntimeEvent,
		RuntimeError,
		RuntimeOrigin,
		RuntimeFreezeReason,
		RuntimeHoldReason,
		RuntimeSlashReason,
		RuntimeLockId,
		RuntimeTask,
		RuntimeViewFunction
	)]
	pub struct Runtime;

	/// Accounts, blocks, events.
	#[runtime::pallet_index(0)]
	pub type System = frame_system::Pallet<Runtime>;

	/// The time of each block.
	#[runtime::pallet_index(1)]
	pub type Timestamp = pallet_timestamp::Pallet<Runtime>;

	/// Balances, and the holds of key deposits.
	#[runtime::pallet_index(2)]
	pub type Balances = pallet_balances::Pallet<Runtime>;

	/// Privileged calls.
	#[runtime::pallet_index(3)]
	pub type Sudo = pallet_sudo::Pallet<Runtime>;

	/// Transaction fees.
	#[runtime::pallet_index(4)]
	pub type TransactionPayment = pallet_transaction_payment::Pallet<Runtime>;

	// docs/pallet.md: construct-runtime
	/// Post-quantum accounts: the key registry, committees, account migration.
	#[runtime::pallet_index(5)]
	pub type PqVerifier = pallet_pq_verifier::Pallet<Runtime>;
	// docs/pallet.md: end
}

parameter_types! {
	pub const Version: RuntimeVersion = VERSION;
}

#[derive_impl(frame_system::config_preludes::SolochainDefaultConfig)]
impl frame_system::Config for Runtime {
	type Block = Block;
	type Version = Version;
	type AccountData = pallet_balances::AccountData<Balance>;
	// The prelude's `()` charges nothing for storage; the pallet's weights add `DbWeight` per
	// read. ParityDB's figures, as Parity measured them; a chain measures its own.
	type DbWeight = ParityDbWeight;
	// Generic Substrate addresses, not Polkadot's.
	type SS58Prefix = ConstU16<42>;
	// The sudo key never goes to an account an Ed25519 key signs for.
	type BaseCallFilter = NoClassicalSudoKey;
	// docs/pallet.md: migrations
	type SingleBlockMigrations = (
		pallet_pq_verifier::migrations::v1::MigrateToV1<Runtime>,
		pallet_pq_verifier::migrations::v2::MigrateToV2<Runtime>,
	);
	// docs/pallet.md: end
}

#[derive_impl(pallet_balances::config_preludes::TestDefaultConfig)]
impl pallet_balances::Config for Runtime {
	type Balance = Balance;
	type ExistentialDeposit = ConstU128<{ UNIT / 100 }>;
	type AccountStore = System;
	type RuntimeHoldReason = RuntimeHoldReason;
}

#[derive_impl(pallet_sudo::config_preludes::TestDefaultConfig)]
impl pallet_sudo::Config for Runtime {}

#[derive_impl(pallet_timestamp::config_preludes::TestDefaultConfig)]
impl pallet_timestamp::Config for Runtime {}

#[derive_impl(pallet_transaction_payment::config_preludes::TestDefaultConfig)]
impl pallet_transaction_payment::Config for Runtime {
	type OnChargeTransaction = pallet_transaction_payment::FungibleAdapter<Balances, ()>;
	// One planck per picosecond of weight, a millionth of a token per byte: post-quantum
	// signatures make length matter. A chain calibrates its own.
	type WeightToFee = IdentityFee<Balance>;
	type LengthToFee = ConstantMultiplier<Balance, ConstU128<{ UNIT / 1_000_000 }>>;
}

// docs/pallet.md: pallet-config
impl pallet_pq_verifier::Config for Runtime {
	// Our FIPS 204 verifier in Wasm: runs on any node (see docs/host-functions.md for the
	// faster `pq_crypto::host::Host`, which needs the node's host functions).
	type Backend = pq_crypto::backend::Fips204;
	type Currency = Balances;
	type RuntimeHoldReason = RuntimeHoldReason;
	type KeyDepositBase = ConstU128<UNIT>;
	type KeyDepositPerByte = ConstU128<{ UNIT / 1000 }>;
	// Decoded keys kept within one block: a repeat signer's key is decoded once and kept
	// (0 with `Host`, whose node keeps its own).
	type KeyCacheBytes = ConstU32<{ 4 << 20 }>;
	// Refuse a sender who cannot pay before verifying anything.
	type FeeCheck = pallet_pq_verifier::TransactionPaymentFeeCheck<Runtime>;
	// Root's role: the sudo key cannot let an Ed25519 key sign for it again.
	type PostQuantumRoles = IsSudoKey;
	// The pallet's weights, measured with `Fips204` in Wasm.
	type WeightInfo = pallet_pq_verifier::weights::SubstrateWeight<Runtime>;
	// Each byte of a transaction costs its block's import about 24 ns, measured on pq-runtime's
	// pure-Wasm build (docs/benchmarking.md); charged, blocks of long transactions take no
	// longer than their weight says.
	type WeightPerExtrinsicByte = pallet_pq_verifier::MeasuredWeightPerExtrinsicByte;
	// Gives the benchmarks' accounts funds.
	#[cfg(feature = "runtime-benchmarks")]
	type BenchmarkHelper = EndowedByBalances;
}

/// The sudo key, Root's role: a migrated Ed25519 account holding it may not let its Ed25519
/// key sign for it again.
pub struct IsSudoKey;

impl Contains<AccountId> for IsSudoKey {
	fn contains(who: &AccountId) -> bool {
		pallet_sudo::Key::<Runtime>::get().as_ref() == Some(who)
	}
}

/// `frame_system::Config::BaseCallFilter`: every call but the sudo key handed to an account an
/// Ed25519 key signs for (Root acts for every account). Root's own calls are not filtered.
pub struct NoClassicalSudoKey;

impl Contains<RuntimeCall> for NoClassicalSudoKey {
	fn contains(call: &RuntimeCall) -> bool {
		match call {
			RuntimeCall::Sudo(pallet_sudo::Call::set_key {
				new: sp_runtime::MultiAddress::Id(new),
			}) => !PqVerifier::classical_key_signs_for(new),
			_ => true,
		}
	}
}
// docs/pallet.md: end

/// Endows the pallet's benchmark accounts.
#[cfg(feature = "runtime-benchmarks")]
pub struct EndowedByBalances;

#[cfg(feature = "runtime-benchmarks")]
impl pallet_pq_verifier::BenchmarkHelper<AccountId> for EndowedByBalances {
	fn endow(who: &AccountId) {
		use polkadot_sdk::frame_support::traits::fungible::Mutate;
		Balances::set_balance(who, 1_000 * UNIT);
	}
}

// docs/pallet.md: genesis
/// Genesis presets: `development`, whose `//Alice` accounts of ML-DSA-44, ML-DSA-87 and
/// Ed25519 are endowed, the ML-DSA-44 one also sudo — development only: the secrets of dev
/// keys are public. (A template's sr25519 dev accounts could never sign here: every sr25519
/// signature is refused.)
pub mod genesis_config_presets {
	use super::*;
	use hex_literal::hex;
	use serde_json::{json, Value};

	/// What each dev account starts with.
	pub const ENDOWMENT: Balance = 1_000_000 * UNIT;

	/// The accounts of `//Alice` under ML-DSA-44, ML-DSA-87 and Ed25519
	/// (`pq_signer::signing::Keypair::from_suri`, which needs `std`; a test derives them again).
	pub const DEV_ACCOUNTS: [[u8; 32]; 3] = [
		hex!("dd17fdbc997aa1ca739e6345df592ec0433f43a187e3edf74d063786215e2081"),
		hex!("4905517e5b90c94e58b08bcf27c86577b4ac2943db598639127dce8a48f0f0f3"),
		hex!("88dc3417d5058ec4b4503e0c12ea1a0a89be200fe98922423d4334014fa6b0ee"),
	];

	/// The `development` preset.
	pub fn development() -> Value {
		let accounts = DEV_ACCOUNTS.map(AccountId::new);
		json!({
			"balances": {
				"balances": accounts.iter().map(|account| (account, ENDOWMENT)).collect::<Vec<_>>(),
			},
			"sudo": { "key": Some(&accounts[0]) },
		})
	}

	/// The preset named `id`, as JSON.
	pub fn get_preset(id: &PresetId) -> Option<Vec<u8>> {
		let preset = match id.as_ref() {
			sp_genesis_builder::DEV_RUNTIME_PRESET => development(),
			_ => return None,
		};
		serde_json::to_vec(&preset).ok()
	}

	/// The presets there are.
	pub fn preset_names() -> Vec<PresetId> {
		alloc::vec![PresetId::from(sp_genesis_builder::DEV_RUNTIME_PRESET)]
	}
}
// docs/pallet.md: end

impl_runtime_apis! {
	impl sp_api::Core<Block> for Runtime {
		fn version() -> RuntimeVersion {
			VERSION
		}

		fn execute_block(block: <Block as BlockT>::LazyBlock) {
			Executive::execute_block(block);
		}

		fn initialize_block(header: &<Block as BlockT>::Header) -> ExtrinsicInclusionMode {
			Executive::initialize_block(header)
		}
	}

	impl sp_api::Metadata<Block> for Runtime {
		fn metadata() -> OpaqueMetadata {
			OpaqueMetadata::new(Runtime::metadata().into())
		}

		fn metadata_at_version(version: u32) -> Option<OpaqueMetadata> {
			Runtime::metadata_at_version(version)
		}

		fn metadata_versions() -> Vec<u32> {
			Runtime::metadata_versions()
		}
	}

	impl sp_block_builder::BlockBuilder<Block> for Runtime {
		fn apply_extrinsic(extrinsic: <Block as BlockT>::Extrinsic) -> ApplyExtrinsicResult {
			Executive::apply_extrinsic(extrinsic)
		}

		fn finalize_block() -> <Block as BlockT>::Header {
			Executive::finalize_block()
		}

		fn inherent_extrinsics(data: sp_inherents::InherentData) -> Vec<<Block as BlockT>::Extrinsic> {
			data.create_extrinsics()
		}

		fn check_inherents(
			block: <Block as BlockT>::LazyBlock,
			data: sp_inherents::InherentData,
		) -> sp_inherents::CheckInherentsResult {
			data.check_extrinsics(&block)
		}
	}

	impl sp_transaction_pool::runtime_api::TaggedTransactionQueue<Block> for Runtime {
		fn validate_transaction(
			source: TransactionSource,
			tx: <Block as BlockT>::Extrinsic,
			block_hash: <Block as BlockT>::Hash,
		) -> TransactionValidity {
			Executive::validate_transaction(source, tx, block_hash)
		}
	}

	// No Aura here, but polkadot-omni-node's dev mode asks every runtime for its slot
	// duration before it seals anything (paritytech/polkadot-sdk#11774): answer with the
	// default block time and no authorities.
	impl sp_consensus_aura::AuraApi<Block, sp_consensus_aura::sr25519::AuthorityId> for Runtime {
		fn slot_duration() -> sp_consensus_aura::SlotDuration {
			sp_consensus_aura::SlotDuration::from_millis(6000)
		}

		fn authorities() -> Vec<sp_consensus_aura::sr25519::AuthorityId> {
			Vec::new()
		}
	}

	impl sp_offchain::OffchainWorkerApi<Block> for Runtime {
		fn offchain_worker(header: &<Block as BlockT>::Header) {
			Executive::offchain_worker(header)
		}
	}

	impl sp_session::SessionKeys<Block> for Runtime {
		fn generate_session_keys(
			_owner: Vec<u8>,
			_seed: Option<Vec<u8>>,
		) -> sp_session::OpaqueGeneratedSessionKeys {
			// No consensus, so no session keys.
			Default::default()
		}

		fn decode_session_keys(
			_encoded: Vec<u8>,
		) -> Option<Vec<(Vec<u8>, polkadot_sdk::sp_core::crypto::KeyTypeId)>> {
			None
		}
	}

	impl frame_system_rpc_runtime_api::AccountNonceApi<Block, AccountId, u32> for Runtime {
		fn account_nonce(account: AccountId) -> u32 {
			System::account_nonce(account)
		}
	}

	impl pallet_transaction_payment_rpc_runtime_api::TransactionPaymentApi<Block, Balance> for Runtime {
		fn query_info(uxt: <Block as BlockT>::Extrinsic, len: u32) -> RuntimeDispatchInfo<Balance> {
			TransactionPayment::query_info(uxt, len)
		}

		fn query_fee_details(uxt: <Block as BlockT>::Extrinsic, len: u32) -> FeeDetails<Balance> {
			TransactionPayment::query_fee_details(uxt, len)
		}

		fn query_weight_to_fee(weight: Weight) -> Balance {
			TransactionPayment::weight_to_fee(weight)
		}

		fn query_length_to_fee(length: u32) -> Balance {
			TransactionPayment::length_to_fee(length)
		}
	}

	// docs/pallet.md: runtime-api
	impl pallet_pq_verifier::runtime_api::PqVerifierApi<Block> for Runtime {
		fn verify_signature(
			signer: pq_crypto::AccountSigner,
			signature: pq_crypto::AccountSignature,
			message: Vec<u8>,
			domain: pq_crypto::Domain,
		) -> Result<(), pq_crypto::VerifyError> {
			PqVerifier::verify_signature(&signer, &signature, &message, &domain)
		}

		fn account_id(signer: pq_crypto::AccountSigner) -> AccountId {
			signer.account_id()
		}

		fn verify_signatures(
			checks: pallet_pq_verifier::runtime_api::SignatureChecks,
		) -> Vec<Result<(), pq_crypto::VerifyError>> {
			PqVerifier::verify_signatures(&checks)
		}
	}
	// docs/pallet.md: end

	impl sp_genesis_builder::GenesisBuilder<Block> for Runtime {
		fn build_state(config: Vec<u8>) -> sp_genesis_builder::Result {
			build_state::<RuntimeGenesisConfig>(config)
		}

		fn get_preset(id: &Option<PresetId>) -> Option<Vec<u8>> {
			get_preset::<RuntimeGenesisConfig>(id, genesis_config_presets::get_preset)
		}

		fn preset_names() -> Vec<PresetId> {
			genesis_config_presets::preset_names()
		}
	}
}
