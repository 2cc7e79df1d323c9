//! Throughput of a network of validators at real block times: a fresh local testnet of
//! `pq-node` validators (Aura, GRANDPA) per case, transfers offered at a steady rate to every
//! node in turn, and what the network finalizes — per block and per second, how far finality
//! lags, what the pools hold, what each node gossips, and which block limit binds.

use super::{
	measure::{setup_transactions, sign_transfers, to_alice},
	workload::{Case, Workload},
};
use anyhow::{ensure, Context};
use jsonrpsee::rpc_params;
use polkadot_sdk::{
	frame_support::{dispatch::DispatchClass, storage::storage_prefix},
	frame_system::{self, ConsumedWeight},
	sp_core::H256,
};
use pq_runtime::{Runtime, UNIT};
use pq_runtime_client::{
	node_process::{write_local_testnet_spec, NodeProcess},
	rpc::RpcClient,
	transactions::{self, Form},
};
use std::{
	io::Write,
	path::Path,
	sync::atomic::{AtomicBool, Ordering},
	time::{Duration, Instant},
};

/// The validators of every run, as `--alice` …: GRANDPA needs all three.
const VALIDATORS: [&str; 3] = ["alice", "bob", "charlie"];
/// Pools large enough to hold a run's backlog (the flood uses the defaults instead).
const LARGE_POOL: [&str; 4] = ["--pool-limit", "200000", "--pool-kbytes", "4194304"];

/// How a run offers its transactions.
#[derive(Clone, Copy, Debug)]
pub struct Load {
	/// Transactions offered.
	pub transactions: usize,
	/// Offered per second, spread over the nodes; `None` offers them as fast as the nodes take
	/// them, one after another (a flood).
	pub per_second: Option<f64>,
	/// The validators' block time.
	pub slot: Duration,
}

/// One finalized block of a run.
#[derive(Clone, Debug)]
pub struct NetworkBlock {
	/// Its number.
	pub number: u32,
	/// Transfers in it.
	pub transactions: usize,
	/// Their encoded bytes.
	pub bytes: usize,
	/// Normal-class weight it consumed (ref time, ps).
	pub ref_time: u64,
	/// Its timestamp (ms).
	pub timestamp: u64,
	/// Best block number minus this one's when it was seen final: the finality lag in blocks.
	pub lag: u32,
}

/// What a run measured.
#[derive(Clone, Debug)]
pub struct NetworkMeasurement {
	/// The case.
	pub case: Case,
	/// How the transactions were offered.
	pub load: Load,
	/// Bytes of one transfer.
	pub bytes_per_transaction: usize,
	/// Offered transactions the nodes refused (a full pool), by reason.
	pub refused: Vec<(String, usize)>,
	/// The finalized blocks that held a transfer.
	pub blocks: Vec<NetworkBlock>,
	/// The timestamp (ms) of the block before the first of `blocks`: when the period that
	/// produced them began.
	pub start_timestamp: u64,
	/// Most transactions any node's pool held at once (sampled every half second).
	pub peak_backlog: usize,
	/// Bytes each node sent to its peers during the run, by notification protocol
	/// (`transactions`, `block-announces`, `grandpa`).
	pub sent: Vec<Vec<(String, u64)>>,
	/// Peak resident memory of each node, in KiB.
	pub peak_memory_kib: Vec<u64>,
	/// Whether every node still ran at the end.
	pub all_running: bool,
}

impl NetworkMeasurement {
	/// Transfers finalized.
	pub fn included(&self) -> usize {
		self.blocks.iter().map(|block| block.transactions).sum()
	}

	/// Blocks from the first with a transfer to the last, empty ones between included.
	pub fn period_blocks(&self) -> u32 {
		match (self.blocks.first(), self.blocks.last()) {
			(Some(first), Some(last)) => last.number - first.number + 1,
			_ => 0,
		}
	}

	/// Finalized transfers per second, over the chain's own time from the block before the first
	/// with a transfer to the last (missed slots included).
	pub fn per_second(&self) -> f64 {
		let elapsed_ms = self
			.blocks
			.last()
			.map_or(0, |last| last.timestamp.saturating_sub(self.start_timestamp));
		if elapsed_ms == 0 {
			return 0.0;
		}
		self.included() as f64 * 1000.0 / elapsed_ms as f64
	}
}

/// The node's network: a chain specification of the local testnet with `accounts` endowed and
/// the block time `slot`, and its validators started with `args`.
struct Network {
	nodes: Vec<NodeProcess>,
	rpcs: Vec<RpcClient>,
	binary: std::path::PathBuf,
	args: Vec<String>,
	directory: tempfile::TempDir,
}

impl Network {
	async fn start(
		node: &Path,
		accounts: &[polkadot_sdk::sp_runtime::AccountId32],
		slot: Duration,
		args: &[&str],
	) -> anyhow::Result<Self> {
		let directory = tempfile::tempdir()?;
		let spec = directory.path().join("spec.json");
		let endowed: Vec<_> =
			accounts.iter().map(|account| (account.clone(), 1_000 * UNIT)).collect();
		write_local_testnet_spec(node, VALIDATORS.len(), slot.as_millis() as u64, &endowed, &spec)?;
		let spec = spec.to_str().context("temporary path is UTF-8")?.to_owned();
		let args = ["--chain", &spec, "--unsafe-force-node-key-generation"]
			.into_iter()
			.chain(args.iter().copied())
			.map(String::from)
			.collect();
		let mut network =
			Self { nodes: Vec::new(), rpcs: Vec::new(), binary: node.to_owned(), args, directory };
		for index in 0..VALIDATORS.len() {
			let validator = network.start_validator(index).await?;
			network.rpcs.push(validator.rpc().await);
			network.nodes.push(validator);
		}
		network.until_finalized(1, Duration::from_secs(120)).await?;
		Ok(network)
	}

	/// Starts validator `index` on its base path (again, after a crash), bootstrapping from the
	/// first unless it is the first.
	async fn start_validator(&self, index: usize) -> anyhow::Result<NodeProcess> {
		let name = VALIDATORS[index];
		let base_path = self.directory.path().join(name);
		std::fs::create_dir_all(&base_path)?;
		let role = format!("--{name}");
		let mut all: Vec<&str> = self.args.iter().map(String::as_str).collect();
		all.push(&role);
		let bootnode = match self.nodes.first() {
			Some(first) if index > 0 => Some(first.multiaddr().await),
			_ => None,
		};
		if let Some(bootnode) = &bootnode {
			all.extend(["--bootnodes", bootnode.as_str()]);
		}
		Ok(NodeProcess::start(&self.binary, &base_path, &all).await)
	}

	/// Waits until every node has finalized block `number`.
	async fn until_finalized(&self, number: u32, patience: Duration) -> anyhow::Result<()> {
		let deadline = Instant::now() + patience;
		for rpc in &self.rpcs {
			while rpc.finalized_head().await?.1 < number {
				ensure!(
					Instant::now() < deadline,
					"block {number} not finalized within {patience:?}"
				);
				tokio::time::sleep(Duration::from_millis(250)).await;
			}
		}
		Ok(())
	}

	async fn stop(self) -> bool {
		let all_running = self.nodes.iter().all(NodeProcess::is_running);
		drop(self.rpcs);
		for node in self.nodes {
			node.stop().await;
		}
		all_running
	}
}

/// How a validator that crashed rejoins.
#[derive(Clone, Copy, Debug)]
pub struct CatchUp {
	/// Blocks the others made while it was down.
	pub behind: u32,
	/// From its restart until it answers JSON-RPC (process start, database, runtime).
	pub to_rpc: Duration,
	/// From its restart until its best block is the others' best.
	pub to_head: Duration,
	/// From its restart until the network finalizes a block made after the restart.
	pub to_finality: Duration,
}

/// Crashes the last validator of a fresh, idle network of `node` with `slot` blocks, lets the
/// others make `behind` blocks, restarts it on its base path and times its return.
pub async fn catch_up(node: &Path, slot: Duration, behind: u32) -> anyhow::Result<CatchUp> {
	let mut network = Network::start(node, &[], slot, &[]).await?;
	let last = VALIDATORS.len() - 1;
	network.rpcs.truncate(last);
	network.nodes.pop().context("a validator to crash")?.crash();
	let rpc = &network.rpcs[0];
	let from = rpc.best_number().await?;
	let deadline = Instant::now() + slot * (behind + 20);
	while rpc.best_number().await? < from + behind {
		ensure!(Instant::now() < deadline, "two validators made no {behind} blocks");
		tokio::time::sleep(Duration::from_millis(250)).await;
	}

	let restarted_at = Instant::now();
	let head_at_restart = rpc.best_number().await?;
	let restarted = network.start_validator(last).await?;
	let to_rpc = restarted_at.elapsed();
	let restarted_rpc = restarted.rpc().await;
	let deadline = Instant::now() + Duration::from_secs(600);
	while restarted_rpc.best_number().await? < rpc.best_number().await? {
		ensure!(Instant::now() < deadline, "the restarted validator did not catch up in 600 s");
		tokio::time::sleep(Duration::from_millis(100)).await;
	}
	let to_head = restarted_at.elapsed();
	while rpc.finalized_head().await?.1 <= head_at_restart {
		ensure!(Instant::now() < deadline, "finality did not resume in 600 s");
		tokio::time::sleep(Duration::from_millis(100)).await;
	}
	let to_finality = restarted_at.elapsed();
	let behind = head_at_restart - from;
	network.nodes.push(restarted);
	network.rpcs.push(restarted_rpc);
	network.stop().await;
	Ok(CatchUp { behind, to_rpc, to_head, to_finality })
}

/// Runs `case` under `load` on a fresh network of `node` validators.
pub async fn run(
	node: &Path,
	case: Case,
	load: Load,
	progress: &mut impl Write,
) -> anyhow::Result<NetworkMeasurement> {
	let first_nonce = u32::from(case.form == Form::KeyRegistered);
	let workload = Workload::new(case.scheme, load.transactions, first_nonce)?;
	let pool_args: &[&str] = if load.per_second.is_some() { &LARGE_POOL } else { &[] };
	let network = Network::start(node, &workload.accounts(), load.slot, pool_args).await?;
	let chain =
		transactions::ChainIdentity { checkpoint: None, ..network.rpcs[0].chain_identity().await? };

	let setup = setup_transactions(&workload, case.form, &chain);
	if !setup.is_empty() {
		for extrinsic in &setup {
			network.rpcs[0].submit(extrinsic).await?;
		}
		let accounts = workload.accounts();
		let deadline = Instant::now() + Duration::from_secs(300);
		// Each setup transaction is its sender's first: done once every sender's nonce is 1.
		for account in accounts.iter().take(setup.len()) {
			while network.rpcs[0]
				.account(account, Some(network.rpcs[0].finalized_head().await?.0))
				.await?
				.nonce == 0
			{
				ensure!(Instant::now() < deadline, "setup not finalized within 300 s");
				tokio::time::sleep(Duration::from_millis(500)).await;
			}
		}
		writeln!(progress, "  set up {} keys or committees", setup.len())?;
	}

	let signed = sign_transfers(&workload, case.form, &chain, to_alice)?;
	let bytes_per_transaction =
		signed.first().map(Vec::len).context("a run offers at least one transfer")?;
	let (_, start_number) = network.rpcs[0].finalized_head().await?;
	let before = sent_bytes(&network).await?;
	writeln!(progress, "  offering {} transfers of {bytes_per_transaction} bytes", signed.len())?;

	let offered = AtomicBool::new(false);
	let offer = async {
		let refused = offer(&network.rpcs, &signed, load.per_second).await;
		offered.store(true, Ordering::Relaxed);
		refused
	};
	let observe = observe(&network, start_number, signed.len(), load.slot, &offered);
	let (refused, (observed, peak_backlog)) = tokio::join!(offer, observe);
	let refused = refused?;
	let (blocks, start_timestamp) = observed?;

	let after = sent_bytes(&network).await?;
	let sent = before
		.iter()
		.zip(&after)
		.map(|(before, after)| {
			after
				.iter()
				.map(|(name, bytes)| {
					(name.clone(), bytes - before.iter().find(|b| &b.0 == name).map_or(0, |b| b.1))
				})
				.collect()
		})
		.collect();
	let peak_memory_kib = network.nodes.iter().map(|node| peak_memory_kib(node.pid())).collect();
	let all_running = network.stop().await;
	Ok(NetworkMeasurement {
		case,
		load,
		bytes_per_transaction,
		refused,
		blocks,
		start_timestamp,
		peak_backlog,
		sent,
		peak_memory_kib,
		all_running,
	})
}

/// Submits `signed` to the nodes in turn, `per_second` (or all at once); counts refusals by
/// reason.
async fn offer(
	rpcs: &[RpcClient],
	signed: &[Vec<u8>],
	per_second: Option<f64>,
) -> anyhow::Result<Vec<(String, usize)>> {
	let started = Instant::now();
	let mut refused: Vec<(String, usize)> = Vec::new();
	for (index, extrinsic) in signed.iter().enumerate() {
		if let Some(rate) = per_second {
			let due = started + Duration::from_secs_f64(index as f64 / rate);
			tokio::time::sleep_until(due.into()).await;
		}
		if let Err(error) = rpcs[index % rpcs.len()].submit(extrinsic).await {
			let reason = error.to_string();
			match refused.iter_mut().find(|(known, _)| *known == reason) {
				Some((_, count)) => *count += 1,
				None => refused.push((reason, 1)),
			}
		}
	}
	Ok(refused)
}

/// Follows the finalized chain from block `after` until `expected` transfers are final, or
/// nothing more arrives for ten slots once everything is `offered`; samples the pools' backlog.
/// The blocks from the first with a transfer to the last, and the timestamp of the block
/// before them.
async fn observe(
	network: &Network,
	after: u32,
	expected: usize,
	slot: Duration,
	offered: &AtomicBool,
) -> (anyhow::Result<(Vec<NetworkBlock>, u64)>, usize) {
	let weight_key = storage_prefix(b"System", b"BlockWeight");
	let now_key = storage_prefix(b"Timestamp", b"Now");
	let rpc = &network.rpcs[0];
	let mut blocks: Vec<NetworkBlock> = Vec::new();
	let mut next = after + 1;
	let mut peak_backlog = 0;
	let mut quiet_since = Instant::now();
	let result = async {
		let before: H256 = rpc.request("chain_getBlockHash", rpc_params![after]).await?;
		let mut start_timestamp: u64 =
			rpc.storage(&now_key, Some(before)).await?.unwrap_or_default();
		loop {
			for node in &network.nodes {
				let metrics = node.metrics().await;
				let pooled = metric(&metrics, "substrate_sub_txpool_watched_txs")
					+ metric(&metrics, "substrate_sub_txpool_unwatched_txs");
				peak_backlog = peak_backlog.max(pooled as usize);
			}
			let (_, finalized_number) = rpc.finalized_head().await?;
			let best = rpc.best_number().await?;
			while next <= finalized_number {
				let hash: H256 = rpc.request("chain_getBlockHash", rpc_params![next]).await?;
				let body = rpc.block(hash).await?;
				let transfers = &body.extrinsics[1..];
				let consumed: ConsumedWeight =
					rpc.storage(&weight_key, Some(hash)).await?.unwrap_or_default();
				let timestamp: u64 = rpc.storage(&now_key, Some(hash)).await?.unwrap_or_default();
				if transfers.is_empty() {
					if blocks.is_empty() {
						start_timestamp = timestamp;
					}
				} else {
					quiet_since = Instant::now();
					blocks.push(NetworkBlock {
						number: next,
						transactions: transfers.len(),
						bytes: transfers.iter().map(|extrinsic| extrinsic.len()).sum(),
						ref_time: consumed.get(DispatchClass::Normal).ref_time(),
						timestamp,
						lag: best.saturating_sub(next),
					});
				}
				next += 1;
			}
			let included: usize = blocks.iter().map(|block| block.transactions).sum();
			let idle = offered.load(Ordering::Relaxed) && quiet_since.elapsed() > 10 * slot;
			if included >= expected || idle {
				break;
			}
			tokio::time::sleep(Duration::from_millis(500)).await;
		}
		Ok((blocks, start_timestamp))
	}
	.await;
	(result, peak_backlog)
}

/// The sum of the Prometheus samples named `name` (every label set).
fn metric(metrics: &str, name: &str) -> f64 {
	metrics
		.lines()
		.filter(|line| line.strip_prefix(name).is_some_and(|rest| rest.starts_with([' ', '{'])))
		.filter_map(|line| line.rsplit(' ').next()?.parse::<f64>().ok())
		.sum()
}

/// Bytes each node has sent, by protocol, from its Prometheus counters.
async fn sent_bytes(network: &Network) -> anyhow::Result<Vec<Vec<(String, u64)>>> {
	let mut all = Vec::new();
	for node in &network.nodes {
		let metrics = node.metrics().await;
		let mut sent: Vec<(String, u64)> = Vec::new();
		for line in metrics.lines().filter(|line| {
			line.starts_with("substrate_sub_libp2p_notifications_sizes_sum{direction=\"out\"")
		}) {
			let protocol = line
				.split("protocol=\"")
				.nth(1)
				.and_then(|rest| rest.split('"').next())
				.unwrap_or("");
			let name = protocol.rsplit('/').nth(1).unwrap_or(protocol).to_owned();
			let bytes = line
				.rsplit(' ')
				.next()
				.and_then(|value| value.parse::<f64>().ok())
				.unwrap_or(0.0) as u64;
			match sent.iter_mut().find(|(known, _)| *known == name) {
				Some((_, total)) => *total += bytes,
				None => sent.push((name, bytes)),
			}
		}
		sent.sort();
		all.push(sent);
	}
	Ok(all)
}

/// A process's peak resident memory (`VmHWM`), in KiB.
fn peak_memory_kib(pid: u32) -> u64 {
	std::fs::read_to_string(format!("/proc/{pid}/status"))
		.ok()
		.and_then(|status| {
			status.lines().find_map(|line| {
				line.strip_prefix("VmHWM:")
					.map(|rest| rest.trim().trim_end_matches(" kB").trim().parse().ok())
			})
		})
		.flatten()
		.unwrap_or(0)
}

/// The normal class's weight and length limits of a block, to tell which one a run hit.
pub fn block_limits() -> (u64, usize) {
	let weights = <Runtime as frame_system::Config>::BlockWeights::get();
	let length = <Runtime as frame_system::Config>::BlockLength::get();
	let max_weight = weights
		.get(DispatchClass::Normal)
		.max_total
		.unwrap_or(weights.max_block)
		.ref_time();
	(max_weight, *length.max.get(DispatchClass::Normal) as usize)
}
