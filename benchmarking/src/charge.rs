//! The charged-vs-measured check: is every transaction kind charged at least what it costs?
//!
//! Each kind runs on a fresh manual-seal `pq-node` of one runtime build: distinct senders (so
//! every key is decoded cold, as the weights assume) send one transaction each (a transfer to
//! an account it creates, the case the transfer's weight charges), after
//! whatever the kind needs on chain first (registered keys, committees). What the chain
//! *charges* for the kind's blocks is the weight they consumed, every class, plus each
//! block's base weight; what they *cost* is the time the node takes to execute them again
//! (`Core_execute_block` at the parent block, over JSON-RPC) with its decoded-key caches and
//! its trie cache off, on the state of a busy chain ([`FILLER_ACCOUNTS`]): every transaction,
//! the inherent, block initialization and finalization and the state root, the median of three
//! executions. The block weight limit is only a bound on block time if
//! the first is at least the second. The weights are the machine at its reference speed, so a
//! run counts only if the machine was at that speed right before and right after its
//! executions ([`machine_state`]); a kind is judged by the median of those runs ([`Verdict`]),
//! and the runs in a slow stretch are reported beside it.
//! See `docs/benchmarking.md`.

use crate::{
	grouped_in_thousands, machine_state, machine_summary, median_by,
	throughput::{
		measure::{
			author_until_included, manual_seal_node, scratch_chain, setup_transactions,
			sign_transfers, submit_all, BlockStats,
		},
		workload::{Verifier, Workload},
	},
};
use anyhow::{anyhow, Context};
use codec::Encode;
use jsonrpsee::rpc_params;
use polkadot_sdk::{
	frame_system,
	sp_core::{Bytes, H256},
	sp_crypto_hashing::blake2_256,
	sp_runtime::{generic::SignedBlock, AccountId32},
};
use pq_crypto::{aggregate::SignerBitfield, Scheme};
use pq_runtime::{opaque, RuntimeCall};
use pq_runtime_client::rpc::RpcClient;
use pq_runtime_client::transactions::{self, ChainIdentity, Form, Sender};
use pq_signer::{aggregator::Committee, signing::Keypair};
use std::{
	fmt::Write as _,
	io::Write,
	path::Path,
	time::{Duration, Instant},
};

/// A transaction kind, as the check runs it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
	/// A transfer of `scheme` in `form`.
	Transfer(Scheme, Form),
	/// A transfer from a committee of `size` members signed by `signers` of them, each from a
	/// committee of its own (every share read cold, a fresh `pk*`).
	CommitteeTransfer {
		/// Members.
		size: u32,
		/// Signers of each transfer.
		signers: u32,
	},
	/// `register_key` of an account's own ML-DSA-87 key, key inline.
	RegisterKey,
	/// An Ed25519 account migrating to an ML-DSA-87 key and accepting only it (ordinary signed
	/// extrinsic, proof of possession).
	Migrate,
	/// `rotate_key` of a migrated account from ML-DSA-44 to ML-DSA-87, registered key.
	RotateKey,
	/// `remove_key` of a registered ML-DSA-87 key, registered key.
	RemoveKey,
	/// `System::remark` of `bytes` zero bytes, Ed25519 key inline: the cheapest signed
	/// extrinsic, and with a long remark the cost of an extrinsic's bytes (the calibration of
	/// the base extrinsic weight).
	Remark {
		/// Length of the remark.
		bytes: u32,
	},
}

impl Kind {
	/// Every kind: each scheme and form of a transfer, committees with few and many share
	/// reads, the key registry's calls, and an empty and a long remark.
	pub fn all() -> Vec<Kind> {
		let mut kinds = vec![Kind::Transfer(Scheme::Ed25519, Form::KeyInline)];
		for scheme in Scheme::ML_DSA {
			for form in [Form::KeyInline, Form::KeyRegistered] {
				kinds.push(Kind::Transfer(scheme, form));
			}
		}
		kinds.extend([
			Kind::CommitteeTransfer { size: 16, signers: 9 },
			Kind::CommitteeTransfer { size: 128, signers: 64 },
			Kind::RegisterKey,
			Kind::Migrate,
			Kind::RotateKey,
			Kind::RemoveKey,
			Kind::Remark { bytes: 0 },
			Kind::Remark { bytes: LONG_REMARK },
		]);
		kinds
	}

	/// As the table labels it.
	pub fn label(&self) -> String {
		match self {
			Kind::Transfer(scheme, form) => format!("transfer, {} {}", scheme.name(), form.label()),
			Kind::CommitteeTransfer { size, signers } => {
				format!("transfer, committee {signers} of {size}")
			},
			Kind::RegisterKey => "register_key, ml-dsa-87".into(),
			Kind::Migrate => "register_key, ed25519 → ml-dsa-87 migration".into(),
			Kind::RotateKey => "rotate_key, ml-dsa-44 → ml-dsa-87".into(),
			Kind::RemoveKey => "remove_key, ml-dsa-87".into(),
			Kind::Remark { bytes } => format!("remark of {bytes} bytes, ed25519 key inline"),
		}
	}
}

/// The long remark's length: about an ML-DSA-87 key-inline transfer's, the longest kind.
pub const LONG_REMARK: u32 = 7_168;

/// What one kind needs: its senders, endowed at genesis, and its transactions.
pub(crate) struct Plan {
	kind: Kind,
	/// The senders; for transfers, also the transfers, as the throughput harness runs them.
	pub(crate) load: Workload,
	/// For `RotateKey`: each sender's registered key before the rotation.
	old_keys: Vec<Keypair>,
	/// For `Migrate` and `RotateKey`: each sender's new key.
	new_keys: Vec<Keypair>,
}

/// The key of sender `index` in `role` (`sender` for transfers) of a kind of `scheme`.
pub fn keypair(scheme: Scheme, role: &str, index: usize) -> anyhow::Result<Keypair> {
	let seed = blake2_256(&("pq-charge", role, scheme.name(), index as u32).encode());
	Keypair::from_seed(scheme, &seed).map_err(|error| anyhow!("{error:?}"))
}

/// The recipient of transfer `position`: an account of its own that does not exist yet, so each
/// transfer creates it and reads it cold — the case `transfer_keep_alive`'s weight charges.
fn created_recipient(position: usize) -> AccountId32 {
	AccountId32::new(blake2_256(&("pq-charge", "recipient", position as u32).encode()))
}

/// Accounts endowed besides the senders when measuring: the state of a busy chain, as the
/// database weights are measured on (`scripts/generate-weights.sh`'s ACCOUNTS).
pub const FILLER_ACCOUNTS: u32 = 100_000;

/// The most committee shares a `CommitteeTransfer` kind stores (5,888 bytes each: 75 MB):
/// each transfer is sent by a committee of its own, so that every share read is cold, as the
/// weights charge; a kind of large committees sends fewer transfers (100 of 128 members).
const COMMITTEE_SHARES: usize = 12_800;

impl Plan {
	pub(crate) fn new(kind: Kind, transactions: usize) -> anyhow::Result<Self> {
		let keys = |scheme, role| {
			(0..transactions)
				.map(|index| keypair(scheme, role, index))
				.collect::<anyhow::Result<Vec<_>>>()
		};
		let senders = |senders: Vec<Keypair>, nonce: u32| {
			let transfers = (0..senders.len()).map(|sender| (sender, nonce)).collect();
			Workload::Keys { senders, transfers }
		};
		let (mut old_keys, mut new_keys) = (Vec::new(), Vec::new());
		let load = match kind {
			Kind::Transfer(scheme, form) => {
				senders(keys(scheme, "sender")?, u32::from(form == Form::KeyRegistered))
			},
			Kind::CommitteeTransfer { size, signers } => {
				committee_transfers(size, signers, transactions)?
			},
			Kind::RegisterKey | Kind::RemoveKey => senders(keys(Scheme::MlDsa87, "registrant")?, 0),
			Kind::Remark { .. } => senders(keys(Scheme::Ed25519, "remarker")?, 0),
			Kind::Migrate => {
				new_keys = keys(Scheme::MlDsa87, "migrated")?;
				senders(keys(Scheme::Ed25519, "migrating")?, 0)
			},
			Kind::RotateKey => {
				old_keys = keys(Scheme::MlDsa44, "rotating-old")?;
				new_keys = keys(Scheme::MlDsa87, "rotated")?;
				senders(keys(Scheme::Ed25519, "rotating")?, 0)
			},
		};
		Ok(Plan { kind, load, old_keys, new_keys })
	}

	/// The senders of a registry kind.
	fn senders(&self) -> &[Keypair] {
		match &self.load {
			Workload::Keys { senders, .. } => senders,
			Workload::Committees { .. } => &[],
		}
	}

	/// What must be on chain before the measured transactions.
	pub(crate) fn setup(&self, chain: &ChainIdentity) -> Vec<Vec<u8>> {
		match self.kind {
			Kind::Transfer(_, form) => setup_transactions(&self.load, form, chain),
			Kind::CommitteeTransfer { .. } => {
				setup_transactions(&self.load, Form::Committee, chain)
			},
			// The key to remove.
			Kind::RemoveKey => setup_transactions(&self.load, Form::KeyRegistered, chain),
			Kind::RotateKey => self
				.senders()
				.iter()
				.zip(&self.old_keys)
				.map(|(account, old)| {
					// A migrated account with a small key, accepting only it.
					let call =
						transactions::register_key_call(old, &account.account_id(), true, chain);
					transactions::sign(account, call, 0, 0, Form::KeyInline, chain)
						.expect("a key signs for its own account")
						.encode()
				})
				.collect(),
			Kind::RegisterKey | Kind::Migrate | Kind::Remark { .. } => Vec::new(),
		}
	}

	/// The measured transactions, one per sender (for committees, one per committee).
	pub(crate) fn measured(&self, chain: &ChainIdentity) -> anyhow::Result<Vec<Vec<u8>>> {
		let signed = |sender: Sender, call: RuntimeCall, nonce, form| -> anyhow::Result<Vec<u8>> {
			Ok(transactions::sign(sender, call, nonce, 0, form, chain)?.encode())
		};
		Ok(match self.kind {
			Kind::Transfer(_, form) => sign_transfers(&self.load, form, chain, created_recipient)?,
			Kind::CommitteeTransfer { .. } => {
				sign_transfers(&self.load, Form::Committee, chain, created_recipient)?
			},
			Kind::RegisterKey => self
				.senders()
				.iter()
				.map(|key| {
					signed(
						key.into(),
						transactions::register_key_call(key, &key.account_id(), false, chain),
						0,
						Form::KeyInline,
					)
				})
				.collect::<anyhow::Result<_>>()?,
			Kind::Migrate => self
				.senders()
				.iter()
				.zip(&self.new_keys)
				.map(|(account, new)| {
					signed(
						account.into(),
						transactions::register_key_call(new, &account.account_id(), true, chain),
						0,
						Form::KeyInline,
					)
				})
				.collect::<anyhow::Result<_>>()?,
			Kind::RotateKey => self
				.senders()
				.iter()
				.zip(&self.new_keys)
				.zip(&self.old_keys)
				.map(|((account, new), old)| {
					let call =
						transactions::rotate_key_call(new, &account.account_id(), true, chain);
					signed(
						Sender::Migrated { account: &account.account_id(), key: old },
						call,
						1,
						Form::KeyRegistered,
					)
				})
				.collect::<anyhow::Result<_>>()?,
			Kind::RemoveKey => self
				.senders()
				.iter()
				.map(|key| {
					signed(
						key.into(),
						pallet_pq_verifier::Call::remove_key {}.into(),
						1,
						Form::KeyRegistered,
					)
				})
				.collect::<anyhow::Result<_>>()?,
			Kind::Remark { bytes } => self
				.senders()
				.iter()
				.map(|key| {
					let remark = vec![0; bytes as usize];
					let call = frame_system::Call::remark { remark }.into();
					signed(key.into(), call, 0, Form::KeyInline)
				})
				.collect::<anyhow::Result<_>>()?,
		})
	}
}

/// `transactions` transfers (at most [`COMMITTEE_SHARES`] over `size`), each from a committee
/// of `size` members of its own, signed by its first `signers` members: no share or `pk*` is
/// read twice, as in a block of many committees' transactions.
fn committee_transfers(size: u32, signers: u32, transactions: usize) -> anyhow::Result<Workload> {
	let count = transactions.min(COMMITTEE_SHARES / size as usize);
	let owners = (0..count)
		.map(|index| keypair(Scheme::MlDsa44, "owner", index))
		.collect::<anyhow::Result<Vec<_>>>()?;
	let committees = (0..count)
		.map(|index| {
			Committee::from_seed(
				&blake2_256(&("pq-charge", "committee", size, index as u32).encode()),
				size,
				signers,
			)
		})
		.collect();
	let signer_set = SignerBitfield::new(size, 0..signers).context("signers")?;
	let transfers = (0..count).map(|committee| (committee, 0, signer_set.clone())).collect();
	Ok(Workload::Committees { owners, committees, transfers })
}

/// One kind's result.
#[derive(Clone, Debug)]
pub struct Check {
	/// The runtime build.
	pub verifier: Verifier,
	/// The kind.
	pub kind: Kind,
	/// Transactions measured.
	pub transactions: usize,
	/// Blocks they filled.
	pub blocks: usize,
	/// Their encoded length.
	pub bytes: usize,
	/// What the chain charged for those blocks, in picoseconds of reference time.
	pub charged: u64,
	/// What a fresh node took to import them.
	pub measured: Duration,
	/// The machine-state probes right before the importing node starts and right after it stops.
	pub probes: machine_state::Bracket,
}

impl Check {
	/// Charged time over measured time: at least 1 unless the kind is undercharged.
	pub fn ratio(&self) -> f64 {
		self.charged as f64 / 1e12 / self.measured.as_secs_f64().max(f64::EPSILON)
	}

	fn per_transaction_us(&self, total_ps: f64) -> f64 {
		total_ps / 1e6 / self.transactions as f64
	}

	/// What importing took per transaction, in picoseconds.
	pub fn measured_per_transaction_ps(&self) -> f64 {
		self.measured.as_secs_f64() * 1e12 / self.transactions as f64
	}

	fn bytes_per_transaction(&self) -> f64 {
		self.bytes as f64 / self.transactions as f64
	}
}

/// Runs `kind` on the `verifier` build with `transactions` senders, on a state with `filler`
/// more accounts ([`FILLER_ACCOUNTS`] to measure).
pub async fn run(
	node_binary: &Path,
	verifier: Verifier,
	kind: Kind,
	transactions: usize,
	filler: u32,
	progress: &mut impl Write,
) -> anyhow::Result<Check> {
	let plan = Plan::new(kind, transactions)?;
	let directory = tempfile::tempdir()?;
	let (spec, base_path) =
		scratch_chain(node_binary, verifier, &plan.load.accounts(), filler, directory.path())?;
	let node = manual_seal_node(node_binary, &spec, &base_path, &[]).await;
	let rpc = node.rpc().await;
	let chain = ChainIdentity { checkpoint: None, ..rpc.chain_identity().await? };

	let setup = plan.setup(&chain);
	if !setup.is_empty() {
		submit_all(&rpc, &setup).await?;
		author_until_included(&rpc, setup.len()).await?;
	}
	let measured = plan.measured(&chain)?;
	submit_all(&rpc, &measured).await?;
	let blocks: Vec<BlockStats> = author_until_included(&rpc, measured.len()).await?;
	drop(rpc);
	node.stop().await;

	// The same chain on a node that keeps no decoded key between verifications and no trie
	// node between reads: every first read of a key in a block walks the trie in the database,
	// as the database weights assume.
	let uncached = ["--key-cache-mib", "0", "--trie-cache-size", "0"];
	// The probes run while no node does: on two cores a node's own threads (starting up,
	// settling after the executions) would slow the probe, not the machine.
	let before = machine_state::probe();
	let node = manual_seal_node(node_binary, &spec, &base_path, &uncached).await;
	let rpc = node.rpc().await;
	let mut execution = Duration::ZERO;
	for block in &blocks {
		execution += execution_time(&rpc, block.hash).await?;
	}
	drop(rpc);
	node.stop().await;
	let probes = [before, machine_state::probe()];
	let check = Check {
		verifier,
		kind,
		transactions: measured.len(),
		blocks: blocks.len(),
		bytes: blocks.iter().map(|block| block.bytes).sum(),
		charged: blocks.iter().map(|block| block.charged_ref_time).sum(),
		measured: execution,
		probes,
	};
	writeln!(
		progress,
		"  {} blocks, charged ÷ measured {:.2}; probes ML-DSA-87 {:.1} / {:.1} µs, Ed25519 {:.1} / {:.1} µs",
		check.blocks,
		check.ratio(),
		probes[0].ml_dsa_87.as_secs_f64() * 1e6,
		probes[1].ml_dsa_87.as_secs_f64() * 1e6,
		probes[0].ed25519.as_secs_f64() * 1e6,
		probes[1].ed25519.as_secs_f64() * 1e6,
	)?;
	Ok(check)
}

/// The kinds `--calibrate` measures: an empty and a long signed remark.
pub fn calibration_kinds() -> Vec<Kind> {
	vec![Kind::Remark { bytes: 0 }, Kind::Remark { bytes: LONG_REMARK }]
}

/// The margin on a measured import cost, as on every benchmarked weight
/// (`scripts/generate-weights.sh`): the VM's speed drifts by tens of percent.
const MARGIN: f64 = 1.1;

/// What a runtime build's blocks cost to import beyond the benchmarks of their parts.
pub struct ImportCosts {
	/// The build.
	pub verifier: Verifier,
	/// Import time per Ed25519-signed empty remark, picoseconds: decoding, the signature
	/// check, every transaction extension, dispatch, and the block's share.
	pub signed_remark_ps: f64,
	/// Import time per extrinsic byte, picoseconds: the long remarks' time less the empty
	/// ones', over the bytes between them.
	pub per_byte_ps: f64,
}

/// Each of `verifiers`' import costs, from the runs of [`calibration_kinds`]
/// (`runs[kind][repetition]`). Only repetitions in which both remarks' runs were at the
/// machine's reference speed count (at least [`REFERENCE_RUNS`]): the two runs of one
/// repetition were measured in one state, so the per-byte time, their difference, is never
/// one state's time less another's. Of those, the upper median of the empty remark's time per
/// transaction and of each repetition's per-byte time.
pub fn import_costs(
	verifiers: &[Verifier],
	runs: Vec<Vec<Check>>,
) -> anyhow::Result<Vec<ImportCosts>> {
	let runs = judged_by_state(runs);
	verifiers
		.iter()
		.map(|verifier| {
			let remark = |bytes| {
				runs.iter()
					.find(|runs| {
						runs.first().is_some_and(|(check, _)| {
							check.verifier == *verifier && check.kind == Kind::Remark { bytes }
						})
					})
					.with_context(|| format!("no remark of {bytes} bytes on {}", verifier.label()))
			};
			let (empty, long) = (remark(0)?, remark(LONG_REMARK)?);
			let pairs: Vec<(&Check, &Check)> = empty
				.iter()
				.zip(long)
				.filter(|((_, empty_fast), (_, long_fast))| *empty_fast && *long_fast)
				.map(|((empty, _), (long, _))| (empty, long))
				.collect();
			anyhow::ensure!(
				pairs.len() >= REFERENCE_RUNS,
				"{}: {} of {} repetitions with both remarks at the machine's reference speed; \
				 measure again",
				verifier.label(),
				pairs.len(),
				empty.len()
			);
			let per_byte: Vec<f64> = pairs
				.iter()
				.map(|(empty, long)| {
					(long.measured_per_transaction_ps() - empty.measured_per_transaction_ps())
						/ (long.bytes_per_transaction() - empty.bytes_per_transaction())
				})
				.collect();
			let per_byte_ps = median_by(per_byte, |ps| *ps);
			anyhow::ensure!(
				per_byte_ps > 0.0,
				"{}: long remarks imported no slower than empty ones; measure again",
				verifier.label()
			);
			let empty_times =
				pairs.iter().map(|(empty, _)| empty.measured_per_transaction_ps()).collect();
			Ok(ImportCosts {
				verifier: *verifier,
				signed_remark_ps: median_by(empty_times, |ps| *ps),
				per_byte_ps,
			})
		})
		.collect()
}

/// `runtime/src/weights/block_import.rs`: `costs` with [`MARGIN`], for both builds.
pub fn import_costs_file(costs: &[ImportCosts], repeat: u32) -> anyhow::Result<String> {
	let constant = |verifier: Verifier, name: &str| -> anyhow::Result<String> {
		let cost = costs.iter().find(|cost| cost.verifier == verifier).with_context(|| {
			format!("--calibrate measures both builds; {} is missing", verifier.label())
		})?;
		let (remark, byte) =
			((cost.signed_remark_ps * MARGIN) as u64, (cost.per_byte_ps * MARGIN) as u64);
		Ok(format!(
			"/// The {} build's: {:.1} µs per empty remark, {:.1} ns per byte measured.\n\
			 pub const {name}: ImportCosts = ImportCosts {{\n\
			 \tsigned_remark: Weight::from_parts({}, 0),\n\
			 \tper_extrinsic_byte: Weight::from_parts({}, 0),\n\
			 }};\n",
			verifier.label(),
			cost.signed_remark_ps / 1e6,
			cost.per_byte_ps / 1e3,
			grouped_in_thousands(&remark.to_string()),
			grouped_in_thousands(&byte.to_string()),
		))
	};
	Ok(format!(
		"//! What importing a block costs per transaction and per byte beyond the benchmarks of its\n\
		 //! parts, for each build of this runtime, generated by\n\
		 //! `benchmarking/charge-check.sh --calibrate`: do not edit by hand. See\n\
		 //! `docs/benchmarking.md`.\n\
		 //!\n\
		 //! {}\n\
		 //! Measured {}. Per build: Ed25519-signed `System::remark`s of 0 and {LONG_REMARK} bytes, each from its\n\
		 //! own sender, on the state of a busy chain ({FILLER_ACCOUNTS} accounts), re-executed by a\n\
		 //! node with no trie or key cache; the median of the runs (of {repeat}) with the machine at its\n\
		 //! reference speed, plus {:.0}%.\n\
		 \n\
		 // Each build of the runtime uses one of the two.\n\
		 #![allow(dead_code)]\n\
		 \n\
		 use super::ImportCosts;\n\
		 use polkadot_sdk::frame_support::weights::Weight;\n\
		 \n\
		 {}\n\
		 {}",
		machine_summary().lines().filter(|line| !line.is_empty()).collect::<Vec<_>>().join("\n//! "),
		today(),
		(MARGIN - 1.0) * 100.0,
		constant(Verifier::HostFunctions, "HOST_FUNCTIONS")?,
		constant(Verifier::PureWasm, "PURE_WASM")?,
	))
}

/// Today's date, UTC, as `date` gives it (the file records when it was measured).
fn today() -> String {
	std::process::Command::new("date")
		.args(["-u", "+%Y-%m-%d"])
		.output()
		.map(|output| String::from_utf8_lossy(&output.stdout).trim().to_owned())
		.unwrap_or_default()
}

/// The Markdown table of `costs`, as measured (no margin).
pub fn import_costs_table(costs: &[ImportCosts]) -> String {
	let mut table = String::from(
		"| build | signed empty remark µs/tx | per extrinsic byte ns |\n|---|---:|---:|\n",
	);
	for cost in costs {
		let _ = writeln!(
			table,
			"| {} | {:.1} | {:.1} |",
			cost.verifier.label(),
			cost.signed_remark_ps / 1e6,
			cost.per_byte_ps / 1e3
		);
	}
	table
}

/// Executions of each block; the median counts.
const EXECUTIONS: usize = 3;

/// The median time `rpc`'s node takes to execute block `hash` on its parent's state.
async fn execution_time(rpc: &RpcClient, hash: H256) -> anyhow::Result<Duration> {
	let signed: Option<SignedBlock<opaque::Block>> =
		rpc.request("chain_getBlock", rpc_params![hash]).await?;
	let signed = signed.with_context(|| format!("the node does not have block {hash:?}"))?;
	let parent = signed.block.header.parent_hash;
	let block = Bytes(signed.block.encode());
	let mut times = Vec::with_capacity(EXECUTIONS);
	for _ in 0..EXECUTIONS {
		let start = Instant::now();
		let _: Bytes = rpc
			.request("state_call", rpc_params!["Core_execute_block", &block, parent])
			.await?;
		times.push(start.elapsed());
	}
	times.sort();
	Ok(times[EXECUTIONS / 2])
}

/// A kind's runs, as the check judges them.
pub struct Verdict {
	/// The runtime build.
	pub verifier: Verifier,
	/// The kind.
	pub kind: Kind,
	/// The runs with the machine at its reference speed on both sides of their imports
	/// ([`machine_state`]).
	pub at_reference: Vec<Check>,
	/// How many runs were made.
	pub runs: usize,
	/// The median ratio of the runs in a slow stretch, for the record: the kind's charge
	/// against its cost while the machine runs below the speed the weights describe.
	pub slow_ratio: Option<f64>,
}

/// Runs at the machine's reference speed a kind needs for a verdict: one run cannot be told
/// from a lucky one.
pub const REFERENCE_RUNS: usize = 2;

impl Verdict {
	/// What the check passes or fails: of the runs at reference speed, the median by ratio —
	/// of an even count the lower middle one, so a verdict never rests on the more favourable
	/// of two runs. `None` (inconclusive) with fewer than [`REFERENCE_RUNS`] runs at reference
	/// speed.
	pub fn judged(&self) -> Option<&Check> {
		(self.at_reference.len() >= REFERENCE_RUNS)
			.then(|| median_by(self.at_reference.iter().collect(), |check| -check.ratio()))
	}
}

/// Each run of `runs` (`runs[kind][repetition]`) with whether the machine was at its reference
/// speed around it, every run judged against the fastest probes of them all.
fn judged_by_state(runs: Vec<Vec<Check>>) -> Vec<Vec<(Check, bool)>> {
	let brackets: Vec<machine_state::Bracket> =
		runs.iter().flatten().map(|check| check.probes).collect();
	let mut at_reference = machine_state::at_reference(&brackets).into_iter();
	runs.into_iter()
		.map(|runs| {
			runs.into_iter()
				.map(|check| (check, at_reference.next().unwrap_or(false)))
				.collect()
		})
		.collect()
}

/// The verdict on each kind's runs (`runs[kind][repetition]`), every run judged against the
/// fastest probes of them all.
pub fn verdicts(runs: Vec<Vec<Check>>) -> Vec<Verdict> {
	judged_by_state(runs)
		.into_iter()
		.filter_map(|runs| {
			let (verifier, kind, count) =
				(runs.first()?.0.verifier, runs.first()?.0.kind, runs.len());
			let (mut at_reference, mut slow) = (Vec::new(), Vec::new());
			for (check, fast) in runs {
				if fast {
					at_reference.push(check)
				} else {
					slow.push(check)
				}
			}
			Some(Verdict {
				verifier,
				kind,
				at_reference,
				runs: count,
				// The lower middle of an even count, as for the verdict.
				slow_ratio: (!slow.is_empty())
					.then(|| median_by(slow.iter().map(Check::ratio).collect(), |ratio| -ratio)),
			})
		})
		.collect()
}

/// The Markdown table of `verdicts`, each row's kind charged per transaction against its cost.
pub fn table(verdicts: &[Verdict]) -> String {
	let mut table = String::from(
		"| build | kind | tx | blocks | charged µs/tx | measured µs/tx | charged ÷ measured | runs at reference speed | slow runs' ratio |\n\
		 |---|---|---:|---:|---:|---:|---:|---:|---:|\n",
	);
	for verdict in verdicts {
		let at_reference = format!("{} of {}", verdict.at_reference.len(), verdict.runs);
		let slow = verdict.slow_ratio.map_or("—".into(), |ratio| format!("{ratio:.2}"));
		let row = match verdict.judged() {
			Some(check) => format!(
				"{} | {} | {:.0} | {:.0} | {:.2}{}",
				check.transactions,
				check.blocks,
				check.per_transaction_us(check.charged as f64),
				check.per_transaction_us(check.measured.as_secs_f64() * 1e12),
				check.ratio(),
				if check.ratio() < 1.0 { " **undercharged**" } else { "" },
			),
			None => "— | — | — | — | **inconclusive**".into(),
		};
		let _ = writeln!(
			table,
			"| {} | {} | {row} | {at_reference} | {slow} |",
			verdict.verifier.label(),
			verdict.kind.label(),
		);
	}
	table
}

#[cfg(test)]
mod tests {
	use super::*;

	#[test]
	fn every_kind_has_a_distinct_label() {
		let labels: std::collections::BTreeSet<String> =
			Kind::all().iter().map(Kind::label).collect();
		assert_eq!(labels.len(), Kind::all().len());
		assert_eq!(Kind::all().len(), 15);
	}

	#[test]
	fn each_committee_transfer_is_sent_by_a_committee_of_its_own() {
		for (size, signers, transfers_sent) in [(16, 9, 250), (128, 64, 100)] {
			let plan = Plan::new(Kind::CommitteeTransfer { size, signers }, 250).unwrap();
			let Workload::Committees { committees, transfers, .. } = &plan.load else {
				panic!("a committee kind's load")
			};
			assert_eq!(transfers.len(), transfers_sent, "{size}: at most COMMITTEE_SHARES stored");
			assert_eq!(committees.len(), transfers_sent, "{size}: a committee per transfer");
			assert_eq!(plan.load.accounts().len(), 2 * transfers_sent, "owners and accounts");
			let senders: std::collections::BTreeSet<usize> =
				transfers.iter().map(|(committee, _, _)| *committee).collect();
			assert_eq!(senders.len(), transfers_sent, "{size}: no committee sends twice");
			assert!(transfers.iter().all(|(_, nonce, set)| *nonce == 0 && set.count() == signers));
		}
	}

	#[test]
	fn the_ratio_is_charged_time_over_measured_time() {
		let check = Check {
			verifier: Verifier::HostFunctions,
			kind: Kind::RegisterKey,
			transactions: 10,
			blocks: 1,
			bytes: 1_500,
			charged: 3_000_000_000,
			measured: Duration::from_millis(2),
			probes: [machine_state::Probe {
				ml_dsa_87: Duration::from_micros(100),
				ed25519: Duration::from_micros(30),
			}; 2],
		};
		assert!((check.ratio() - 1.5).abs() < 1e-9);
		let table = table(&verdicts(vec![vec![check.clone(), check]]));
		assert!(table.contains("| 300 | 200 | 1.50 | 2 of 2 | — |"), "{table}");
	}

	fn timed(microseconds: u64, probes: [u64; 2]) -> Check {
		Check {
			verifier: Verifier::PureWasm,
			kind: Kind::RegisterKey,
			transactions: 10,
			blocks: 1,
			bytes: 1_500,
			charged: 3_000_000_000,
			measured: Duration::from_micros(microseconds),
			probes: probes.map(|ml_dsa_87| machine_state::Probe {
				ml_dsa_87: Duration::from_micros(ml_dsa_87),
				ed25519: Duration::from_micros(30),
			}),
		}
	}

	/// Four runs of a kind, one imported in a slow stretch (its second probe 1.4× the
	/// fastest, its ratio 0.8): judged by the median of the three at reference speed (1.25×),
	/// the slow one reported beside it, never picked or dropped by its ratio.
	#[test]
	fn a_kind_is_judged_by_its_runs_at_reference_speed() {
		let runs = vec![
			timed(2_000, [100, 104]),
			timed(3_750, [102, 140]),
			timed(2_400, [103, 101]),
			timed(2_500, [105, 100]),
		];
		let [verdict] = verdicts(vec![runs]).try_into().ok().unwrap();
		assert_eq!(verdict.judged().unwrap().measured, Duration::from_micros(2_400));
		assert_eq!((verdict.at_reference.len(), verdict.runs), (3, 4));
		assert!((verdict.slow_ratio.unwrap() - 0.8).abs() < 1e-9);
	}

	/// A kind of whose three runs only one was at reference speed has no verdict: it is
	/// inconclusive, not passed on the one run.
	#[test]
	fn a_kind_without_two_runs_at_reference_speed_is_inconclusive() {
		let runs =
			vec![timed(2_000, [100, 104]), timed(3_750, [102, 140]), timed(2_400, [150, 101])];
		let [verdict] = verdicts(vec![runs]).try_into().ok().unwrap();
		assert!(verdict.judged().is_none());
		assert!(table(&[verdict]).contains("**inconclusive** | 1 of 3 |"));
	}

	/// The fastest probe is the session's, not each kind's: a kind run only in a slow stretch
	/// is not at reference speed because its own probes agree with each other.
	#[test]
	fn every_run_is_judged_against_the_sessions_fastest_probe() {
		let fast = vec![timed(2_000, [100, 101]), timed(2_000, [101, 100])];
		let slow = vec![timed(3_000, [140, 141]), timed(3_000, [142, 140])];
		let judged = verdicts(vec![fast, slow]);
		assert_eq!(judged[0].at_reference.len(), 2);
		assert_eq!(judged[1].at_reference.len(), 0);
		assert!(judged[1].judged().is_none());
	}

	/// Two runs at reference speed: the check decides on the less favourable one (1.2×, not
	/// 1.5×) — rerunning until one run passes gains nothing.
	#[test]
	fn of_two_runs_the_less_favourable_decides() {
		let runs = vec![timed(2_000, [100, 104]), timed(2_500, [102, 101])];
		let [verdict] = verdicts(vec![runs]).try_into().ok().unwrap();
		assert_eq!(verdict.judged().unwrap().measured, Duration::from_micros(2_500));
	}

	/// Calibration runs of three repetitions, the long remark's second in a slow stretch: the
	/// per-byte time comes from the first and third repetitions' pairs only (10 and 12 ns a
	/// byte; of two, the larger), never from one repetition's empty remark and another's long.
	#[test]
	fn calibration_pairs_the_remarks_of_one_repetition() {
		// Each transaction 1,000 bytes longer in the long remarks' blocks.
		let remark = |bytes: u32, microseconds: u64, probes: [u64; 2]| Check {
			kind: Kind::Remark { bytes },
			transactions: 1,
			bytes: if bytes == 0 { 100 } else { 1_100 },
			..timed(microseconds, probes)
		};
		let empty = vec![
			remark(0, 200, [100, 101]),
			remark(0, 210, [100, 102]),
			remark(0, 220, [101, 100]),
		];
		let long = vec![
			remark(LONG_REMARK, 210, [100, 101]),
			remark(LONG_REMARK, 400, [102, 150]),
			remark(LONG_REMARK, 232, [100, 103]),
		];
		let [costs] = import_costs(&[Verifier::PureWasm], vec![empty, long])
			.unwrap()
			.try_into()
			.ok()
			.unwrap();
		assert!((costs.per_byte_ps - 12_000.0).abs() < 1e-6, "{}", costs.per_byte_ps);
		assert!((costs.signed_remark_ps - 220e6).abs() < 1e-3, "{}", costs.signed_remark_ps);
	}
}
