//! The node: client, ParityDB backend, transaction pool, a network without peers, JSON-RPC and
//! block sealing (instant or manual).

use crate::cli::Sealing;
use futures::{channel::mpsc, FutureExt};
use polkadot_sdk::{
	sc_basic_authorship::ProposerFactory,
	sc_consensus::{BasicQueue, LongestChain},
	sc_consensus_manual_seal::{self as manual_seal, InstantSealParams, ManualSealParams},
	sc_executor::WasmExecutor,
	sc_network::{config::FullNetworkConfiguration, Litep2pNetworkBackend, NotificationMetrics},
	sc_service::{self, error::Error as ServiceError, Configuration, TaskManager},
	sc_transaction_pool, sp_io,
	sp_runtime::traits::Block as BlockT,
	sp_timestamp,
};
use pq_crypto::host::pq_verify;
use pq_runtime::{opaque::Block, RuntimeApi};
use std::sync::Arc;

/// Host functions the runtime imports: Substrate's and pq-verifier's signature verification.
/// A runtime built with benchmarks also imports the benchmarking ones, even when no benchmark
/// runs.
#[cfg(not(feature = "runtime-benchmarks"))]
type HostFunctions = (sp_io::SubstrateHostFunctions, pq_verify::HostFunctions);
#[cfg(feature = "runtime-benchmarks")]
type HostFunctions = (
	sp_io::SubstrateHostFunctions,
	pq_verify::HostFunctions,
	polkadot_sdk::frame_benchmarking::benchmarking::HostFunctions,
);

/// The client: runtime calls, storage and block import.
pub type FullClient = sc_service::TFullClient<Block, RuntimeApi, WasmExecutor<HostFunctions>>;
type FullBackend = sc_service::TFullBackend<Block>;

/// Queue capacity of sealing commands; `engine_createBlock` waits when it is full.
const SEALING_QUEUE: usize = 1024;

/// The parts of a node that the import and export commands need too.
pub type PartialComponents = sc_service::PartialComponents<
	FullClient,
	FullBackend,
	(),
	BasicQueue<Block>,
	sc_transaction_pool::TransactionPoolHandle<Block, FullClient>,
	(),
>;

/// Client, ParityDB backend, transaction pool and import queue, without any task running.
pub fn new_partial(config: &Configuration) -> Result<PartialComponents, ServiceError> {
	let executor = sc_service::new_wasm_executor::<HostFunctions>(&config.executor);
	let (client, backend, keystore_container, task_manager) =
		sc_service::new_full_parts::<Block, RuntimeApi, _>(config, None, executor, Default::default())?;
	let client = Arc::new(client);

	let transaction_pool = Arc::from(
		sc_transaction_pool::Builder::new(task_manager.spawn_essential_handle(), client.clone(), config.role.is_authority().into())
			.with_options(config.transaction_pool.clone())
			.with_prometheus(config.prometheus_registry())
			.build(),
	);

	// Blocks come only from this node's sealing task or from `import-blocks`; there is no seal
	// to check, and the client executes every block it imports.
	let import_queue = manual_seal::import_queue(
		Box::new(client.clone()),
		&task_manager.spawn_essential_handle(),
		config.prometheus_registry(),
	);

	Ok(sc_service::PartialComponents {
		client,
		backend,
		task_manager,
		keystore_container,
		select_chain: (),
		import_queue,
		transaction_pool,
		other: (),
	})
}

/// Builds the node and starts its tasks; the chain runs until the returned task manager stops.
pub fn new_full(mut config: Configuration, sealing: Sealing) -> Result<TaskManager, ServiceError> {
	let sc_service::PartialComponents {
		client,
		backend,
		mut task_manager,
		keystore_container,
		import_queue,
		transaction_pool,
		..
	} = new_partial(&config)?;

	if let Some(registry) = config.prometheus_registry() {
		crate::key_cache_metrics::register_metrics(registry)?;
	}

	// A single-node chain: no peers in or out.
	config.network.default_peers_set.in_peers = 0;
	config.network.default_peers_set.out_peers = 0;
	let net_config = FullNetworkConfiguration::<Block, <Block as BlockT>::Hash, Litep2pNetworkBackend>::new(
		&config.network,
		config.prometheus_registry().cloned(),
	);
	let (network, system_rpc_tx, tx_handler_controller, sync_service, _bitswap) =
		sc_service::build_network(sc_service::BuildNetworkParams {
			config: &config,
			net_config,
			client: client.clone(),
			transaction_pool: transaction_pool.clone(),
			spawn_handle: task_manager.spawn_handle(),
			spawn_essential_handle: task_manager.spawn_essential_handle(),
			import_queue,
			block_announce_validator_builder: None,
			warp_sync_config: None,
			block_relay: None,
			metrics: NotificationMetrics::new(config.prometheus_registry()),
			gap_sync_body_policy: None,
		})?;

	let proposer = ProposerFactory::new(
		task_manager.spawn_handle(),
		client.clone(),
		transaction_pool.clone(),
		config.prometheus_registry(),
		None,
	);
	let create_inherent_data_providers =
		|_parent, ()| async { Ok(sp_timestamp::InherentDataProvider::from_system_time()) };
	let select_chain = LongestChain::new(backend.clone());

	let sealing_commands = match sealing {
		Sealing::Instant => {
			let authorship = manual_seal::run_instant_seal_and_finalize(InstantSealParams {
				block_import: client.clone(),
				env: proposer,
				client: client.clone(),
				pool: transaction_pool.clone(),
				select_chain,
				consensus_data_provider: None,
				create_inherent_data_providers,
			});
			task_manager.spawn_essential_handle().spawn_blocking("instant-seal", None, authorship.boxed());
			None
		},
		Sealing::Manual => {
			let (commands, commands_stream) = mpsc::channel(SEALING_QUEUE);
			let authorship = manual_seal::run_manual_seal(ManualSealParams {
				block_import: client.clone(),
				env: proposer,
				client: client.clone(),
				pool: transaction_pool.clone(),
				commands_stream: Box::pin(commands_stream),
				select_chain,
				consensus_data_provider: None,
				create_inherent_data_providers,
			});
			task_manager.spawn_essential_handle().spawn_blocking("manual-seal", None, authorship.boxed());
			Some(commands)
		},
	};

	let rpc_builder = {
		let client = client.clone();
		let pool = transaction_pool.clone();
		Box::new(move |_| {
			crate::rpc::create_full(crate::rpc::FullDeps {
				client: client.clone(),
				pool: pool.clone(),
				sealing_commands: sealing_commands.clone(),
			})
			.map_err(Into::into)
		})
	};

	sc_service::spawn_tasks(sc_service::SpawnTasksParams {
		network,
		client,
		keystore: keystore_container.keystore(),
		task_manager: &mut task_manager,
		transaction_pool,
		rpc_builder,
		backend,
		system_rpc_tx,
		tx_handler_controller,
		sync_service,
		config,
		telemetry: None,
		tracing_execute_block: None,
	})?;

	Ok(task_manager)
}
