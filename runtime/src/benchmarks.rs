//! The runtime's benchmarks, run by `benchmark pallet` (see `docs/benchmarking.md`).

use crate::*;
use alloc::{string::String, vec::Vec};
use polkadot_sdk::{
	frame_benchmarking::{define_benchmarks, BenchmarkBatch, BenchmarkConfig, BenchmarkList},
	frame_support::traits::{StorageInfo, StorageInfoTrait, WhitelistedStorageKeys},
	frame_system_benchmarking::{
		extensions::Pallet as SystemExtensionsBench, Pallet as SystemBench,
	},
	sp_storage::TrackedStorageKey,
};

define_benchmarks!(
	[frame_system, SystemBench::<Runtime>]
	[frame_system_extensions, SystemExtensionsBench::<Runtime>]
	[pallet_balances, Balances]
	[pallet_transaction_payment, TransactionPayment]
	[pallet_timestamp, Timestamp]
	[pallet_sudo, Sudo]
	[pallet_pq_verifier, PqVerifier]
);

/// The benchmarks this runtime has.
pub fn metadata(extra: bool) -> (Vec<BenchmarkList>, Vec<StorageInfo>) {
	let mut list = Vec::<BenchmarkList>::new();
	list_benchmarks!(list, extra);
	(list, AllPalletsWithSystem::storage_info())
}

/// Runs the benchmarks `config` names.
pub fn dispatch(config: BenchmarkConfig) -> Result<Vec<BenchmarkBatch>, String> {
	let whitelist: Vec<TrackedStorageKey> = AllPalletsWithSystem::whitelisted_storage_keys();
	let mut batches = Vec::<BenchmarkBatch>::new();
	let params = (&config, &whitelist);
	add_benchmarks!(params, batches);
	Ok(batches)
}

impl polkadot_sdk::frame_system_benchmarking::Config for Runtime {}

impl polkadot_sdk::pallet_transaction_payment::BenchmarkConfig for Runtime {}
