//! Runs what the command line asks for.

use crate::{
	chain_spec,
	cli::{Cli, Subcommand},
	service,
};
use polkadot_sdk::{
	sc_cli::{self, SubstrateCli},
	sc_network::{config::NetworkBackendType, Litep2pNetworkBackend, NetworkWorker},
	sc_service::ChainSpec,
	sp_runtime::traits::Block as BlockT,
};
use pq_crypto::cache::CacheLimits;
use pq_runtime::opaque::Block;

impl SubstrateCli for Cli {
	fn impl_name() -> String {
		"pq-node".into()
	}

	fn impl_version() -> String {
		env!("CARGO_PKG_VERSION").into()
	}

	fn description() -> String {
		env!("CARGO_PKG_DESCRIPTION").into()
	}

	fn author() -> String {
		"pq-verifier developers".into()
	}

	fn support_url() -> String {
		"https://github.com/pq-verifier/pq-verifier/issues".into()
	}

	fn copyright_start_year() -> i32 {
		2026
	}

	fn load_spec(&self, id: &str) -> Result<Box<dyn ChainSpec>, String> {
		chain_spec::load(id)
	}
}

/// Parses the command line and runs it.
pub fn run() -> sc_cli::Result<()> {
	let cli = Cli::from_args();
	match &cli.subcommand {
		Some(Subcommand::BuildSpec(cmd)) => {
			let runner = cli.create_runner(cmd)?;
			runner.sync_run(|config| cmd.run(config.chain_spec, config.network))
		},
		Some(Subcommand::ExportChainSpec(cmd)) => cmd.run(cli.load_spec(&cmd.chain)?),
		Some(Subcommand::PurgeChain(cmd)) => {
			let runner = cli.create_runner(cmd)?;
			runner.sync_run(|config| cmd.run(config.database))
		},
		Some(Subcommand::ExportBlocks(cmd)) => {
			let runner = cli.create_runner(cmd)?;
			runner.async_run(|config| {
				let components = service::new_partial(&config, cli.sealing)?;
				Ok((cmd.run(components.client, config.database), components.task_manager))
			})
		},
		Some(Subcommand::ImportBlocks(cmd)) => {
			let runner = cli.create_runner(cmd)?;
			runner.async_run(|config| {
				// The chain's own import queue: Aura's checks the seals of a validators' chain.
				let components = service::new_partial(&config, cli.sealing)?;
				Ok((cmd.run(components.client, components.import_queue), components.task_manager))
			})
		},
		#[cfg(feature = "runtime-benchmarks")]
		Some(Subcommand::Benchmark(crate::cli::Benchmark::Pallet(cmd))) => {
			let chain =
				cmd.shared_params.chain.as_deref().map(|id| cli.load_spec(id)).transpose()?;
			// Weights charge a decode on every verification: measure without the node's cache.
			pq_crypto::host::node::configure(CacheLimits { max_entries: 0, max_bytes: 0 });
			cmd.run_with_spec::<
				polkadot_sdk::sp_runtime::traits::HashingFor<pq_runtime::opaque::Block>,
				pq_crypto::host::pq_verify::HostFunctions,
			>(chain)
		},
		#[cfg(feature = "runtime-benchmarks")]
		Some(Subcommand::Benchmark(crate::cli::Benchmark::Storage(cmd))) => {
			let runner = cli.create_runner(&**cmd)?;
			runner.sync_run(|config| {
				let components = service::new_partial(&config, cli.sealing)?;
				let db = components.backend.expose_db();
				let storage = components.backend.expose_storage();
				let trie_cache = components.backend.expose_shared_trie_cache();
				cmd.run(config, components.client, db, storage, trie_cache)
			})
		},
		None => {
			let runner = cli.create_runner(&cli.run)?;
			let sealing = cli.sealing;
			pq_crypto::host::node::configure(CacheLimits {
				max_bytes: cli.key_cache_mib.saturating_mul(1 << 20),
				..pq_crypto::host::node::DEFAULT_LIMITS
			});
			runner.run_node_until_exit(|config| async move {
				match config.network.network_backend {
					NetworkBackendType::Litep2p => {
						service::new_full::<Litep2pNetworkBackend>(config, sealing)
					},
					NetworkBackendType::Libp2p => service::new_full::<
						NetworkWorker<Block, <Block as BlockT>::Hash>,
					>(config, sealing),
				}
				.map_err(sc_cli::Error::Service)
			})
		},
	}
}
