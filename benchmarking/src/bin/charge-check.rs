//! `charge-check`: runs every transaction kind on fresh `pq-node`s of each runtime build and
//! compares what the chain charges for its blocks with what importing them costs; fails if any
//! kind is undercharged. With `--calibrate FILE` it measures instead what the runtime charges
//! per transaction and per byte beyond its benchmarks, and writes FILE. Run through
//! `benchmarking/charge-check.sh`; see `docs/benchmarking.md`.

use clap::Parser;
use pq_benchmarks::{
	charge::{self, Check, Kind, REFERENCE_RUNS},
	machine_state, machine_summary,
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
	/// Runs of every kind, interleaved; each row is the median of the runs with the machine at
	/// its reference speed (at least two of them, or the row is inconclusive).
	#[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(REFERENCE_RUNS as i64..))]
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
		Ok(Outcome::EveryKindPaid) => ExitCode::SUCCESS,
		Ok(Outcome::Undercharged) => {
			eprintln!("charge-check: a kind is charged less than it costs");
			ExitCode::FAILURE
		},
		Ok(Outcome::Inconclusive) => {
			eprintln!(
				"charge-check: inconclusive — a kind had fewer than {REFERENCE_RUNS} runs with the \
				 machine at its reference speed (slow stretches; probes within {:.0}% of the \
				 fastest); run again, or with more --repeat",
				(machine_state::TOLERANCE - 1.0) * 100.0
			);
			ExitCode::FAILURE
		},
		Err(error) => {
			eprintln!("charge-check: {error:#}");
			ExitCode::FAILURE
		},
	}
}

/// What the check found.
enum Outcome {
	/// Every kind was charged at least what it cost (or, calibrating, was measured).
	EveryKindPaid,
	/// A kind was charged less than it cost at the machine's reference speed.
	Undercharged,
	/// A kind had too few runs at the machine's reference speed to judge.
	Inconclusive,
}

async fn run(args: Args) -> anyhow::Result<Outcome> {
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
	anyhow::ensure!(!kinds.is_empty(), "no kind's label contains {:?}", args.only);
	let runs = run_kinds(&args, &kinds).await?;
	if let Some(path) = &args.calibrate {
		let costs = charge::import_costs(&args.verifiers, runs)?;
		std::fs::write(path, charge::import_costs_file(&costs, args.repeat)?)?;
		print!("{}", charge::import_costs_table(&costs));
		return Ok(Outcome::EveryKindPaid);
	}
	let verdicts = charge::verdicts(runs);
	println!("{}", machine_summary());
	println!(
		"{} transactions per kind (fewer where the `tx` column says), each from its own sender; {} run(s) of each kind, interleaved. Each row is the median run, by ratio, of those with the machine at its reference speed right before and after their imports (ML-DSA-87 and Ed25519 probes each within {:.0}% of the session's fastest); the runs in a slow stretch are in the last column, for the record.\n",
		args.transactions,
		args.repeat,
		(machine_state::TOLERANCE - 1.0) * 100.0
	);
	print!("{}", charge::table(&verdicts));
	let judged: Vec<&Check> = verdicts.iter().filter_map(charge::Verdict::judged).collect();
	Ok(if judged.iter().any(|check| check.ratio() < 1.0) {
		Outcome::Undercharged
	} else if judged.len() < verdicts.len() {
		Outcome::Inconclusive
	} else {
		Outcome::EveryKindPaid
	})
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
