//! `network-throughput`: each case on a fresh local testnet of three validators at real block
//! times, transfers offered at a steady rate to all nodes; then a flood. Prints the Markdown of
//! `docs/network.md`'s tables. Run through `benchmarking/network-throughput.sh`.

use clap::Parser;
use pq_benchmarks::{
	machine_summary,
	throughput::{
		network::{self, Load, NetworkMeasurement},
		report::bar_chart,
		workload::{Case, Verifier},
	},
};
use pq_crypto::Scheme;
use pq_runtime_client::transactions::Form;
use std::{io::Write, path::PathBuf, process::ExitCode, time::Duration};

#[derive(Parser)]
struct Args {
	/// The `pq-node` binary.
	#[arg(long)]
	node: PathBuf,
	/// Transfers offered per case.
	#[arg(long, default_value_t = 6000, value_parser = clap::value_parser!(u64).range(1..))]
	transactions: u64,
	/// Transfers offered per second, spread over the three nodes: more than a block can hold,
	/// so the network's own limit shows.
	#[arg(long, default_value_t = 800, value_parser = clap::value_parser!(u32).range(1..))]
	rate: u32,
	/// Block time, in milliseconds.
	#[arg(long, default_value_t = 6000, value_parser = clap::value_parser!(u64).range(100..=3_600_000))]
	slot_ms: u64,
	/// Only the cases whose label contains this; Ed25519 key inline, the baseline, runs always.
	#[arg(long)]
	only: Option<String>,
	/// Transactions of the flood (ML-DSA-87, key inline, all at once, default pool limits);
	/// 0 skips it.
	#[arg(long, default_value_t = 20_000)]
	flood: u64,
	/// Blocks a crashed validator misses before it is restarted and timed catching up; 0 skips
	/// it.
	#[arg(long, default_value_t = 20)]
	catch_up_blocks: u32,
	/// Directory to write the SVG plots to.
	#[arg(long)]
	plots: Option<PathBuf>,
}

#[tokio::main]
async fn main() -> ExitCode {
	match run(Args::parse()).await {
		Ok(()) => ExitCode::SUCCESS,
		Err(error) => {
			eprintln!("network-throughput: {error:#}");
			ExitCode::FAILURE
		},
	}
}

fn cases() -> Vec<Case> {
	let case = |scheme, form| Case { verifier: Verifier::HostFunctions, scheme, form };
	vec![
		case(Scheme::Ed25519, Form::KeyInline),
		case(Scheme::MlDsa44, Form::KeyInline),
		case(Scheme::MlDsa44, Form::KeyRegistered),
		case(Scheme::MlDsa65, Form::KeyInline),
		case(Scheme::MlDsa87, Form::KeyInline),
		case(Scheme::MlDsa87, Form::KeyRegistered),
		case(Scheme::AggregateMlDsa87, Form::Committee),
	]
}

async fn run(args: Args) -> anyhow::Result<()> {
	let slot = Duration::from_millis(args.slot_ms);
	let cases: Vec<Case> = cases()
		.into_iter()
		.filter(|case| {
			*case == cases()[0] || args.only.as_ref().is_none_or(|only| case.label().contains(only))
		})
		.collect();
	let mut progress = std::io::stderr();
	let mut runs = Vec::new();
	for (index, case) in cases.iter().enumerate() {
		writeln!(
			progress,
			"[{}/{}] {}, {} at {}/s, {} ms blocks",
			index + 1,
			cases.len(),
			case.label(),
			args.transactions,
			args.rate,
			args.slot_ms
		)?;
		let load = Load {
			transactions: args.transactions as usize,
			per_second: Some(f64::from(args.rate)),
			slot,
		};
		runs.push(network::run(&args.node, *case, load, &mut progress).await?);
	}
	let flood = if args.flood > 0 {
		let case = Case {
			verifier: Verifier::HostFunctions,
			scheme: Scheme::MlDsa87,
			form: Form::KeyInline,
		};
		writeln!(progress, "[flood] {}, {} at once", case.label(), args.flood)?;
		let load = Load { transactions: args.flood as usize, per_second: None, slot };
		Some(network::run(&args.node, case, load, &mut progress).await?)
	} else {
		None
	};

	let catch_up = if args.catch_up_blocks > 0 {
		writeln!(
			progress,
			"[catch-up] a validator down for {} blocks, then restarted",
			args.catch_up_blocks
		)?;
		Some(network::catch_up(&args.node, slot, args.catch_up_blocks).await?)
	} else {
		None
	};

	if let Some(directory) = &args.plots {
		std::fs::create_dir_all(directory)?;
		std::fs::write(directory.join("network-tps.svg"), tps_chart(&runs))?;
		std::fs::write(directory.join("network-block-fill.svg"), block_fill_chart(&runs))?;
	}
	let mut out = std::io::stdout();
	writeln!(out, "{}\n", machine_summary())?;
	writeln!(out, "{}", sustained_table(&runs))?;
	if let Some(flood) = &flood {
		writeln!(out, "{}", flood_table(flood))?;
	}
	if let Some(catch_up) = &catch_up {
		writeln!(
			out,
			"| validator restarted after | JSON-RPC up | at the head | finality resumed |\n|---|---|---|---|\n| {} blocks down | {:.1} s | {:.1} s | {:.1} s |",
			catch_up.behind,
			catch_up.to_rpc.as_secs_f64(),
			catch_up.to_head.as_secs_f64(),
			catch_up.to_finality.as_secs_f64()
		)?;
	}
	Ok(())
}

fn megabytes(bytes: u64) -> String {
	format!("{:.1}", bytes as f64 / 1e6)
}

/// Bytes a node sent for `protocol`.
fn sent(run: &NetworkMeasurement, node: usize, protocol: &str) -> u64 {
	run.sent[node]
		.iter()
		.filter(|(name, _)| name == protocol)
		.map(|(_, bytes)| bytes)
		.sum()
}

/// The fullest block's share of the normal class's weight and length limits.
fn block_fill(run: &NetworkMeasurement) -> (f64, f64) {
	let (max_weight, max_length) = network::block_limits();
	let weight =
		run.blocks.iter().map(|block| block.ref_time).max().unwrap_or(0) as f64 / max_weight as f64;
	let length =
		run.blocks.iter().map(|block| block.bytes).max().unwrap_or(0) as f64 / max_length as f64;
	(weight, length)
}

fn labels(runs: &[NetworkMeasurement]) -> Vec<String> {
	runs.iter().map(|run| run.case.label()).collect()
}

/// Finalized transactions per second of each case.
fn tps_chart(runs: &[NetworkMeasurement]) -> String {
	bar_chart(
		"Finalized transfers per second, three validators, real block times",
		"tx/s",
		&labels(runs),
		&[("finalized transfers", runs.iter().map(NetworkMeasurement::per_second).collect())],
	)
}

/// How full the fullest block was by weight and by length: the limit at 100% binds.
fn block_fill_chart(runs: &[NetworkMeasurement]) -> String {
	let (weight, length): (Vec<f64>, Vec<f64>) = runs
		.iter()
		.map(block_fill)
		.map(|(weight, length)| (weight * 100.0, length * 100.0))
		.unzip();
	bar_chart(
		"The fullest block's share of each limit (normal class)",
		"%",
		&labels(runs),
		&[("weight", weight), ("length", length)],
	)
}

fn sustained_table(runs: &[NetworkMeasurement]) -> String {
	let baseline = runs.first().map_or(0.0, NetworkMeasurement::per_second);
	let ratio = |run: &NetworkMeasurement| {
		if baseline > 0.0 {
			format!("{:.2}", run.per_second() / baseline)
		} else {
			"–".into()
		}
	};
	let mut table = String::from(
		"| case | bytes/tx | finalized tx/s | ÷ Ed25519 | tx/block mean / max | block weight max | block length max | binds | finality lag mean / max | pool peak | tx gossip out per node, MB | refused |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n",
	);
	for run in runs {
		let blocks = run.period_blocks().max(1);
		let per_block_max = run.blocks.iter().map(|block| block.transactions).max().unwrap_or(0);
		let (weight, length) = block_fill(run);
		let binds = if weight.max(length) < 0.9 {
			"neither (offer or authoring time)"
		} else if weight >= length {
			"weight"
		} else {
			"length"
		};
		let lag_mean =
			run.blocks.iter().map(|block| f64::from(block.lag)).sum::<f64>() / blocks as f64;
		let lag_max = run.blocks.iter().map(|block| block.lag).max().unwrap_or(0);
		let gossip: Vec<String> = (0..run.sent.len())
			.map(|node| megabytes(sent(run, node, "transactions")))
			.collect();
		let refused: usize = run.refused.iter().map(|(_, count)| count).sum();
		table += &format!(
			"| {} | {} | {:.0} | {} | {:.0} / {} | {:.0}% | {:.0}% | {} | {:.1} / {} | {} | {} | {} |\n",
			run.case.label(),
			run.bytes_per_transaction,
			run.per_second(),
			ratio(run),
			run.included() as f64 / blocks as f64,
			per_block_max,
			weight * 100.0,
			length * 100.0,
			binds,
			lag_mean,
			lag_max,
			run.peak_backlog,
			gossip.join(" / "),
			refused,
		);
	}
	table
}

fn flood_table(run: &NetworkMeasurement) -> String {
	let refused: usize = run.refused.iter().map(|(_, count)| count).sum();
	let offered = run.load.transactions;
	let reasons: Vec<String> = run
		.refused
		.iter()
		.map(|(reason, count)| format!("{count} × {reason}"))
		.collect();
	let memory: Vec<String> = run
		.peak_memory_kib
		.iter()
		.map(|kib| format!("{:.0}", *kib as f64 / 1024.0))
		.collect();
	format!(
		"| offered | finalized | refused at submission | neither (dropped by the pools) | nodes running after | peak memory per node, MiB |\n|---|---|---|---|---|---|\n| {offered} | {} | {refused} | {} | {} | {} |\n\nRefusals: {}\n",
		run.included(),
		offered.saturating_sub(run.included() + refused),
		if run.all_running { "all" } else { "NOT ALL" },
		memory.join(" / "),
		if reasons.is_empty() { "none".into() } else { reasons.join("; ") },
	)
}
