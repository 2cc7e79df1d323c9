//! `charge-check`: runs every transaction kind on fresh `pq-node`s of each runtime build and
//! compares what the chain charges for its blocks with what importing them costs; fails if any
//! kind is undercharged. With `--calibrate FILE` it measures instead what the runtime charges
//! per transaction and per byte beyond its benchmarks, and writes FILE. Run through
//! `benchmarking/charge-check.sh`; see `docs/benchmarking.md`.

use clap::Parser;
use pq_benchmarks::{
	charge::{self, Check, Kind},
	machine_summary, median_by,
	throughput::workload::Verifier,
};
use std::{io::Write, path::PathBuf, process::ExitCode};

#[derive(Parser)]
struct Args {
	/// The `pq-node` binary to measure.
	#[arg(long)]
	node: PathBuf,
	/// Transactions per kind, each from its own sender (a committee kind at most 12,800
	/// shares' worth, one committee per transfer: the `tx` column).
	#[arg(long, default_value_t = 600)]
	transactions: usize,
	/// Only the kinds whose label contains this (`ml-dsa-87`, `committee`, …).
	#[arg(long)]
	only: Option<String>,
	/// Runs of every kind, interleaved; each row is the run of median ratio.
	#[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
	repeat: u32,
	/// Measure each build's import costs (an empty and a long signed remark) and write them to
	/// this file (`runtime/src/weights/block_import.rs`) instead of checking.
	#[arg(long)]
	calibrate: Option<PathBuf>,
	/// The runtime builds to check (comma-separated).
	#[arg(long, value_enum, value_delimiter = ',', default_values_t = [Verifier::HostFunctions, Verifier::PureWasm])]
	verifiers: Vec<Verifier>,
}

#[tokio::main]
async fn main() -> ExitCode {
	match run(Args::parse()).await {
		Ok(true) => ExitCode::SUCCESS,
		Ok(false) => {
			eprintln!("charge-check: a kind is charged less than it costs");
			ExitCode::FAILURE
		},
		Err(error) => {
			eprintln!("charge-check: {error:#}");
			ExitCode::FAILURE
		},
	}
}

/// Whether every kind was charged at least what it cost (or, calibrating, was measured).
async fn run(args: Args) -> anyhow::Result<bool> {
	let kinds = match args.calibrate {
		Some(_) => charge::calibration_kinds(),
		None => Kind::all(),
	};
	let kinds: Vec<(Verifier, Kind)> = args
		.verifiers
		.iter()
		.flat_map(|verifier| kinds.iter().map(move |kind| (*verifier, *kind)))
		.filter(|(_, kind)| args.only.as_ref().is_none_or(|only| kind.label().contains(only)))
		.collect();
	let runs = run_kinds(&args, &kinds).await?;
	if let Some(path) = &args.calibrate {
		let costs = charge::import_costs(&args.verifiers, runs)?;
		std::fs::write(path, charge::import_costs_file(&costs, args.repeat)?)?;
		print!("{}", charge::import_costs_table(&costs));
		return Ok(true);
	}
	let checks: Vec<Check> = runs.into_iter().map(|runs| median_by(runs, Check::ratio)).collect();
	println!("{}", machine_summary());
	println!(
		"{} transactions per kind (fewer where the `tx` column says), each from its own sender; each row is the run of median ratio of {} run(s).\n",
		args.transactions, args.repeat
	);
	print!("{}", charge::table(&checks));
	Ok(checks.iter().all(|check| check.ratio() >= 1.0))
}

/// Every run of each of `kinds`, interleaved.
async fn run_kinds(args: &Args, kinds: &[(Verifier, Kind)]) -> anyhow::Result<Vec<Vec<Check>>> {
	let mut runs: Vec<Vec<Check>> = kinds.iter().map(|_| Vec::new()).collect();
	let mut progress = std::io::stderr();
	for repetition in 1..=args.repeat {
		for (index, (verifier, kind)) in kinds.iter().enumerate() {
			writeln!(
				progress,
				"[run {repetition}/{}, {}/{}] {}, {}",
				args.repeat,
				index + 1,
				kinds.len(),
				verifier.label(),
				kind.label()
			)?;
			runs[index].push(
				charge::run(
					&args.node,
					*verifier,
					*kind,
					args.transactions,
					charge::FILLER_ACCOUNTS,
					&mut progress,
				)
				.await?,
			);
		}
	}
	Ok(runs)
}
