//! One case, measured on a fresh `pq-node`: pool admission, block authoring, and import of the
//! same blocks by another fresh node.

use super::workload::{write_chain_spec, Case, Verifier, Workload};
use anyhow::{bail, ensure, Context};
use codec::Encode;
use futures::{stream, StreamExt, TryStreamExt};
use jsonrpsee::rpc_params;
use polkadot_sdk::{
	frame_support::{dispatch::DispatchClass, storage::storage_prefix},
	frame_system::{self, ConsumedWeight},
	sp_core::H256,
	sp_runtime::AccountId32,
};
use pq_runtime_client::{
	node_process::NodeProcess,
	rpc::RpcClient,
	transactions::{self, Form, Sender},
};
use std::{
	io::Write,
	path::{Path, PathBuf},
	process::Command,
	time::{Duration, Instant},
};

/// Transactions in flight to the pool at once.
const SUBMISSION_CONCURRENCY: usize = 16;

/// What one block of a run held and cost.
#[derive(Clone, Debug)]
pub struct BlockStats {
	/// The block's hash.
	pub hash: H256,
	/// Transfers in it (the timestamp inherent is not counted).
	pub transactions: usize,
	/// Encoded bytes of those transfers.
	pub bytes: usize,
	/// Normal-class weight the block consumed, in picoseconds of reference time.
	pub ref_time: u64,
	/// Weight the block consumed in every class (the inherent too), plus its base weight:
	/// what the block is charged as a whole.
	pub charged_ref_time: u64,
	/// Wall time of `engine_createBlock`: proposing (executing every transaction) and importing
	/// the result.
	pub authoring: Duration,
}

/// Everything measured for one case.
#[derive(Clone, Debug)]
pub struct Measurement {
	/// The case.
	pub case: Case,
	/// Transfers measured.
	pub transactions: usize,
	/// Bytes of one transfer.
	pub bytes_per_transaction: usize,
	/// Wall time to submit every transfer over JSON-RPC until the pool accepted it
	/// (`validate_transaction` in the runtime, plus RPC).
	pub pool_admission: Duration,
	/// The blocks that included the transfers.
	pub blocks: Vec<BlockStats>,
	/// Wall time for a fresh node to import those blocks (`import-blocks`, setup blocks
	/// subtracted).
	pub import: Duration,
}

/// Runs `case` with `transactions` transfers on `node_binary`, reporting progress on `progress`;
/// copies the authoring node's log to `node_log` if given.
pub async fn run(
	node_binary: &Path,
	case: Case,
	transactions: usize,
	node_log: Option<&Path>,
	progress: &mut impl Write,
) -> anyhow::Result<Measurement> {
	let directory = tempfile::tempdir()?;
	let first_nonce = u32::from(case.form == Form::KeyRegistered);
	let load = Workload::new(case.scheme, transactions, first_nonce)?;
	let (spec, base_path) =
		scratch_chain(node_binary, case.verifier, &load.accounts(), 0, directory.path())?;
	let spec = spec.as_str();
	let node = manual_seal_node(node_binary, spec, &base_path, &[]).await;
	let rpc = node.rpc().await;
	// Immortal: every transfer is signed before the first block, and its size matches the
	// committed reports; this throwaway chain reaps no account.
	let chain = transactions::ChainIdentity { checkpoint: None, ..rpc.chain_identity().await? };

	let setup = setup_transactions(&load, case.form, &chain);
	let mut setup_blocks = 0;
	if !setup.is_empty() {
		submit_all(&rpc, &setup).await?;
		setup_blocks = author_until_included(&rpc, setup.len()).await?.len();
		writeln!(progress, "  set up {} keys or committees in {setup_blocks} blocks", setup.len())?;
	}

	let signing = Instant::now();
	let signed = sign_transfers(&load, case.form, &chain, to_alice)?;
	writeln!(progress, "  signed {} transfers in {:.1?}", signed.len(), signing.elapsed())?;

	let admission = Instant::now();
	submit_all(&rpc, &signed).await?;
	let pool_admission = admission.elapsed();
	writeln!(progress, "  pool accepted them in {pool_admission:.1?}")?;

	let blocks = author_until_included(&rpc, signed.len()).await?;
	let authoring: Duration = blocks.iter().map(|block| block.authoring).sum();
	// Block by block: a case's blocks differ in size and in what the proposer tried, so its
	// time is read per block before it is read per transaction.
	let per_block: Vec<String> = blocks
		.iter()
		.map(|block| format!("{} in {:.1?}", block.transactions, block.authoring))
		.collect();
	writeln!(
		progress,
		"  authored {} blocks in {authoring:.1?} ({})",
		blocks.len(),
		per_block.join(", ")
	)?;
	drop(rpc);
	let log = node.log_path().to_owned();
	// After the stop: the node writes its buffered lines out as it exits.
	node.stop().await;
	if let Some(path) = node_log {
		if let Some(directory) = path.parent() {
			std::fs::create_dir_all(directory)?;
		}
		std::fs::copy(&log, path)
			.with_context(|| format!("keeping the log as {}", path.display()))?;
	}

	let import =
		import_time(node_binary, spec, &base_path, setup_blocks, setup_blocks + blocks.len())?;
	writeln!(progress, "  a fresh node imported them in {import:.1?}")?;

	Ok(Measurement {
		case,
		transactions: signed.len(),
		bytes_per_transaction: signed[0].len(),
		pool_admission,
		blocks,
		import,
	})
}

/// A throwaway chain in `directory`: the dev chain of `verifier` with `accounts` and `filler`
/// unused accounts endowed ([`write_chain_spec`]). Its chain specification's path, and a base
/// path for its node.
pub(crate) fn scratch_chain(
	node_binary: &Path,
	verifier: Verifier,
	accounts: &[AccountId32],
	filler: u32,
	directory: &Path,
) -> anyhow::Result<(String, PathBuf)> {
	let spec = directory.join("spec.json");
	write_chain_spec(node_binary, verifier, accounts, filler, &spec)?;
	let base_path = directory.join("author");
	std::fs::create_dir_all(&base_path)?;
	Ok((spec.to_str().context("temporary path is UTF-8")?.to_owned(), base_path))
}

/// A manual-seal node of `spec` on `base_path` whose pool holds a whole run, with `args`.
pub(crate) async fn manual_seal_node(
	node_binary: &Path,
	spec: &str,
	base_path: &Path,
	args: &[&str],
) -> NodeProcess {
	let mut all = vec![
		"--chain",
		spec,
		"--sealing",
		"manual",
		"--pool-limit",
		"1000000",
		"--pool-kbytes",
		"4194304",
	];
	all.extend_from_slice(args);
	NodeProcess::start(node_binary, base_path, &all).await
}

/// What must be on chain before the transfers: registered keys (for `form`
/// [`Form::KeyRegistered`]), or committees.
pub(crate) fn setup_transactions(
	load: &Workload,
	form: Form,
	chain: &transactions::ChainIdentity,
) -> Vec<Vec<u8>> {
	match load {
		Workload::Keys { senders, .. } if form == Form::KeyRegistered => senders
			.iter()
			.map(|sender| {
				let call =
					transactions::register_key_call(sender, &sender.account_id(), false, chain);
				transactions::sign(sender, call, 0, 0, Form::KeyInline, chain)
					.expect("a key signs for its own account")
					.encode()
			})
			.collect(),
		Workload::Keys { .. } => Vec::new(),
		Workload::Committees { owners, committees, .. } => owners
			.iter()
			.zip(committees)
			.map(|(owner, committee)| {
				let call =
					transactions::create_committee_call(committee, &owner.account_id(), chain);
				transactions::sign(owner, call, 0, 0, Form::KeyInline, chain)
					.expect("a key signs for its own account")
					.encode()
			})
			.collect(),
	}
}

/// Every transfer of `load`, the `i`th to `recipient(i)`, signed in `form`.
pub(crate) fn sign_transfers(
	load: &Workload,
	form: Form,
	chain: &transactions::ChainIdentity,
	recipient: impl Fn(usize) -> AccountId32,
) -> anyhow::Result<Vec<Vec<u8>>> {
	let transfer = |position, sender: Sender, nonce| -> anyhow::Result<Vec<u8>> {
		let call = transactions::transfer_call(recipient(position), pq_runtime::UNIT);
		Ok(transactions::sign(sender, call, nonce, 0, form, chain)?.encode())
	};
	match load {
		Workload::Keys { senders, transfers } => transfers
			.iter()
			.enumerate()
			.map(|(position, &(sender, nonce))| {
				transfer(position, Sender::Key(&senders[sender]), nonce)
			})
			.collect(),
		Workload::Committees { committees, transfers, .. } => transfers
			.iter()
			.enumerate()
			.map(|(position, (committee, nonce, signers))| {
				let sender = Sender::Committee { committee: &committees[*committee], signers };
				transfer(position, sender, *nonce)
			})
			.collect(),
	}
}

/// The throughput harness's recipient of every transfer: Ed25519 `//Alice`.
pub(crate) fn to_alice(_: usize) -> AccountId32 {
	AccountId32::new(pq_runtime::genesis_config_presets::ED25519_DEV_ACCOUNTS[0])
}

/// Submits every transaction, [`SUBMISSION_CONCURRENCY`] at a time; fails on any refusal.
pub(crate) async fn submit_all(rpc: &RpcClient, extrinsics: &[Vec<u8>]) -> anyhow::Result<()> {
	stream::iter(extrinsics.iter().map(|extrinsic| rpc.submit(extrinsic)))
		.buffer_unordered(SUBMISSION_CONCURRENCY)
		.try_collect::<Vec<H256>>()
		.await?;
	Ok(())
}

/// Seals blocks until `expected` transactions are in them; returns each block's figures.
pub(crate) async fn author_until_included(
	rpc: &RpcClient,
	expected: usize,
) -> anyhow::Result<Vec<BlockStats>> {
	let weight_key = storage_prefix(b"System", b"BlockWeight");
	let block_base = <pq_runtime::Runtime as frame_system::Config>::BlockWeights::get().base_block;
	let mut blocks = Vec::new();
	let mut included = 0;
	while included < expected {
		let start = Instant::now();
		let created: serde_json::Value = rpc
			.request("engine_createBlock", rpc_params![false, true, Option::<H256>::None])
			.await?;
		let authoring = start.elapsed();
		let hash: H256 =
			serde_json::from_value(created["hash"].clone()).context("engine_createBlock result")?;
		let body = rpc.block(hash).await?;
		// The first extrinsic is the timestamp inherent.
		let transfers = &body.extrinsics[1..];
		if transfers.is_empty() {
			bail!(
				"block #{} is empty with {} of {expected} transactions included",
				body.number,
				included
			);
		}
		let consumed: ConsumedWeight =
			rpc.storage(&weight_key, Some(hash)).await?.unwrap_or_default();
		included += transfers.len();
		blocks.push(BlockStats {
			hash,
			transactions: transfers.len(),
			bytes: transfers.iter().map(|extrinsic| extrinsic.len()).sum(),
			ref_time: consumed.get(DispatchClass::Normal).ref_time(),
			charged_ref_time: consumed.total().ref_time() + block_base.ref_time(),
			authoring,
		});
	}
	ensure!(included == expected, "{included} transactions included, {expected} submitted");
	Ok(blocks)
}

/// Time a fresh node takes to import blocks `setup + 1 ..= last` of the chain in
/// `author_base_path`: the import of `1 ..= last` minus that of `1 ..= setup`, so process start,
/// genesis and Wasm compilation cancel out.
fn import_time(
	node: &Path,
	spec: &str,
	author_base_path: &Path,
	setup: usize,
	last: usize,
) -> anyhow::Result<Duration> {
	let directory = tempfile::tempdir()?;
	let export = |to: usize| -> anyhow::Result<std::path::PathBuf> {
		let file = directory.path().join(format!("blocks-{to}.bin"));
		let mut command = Command::new(node);
		command.args([
			"export-blocks",
			"--chain",
			spec,
			"--binary",
			"--from",
			"1",
			"--to",
			&to.to_string(),
		]);
		command.arg("--base-path").arg(author_base_path).arg(&file);
		run_quietly(&mut command)?;
		Ok(file)
	};
	let import = |file: &Path| -> anyhow::Result<Duration> {
		let base_path = tempfile::tempdir()?;
		let mut command = Command::new(node);
		command
			.args(["import-blocks", "--chain", spec, "--binary", "--base-path"])
			.arg(base_path.path())
			.arg(file);
		let start = Instant::now();
		run_quietly(&mut command)?;
		Ok(start.elapsed())
	};
	let all = import(&export(last)?)?;
	let setup = if setup == 0 {
		// An export of no blocks: its count, zero.
		let file = directory.path().join("none.bin");
		std::fs::write(&file, 0u64.encode())?;
		import(&file)?
	} else {
		import(&export(setup)?)?
	};
	Ok(all.saturating_sub(setup))
}

fn run_quietly(command: &mut Command) -> anyhow::Result<()> {
	let output = command.output().with_context(|| format!("{command:?}"))?;
	ensure!(
		output.status.success(),
		"{command:?} failed:\n{}",
		String::from_utf8_lossy(&output.stderr)
	);
	Ok(())
}
