//! The node: client, ParityDB backend, transaction pool, network, JSON-RPC, and how blocks are
//! made: sealed on demand on a single-node chain (instant or manual), or by Aura with GRANDPA
//! finality on a chain of validators.

use crate::{cli::Sealing, executing_code::ExecutingCodeFactory};
use futures::{channel::mpsc, FutureExt, TryFutureExt};
use polkadot_sdk::{
	sc_basic_authorship::ProposerFactory,
	sc_client_api::{AuxStore, ExecutorProvider},
	sc_consensus::{BasicQueue, BlockImportParams, ForkChoiceStrategy, LongestChain, Verifier},
	sc_consensus_aura::{self as aura, ImportQueueParams, SlotProportion, StartAuraParams},
	sc_consensus_grandpa as grandpa,
	sc_consensus_manual_seal::{self as manual_seal, InstantSealParams, ManualSealParams},
	sc_executor::WasmExecutor,
	sc_network::{config::FullNetworkConfiguration, NetworkBackend},
	sc_service::{
		self, error::Error as ServiceError, Configuration, PruningFilter, TaskManager,
		WarpSyncConfig,
	},
	sc_transaction_pool,
	sc_transaction_pool_api::OffchainTransactionPoolFactory,
	sp_api::ProvideRuntimeApi,
	sp_blockchain::{Error as ClientError, HeaderBackend},
	sp_consensus::{BlockOrigin, Environment, ProposeArgs, Proposer},
	sp_consensus_aura::{sr25519::AuthorityPair as AuraPair, AuraApi},
	sp_consensus_grandpa, sp_io,
	sp_runtime::traits::Block as BlockT,
	sp_timestamp,
};
use pq_crypto::host::pq_verify;
use pq_runtime::{opaque::Block, AuraId, RuntimeApi};
use std::{sync::Arc, time::Duration};

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

type FullSelectChain = LongestChain<FullBackend, Block>;

/// The genesis GRANDPA authorities, refused with an error naming the chain spec's field when
/// they could never finalize — none, one of weight zero, or weights whose sum overflows —
/// where GRANDPA would panic. GRANDPA asks only on a node's first start: the genesis state a
/// later start would read may be pruned.
struct CheckedGrandpaGenesis(Arc<FullClient>);

impl grandpa::GenesisAuthoritySetProvider<Block> for CheckedGrandpaGenesis {
	fn get(&self) -> Result<sp_consensus_grandpa::AuthorityList, ClientError> {
		let authorities = self.0.get()?;
		let total = authorities.iter().try_fold(0u64, |total, (_, weight)| match weight {
			0 => None,
			weight => total.checked_add(*weight),
		});
		if authorities.is_empty() || total.is_none() {
			return Err(ClientError::Application(
				"the chain spec's genesis GRANDPA authorities (`grandpa.authorities`) must be one \
				 or more, each of non-zero weight, their weights summing within 2^64: a chain of \
				 validators cannot finalize otherwise"
					.into(),
			));
		}
		Ok(authorities)
	}
}

/// Where GRANDPA keeps its authority set in the client's auxiliary store
/// (`sc-consensus-grandpa`'s `aux_schema`): present once the node has run GRANDPA on this
/// database.
const GRANDPA_AUTHORITY_SET_KEY: &[u8] = b"grandpa_voters";

/// How `client`'s chain makes its blocks: `flag`, or the default, by whether the state at its
/// best block names Aura authorities — the rule by which its runtime decides whether blocks
/// carry an Aura slot. The best block's state, not genesis's: a node restarted after pruning
/// has no genesis state. A database GRANDPA has finalized is never sealed on demand, even if
/// the chain's state no longer names validators: the node would finalize a fork of its own.
fn resolve_sealing(client: &FullClient, flag: Option<Sealing>) -> Result<Sealing, ServiceError> {
	let best = client.info();
	let authorities = client.runtime_api().authorities(best.best_hash).map_err(|error| {
		ServiceError::Other(format!(
			"the Aura authorities at the best block #{} {:?}, which decide how blocks are \
			 made, cannot be read: {error}",
			best.best_number, best.best_hash
		))
	})?;
	let sealing = Sealing::resolve(flag, !authorities.is_empty()).map_err(ServiceError::Other)?;
	if sealing != Sealing::Aura && client.get_aux(GRANDPA_AUTHORITY_SET_KEY)?.is_some() {
		return Err(ServiceError::Other(
			"this database holds a chain GRANDPA finalized, whose state at the best block \
			 names no Aura authority (`aura.authorities`): it cannot be sealed on demand"
				.into(),
		));
	}
	Ok(sealing)
}

/// The proposer's block size limit: the longest block the runtime allows, for any dispatch
/// class (5 MiB, Operational's; Normal-class transactions have 3.75 MiB of it). The proposer's
/// limit ignores dispatch classes, so a limit at the Normal length would leave no room for
/// Operational transactions — sudo, a runtime upgrade — in a block Normal ones filled (their
/// priority does not put them first against tipping senders). Past the Normal length, the
/// runtime refuses each Normal transaction the proposer offers it by length before verifying
/// its signature (`pallet_pq_verifier`'s extrinsic type), one runtime call each (0.15–0.19 ms
/// in pure Wasm, about a tenth of authoring 2,000 ML-DSA-87 transfers: docs/throughput.md). The
/// proposer counts the header and every extrinsic, as the runtime does, and the extrinsics'
/// length prefix besides. This node's runtime's value: an upgrade that lengthens blocks is
/// capped here until the node is upgraded too, as a stock node's 4 MiB default caps every chain.
fn longest_block_length() -> usize {
	pallet_pq_verifier::longest_block_length::<pq_runtime::Runtime>()
}

/// Proposes blocks as Aura's slot worker does, without recording a storage proof. Manual and
/// instant seal record one of every block (for the `ProofSizeExt` of parachain runtimes, which
/// this runtime is not), and the proposer counts it into the block's size: blocks of registered
/// ML-DSA keys, whose reads prove 1–3 KB each, closed at 3.1 MB of the 3.75 MiB
/// (2026-11-28, `benchmarking/throughput.sh`), and every storage read paid for a proof this
/// chain never ships.
struct WithoutProofRecording<E>(E);

impl<E: Environment<Block>> Environment<Block> for WithoutProofRecording<E> {
	type Proposer = WithoutProofRecording<E::Proposer>;
	type CreateProposer =
		futures::future::MapOk<E::CreateProposer, fn(E::Proposer) -> Self::Proposer>;
	type Error = E::Error;

	fn init(&mut self, parent_header: &<Block as BlockT>::Header) -> Self::CreateProposer {
		self.0.init(parent_header).map_ok(WithoutProofRecording)
	}
}

impl<P: Proposer<Block>> Proposer<Block> for WithoutProofRecording<P> {
	type Error = P::Error;
	type Proposal = P::Proposal;

	fn propose(self, args: ProposeArgs<Block>) -> Self::Proposal {
		self.0.propose(ProposeArgs { storage_proof_recorder: None, ..args })
	}
}

/// Queue capacity of sealing commands; `engine_createBlock` waits when it is full.
const SEALING_QUEUE: usize = 1024;

/// Every this many blocks GRANDPA stores a justification (also at each authority set change),
/// which warp sync and light clients start from.
const GRANDPA_JUSTIFICATION_PERIOD: u32 = 512;

/// GRANDPA's half of block import and its link to the voter, on a chain of validators.
type Grandpa = (
	grandpa::GrandpaBlockImport<FullBackend, Block, FullClient, FullSelectChain>,
	grandpa::LinkHalf<Block, FullClient, FullSelectChain>,
);

/// The parts of a node that the import and export commands need too.
pub type PartialComponents = sc_service::PartialComponents<
	FullClient,
	FullBackend,
	FullSelectChain,
	BasicQueue<Block>,
	sc_transaction_pool::TransactionPoolHandle<Block, FullClient>,
	(Sealing, Option<Grandpa>),
>;

/// Client, ParityDB backend, transaction pool and the import queue of the chain's sealing
/// (`--sealing` `flag`, or the default for its validators: [`Sealing::resolve`]), without any
/// task running.
pub fn new_partial(
	config: &Configuration,
	flag: Option<Sealing>,
) -> Result<PartialComponents, ServiceError> {
	let executor = sc_service::new_wasm_executor::<HostFunctions>(&config.executor);
	// Pruning keeps the blocks with GRANDPA justifications, which warp sync serves (a chain
	// sealed on demand has none).
	let pruning_filters: Vec<Arc<dyn PruningFilter>> =
		vec![Arc::new(grandpa::GrandpaPruningFilter)];
	let (client, backend, keystore_container, task_manager) =
		sc_service::new_full_parts::<Block, RuntimeApi, _>(
			config,
			None,
			executor,
			pruning_filters,
		)?;
	let sealing = resolve_sealing(&client, flag)?;
	let client = Arc::new(client);
	// What the node remembers of committees' signer sets is scoped to the code a call executes;
	// a chain spec's code substitutes run under another code's hash, so with them it remembers
	// nothing.
	if config.chain_spec.code_substitutes().is_empty() {
		client
			.execution_extensions()
			.set_extensions_factory(ExecutingCodeFactory::<_, FullBackend>::new(&client));
	}
	let select_chain = LongestChain::new(backend.clone());

	let transaction_pool = Arc::from(
		sc_transaction_pool::Builder::new(
			task_manager.spawn_essential_handle(),
			client.clone(),
			config.role.is_authority().into(),
		)
		.with_options(config.transaction_pool.clone())
		.with_prometheus(config.prometheus_registry())
		.build(),
	);

	let (import_queue, grandpa) = if sealing == Sealing::Aura {
		// Blocks from the network: Aura checks each one's slot and author's seal, GRANDPA
		// tracks authority sets and imports justifications; the client executes every block.
		let (block_import, link) = grandpa::block_import(
			client.clone(),
			GRANDPA_JUSTIFICATION_PERIOD,
			&CheckedGrandpaGenesis(client.clone()),
			select_chain.clone(),
			None,
		)?;
		let slots_client = client.clone();
		let import_queue = aura::import_queue::<AuraPair, _, _, _, _, _>(ImportQueueParams {
			block_import: block_import.clone(),
			justification_import: Some(Box::new(block_import.clone())),
			client: client.clone(),
			create_inherent_data_providers: move |parent, ()| {
				let client = slots_client.clone();
				async move {
					let slot_duration =
						aura::standalone::slot_duration_at::<AuraId, _, _>(&*client, parent)?;
					Ok(slot_inherent_data(slot_duration))
				}
			},
			spawner: &task_manager.spawn_essential_handle(),
			registry: config.prometheus_registry(),
			check_for_equivocation: Default::default(),
			telemetry: None,
			compatibility_mode: Default::default(),
		})?;
		(import_queue, Some((block_import, link)))
	} else {
		// Blocks come only from this node's sealing task (imported directly, not through this
		// queue) or from `import-blocks`; the queue refuses any a peer sends.
		let import_queue = BasicQueue::new(
			SealedHereOnly,
			Box::new(client.clone()),
			None,
			&task_manager.spawn_essential_handle(),
			config.prometheus_registry(),
		);
		(import_queue, None)
	};

	Ok(sc_service::PartialComponents {
		client,
		backend,
		task_manager,
		keystore_container,
		select_chain,
		import_queue,
		transaction_pool,
		other: (sealing, grandpa),
	})
}

/// The import check of a chain sealed on demand, whose blocks carry no seal anyone could
/// check: it imports blocks from a file (`import-blocks`), and refuses every block a peer
/// sends — a node started on such a chain with reserved peers would otherwise import whatever
/// they make. (This node's own blocks are imported by the sealing task, not through here.)
pub struct SealedHereOnly;

/// Why [`SealedHereOnly`] refuses a block; the node logs it beside the block and its peer.
pub const PEER_BLOCK_REFUSAL: &str =
	"a chain sealed on demand (instant or manual seal) imports no blocks from peers";

#[async_trait::async_trait]
impl<B: BlockT> Verifier<B> for SealedHereOnly {
	async fn verify(
		&self,
		mut block: BlockImportParams<B>,
	) -> Result<BlockImportParams<B>, String> {
		match block.origin {
			BlockOrigin::File | BlockOrigin::Own | BlockOrigin::Genesis => {},
			BlockOrigin::NetworkInitialSync
			| BlockOrigin::NetworkBroadcast
			| BlockOrigin::ConsensusBroadcast
			| BlockOrigin::WarpSync
			| BlockOrigin::GapSync => return Err(PEER_BLOCK_REFUSAL.into()),
		}
		// As manual seal's own verifier: the longest chain, finalized by this node's sealing.
		block.finalized = false;
		block.fork_choice = Some(ForkChoiceStrategy::LongestChain);
		Ok(block)
	}
}

/// The inherent data of an Aura block: its slot and the time, now.
fn slot_inherent_data(
	slot_duration: aura::SlotDuration,
) -> (aura::InherentDataProvider, sp_timestamp::InherentDataProvider) {
	let timestamp = sp_timestamp::InherentDataProvider::from_system_time();
	let slot =
		aura::InherentDataProvider::from_timestamp_and_slot_duration(*timestamp, slot_duration);
	(slot, timestamp)
}

/// Builds the node on network backend `N` and starts its tasks; the chain runs until the
/// returned task manager stops.
pub fn new_full<N: NetworkBackend<Block, <Block as BlockT>::Hash>>(
	mut config: Configuration,
	sealing: Option<Sealing>,
) -> Result<TaskManager, ServiceError> {
	let sc_service::PartialComponents {
		client,
		backend,
		mut task_manager,
		keystore_container,
		select_chain,
		import_queue,
		transaction_pool,
		other: (sealing, grandpa),
	} = new_partial(&config, sealing)?;

	if let Some(registry) = config.prometheus_registry() {
		crate::key_cache_metrics::register_metrics(registry)?;
	}

	if grandpa.is_none() {
		// A single-node chain: no peers in or out.
		config.network.default_peers_set.in_peers = 0;
		config.network.default_peers_set.out_peers = 0;
	}
	let mut net_config = FullNetworkConfiguration::<Block, <Block as BlockT>::Hash, N>::new(
		&config.network,
		config.prometheus_registry().cloned(),
	);
	let metrics = N::register_notification_metrics(config.prometheus_registry());

	// GRANDPA's gossip protocol, and warp sync from its justifications.
	let mut grandpa_protocol = None;
	let mut warp_sync_config = None;
	if let Some((_, link)) = &grandpa {
		let protocol_name =
			grandpa::protocol_standard_name(&client.info().genesis_hash, &config.chain_spec);
		let (protocol_config, notification_service) = grandpa::grandpa_peers_set_config::<_, N>(
			protocol_name.clone(),
			metrics.clone(),
			net_config.peer_store_handle(),
		);
		net_config.add_notification_protocol(protocol_config);
		grandpa_protocol = Some((protocol_name, notification_service));
		warp_sync_config = Some(WarpSyncConfig::WithProvider(Arc::new(
			grandpa::warp_proof::NetworkProvider::new(
				backend.clone(),
				link.shared_authority_set().clone(),
				Vec::new(),
			),
		)));
	}

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
			warp_sync_config,
			block_relay: None,
			metrics,
			gap_sync_body_policy: None,
		})?;

	let mut proposer = ProposerFactory::new(
		task_manager.spawn_handle(),
		client.clone(),
		transaction_pool.clone(),
		config.prometheus_registry(),
		None,
	);
	proposer.set_default_block_size_limit(longest_block_length());
	let create_inherent_data_providers =
		|_parent, ()| async { Ok(sp_timestamp::InherentDataProvider::from_system_time()) };

	// GRANDPA's voter, started once `spawn_tasks` has put the dev keys of `--alice` … into the
	// keystore: it looks its key up when a round begins.
	let mut grandpa_voter = None;
	let sealing_commands = match sealing {
		Sealing::Instant => {
			let authorship = manual_seal::run_instant_seal_and_finalize(InstantSealParams {
				block_import: client.clone(),
				env: WithoutProofRecording(proposer),
				client: client.clone(),
				pool: transaction_pool.clone(),
				select_chain,
				consensus_data_provider: None,
				create_inherent_data_providers,
			});
			task_manager.spawn_essential_handle().spawn_blocking(
				"instant-seal",
				None,
				authorship.boxed(),
			);
			None
		},
		Sealing::Manual => {
			let (commands, commands_stream) = mpsc::channel(SEALING_QUEUE);
			let authorship = manual_seal::run_manual_seal(ManualSealParams {
				block_import: client.clone(),
				env: WithoutProofRecording(proposer),
				client: client.clone(),
				pool: transaction_pool.clone(),
				commands_stream: Box::pin(commands_stream),
				select_chain,
				consensus_data_provider: None,
				create_inherent_data_providers,
			});
			task_manager.spawn_essential_handle().spawn_blocking(
				"manual-seal",
				None,
				authorship.boxed(),
			);
			Some(commands)
		},
		Sealing::Aura => {
			let (block_import, link) = grandpa.expect("new_partial sets GRANDPA up for Aura");
			if config.role.is_authority() {
				let slot_duration = aura::slot_duration(&*client)?;
				let authorship =
					aura::start_aura::<AuraPair, _, _, _, _, _, _, _, _, _, _>(StartAuraParams {
						slot_duration,
						client: client.clone(),
						select_chain,
						block_import,
						proposer_factory: proposer,
						sync_oracle: sync_service.clone(),
						justification_sync_link: sync_service.clone(),
						create_inherent_data_providers: move |_parent, ()| async move {
							Ok(slot_inherent_data(slot_duration))
						},
						force_authoring: config.force_authoring,
						backoff_authoring_blocks: Option::<()>::None,
						keystore: keystore_container.keystore(),
						block_proposal_slot_portion: SlotProportion::new(2f32 / 3f32),
						max_block_proposal_slot_portion: None,
						telemetry: None,
						compatibility_mode: Default::default(),
					})?;
				task_manager.spawn_essential_handle().spawn_blocking(
					"aura",
					Some("block-authoring"),
					authorship,
				);
			}
			grandpa_voter = Some(link);
			None
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

	let voter_network = (network.clone(), sync_service.clone(), transaction_pool.clone());
	let (role, node_name, disable_grandpa) =
		(config.role, config.network.node_name.clone(), config.disable_grandpa);
	let prometheus_registry = config.prometheus_registry().cloned();
	let keystore = keystore_container.keystore();

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

	if let (Some(link), Some((protocol_name, notification_service)), false) =
		(grandpa_voter, grandpa_protocol, disable_grandpa)
	{
		let (network, sync, transaction_pool) = voter_network;
		let voter = grandpa::run_grandpa_voter(grandpa::GrandpaParams {
			config: grandpa::Config {
				gossip_duration: Duration::from_millis(333),
				justification_generation_period: GRANDPA_JUSTIFICATION_PERIOD,
				observer_enabled: false,
				local_role: role,
				name: Some(node_name),
				keystore: role.is_authority().then_some(keystore),
				telemetry: None,
				protocol_name,
			},
			link,
			network,
			sync,
			notification_service,
			voting_rule: grandpa::VotingRulesBuilder::default().build(),
			prometheus_registry,
			shared_voter_state: grandpa::SharedVoterState::empty(),
			telemetry: None,
			offchain_tx_pool_factory: OffchainTransactionPoolFactory::new(transaction_pool),
		})?;
		task_manager
			.spawn_essential_handle()
			.spawn_blocking("grandpa-voter", None, voter);
	}

	Ok(task_manager)
}
