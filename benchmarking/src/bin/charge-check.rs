//! `charge-check`: runs every transaction kind on fresh `pq-node`s of each runtime build and
//! compares what the chain charges for its blocks with what importing them costs; fails if any
//! kind is undercharged. Run through `benchmarking/charge-check.sh`; see `docs/benchmarking.md`.

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
	/// Transactions per kind, each from its own sender.
	#[arg(long, default_value_t = 600)]
	transactions: usize,
	/// Only the kinds whose label contains this (`ml-dsa-87`, `committee`, …).
	#[arg(long)]
	only: Option<String>,
	/// Runs of every kind, interleaved; each row is the run of median ratio.
	#[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
	repeat: u32,
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

/// Whether every kind was charged at least what it cost.
async fn run(args: Args) -> anyhow::Result<bool> {
	let kinds: Vec<(Verifier, Kind)> = args
		.verifiers
		.iter()
		.flat_map(|verifier| Kind::all().into_iter().map(move |kind| (*verifier, kind)))
		.filter(|(_, kind)| args.only.as_ref().is_none_or(|only| kind.label().contains(only)))
		.collect();
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
				charge::run(&args.node, *verifier, *kind, args.transactions, &mut progress).await?,
			);
		}
	}
	let checks: Vec<Check> = runs.into_iter().map(|runs| median_by(runs, Check::ratio)).collect();
	println!("{}", machine_summary());
	println!(
		"{} transactions per kind, each from its own sender; each row is the run of median ratio of {} run(s).\n",
		args.transactions, args.repeat
	);
	print!("{}", charge::table(&checks));
	Ok(checks.iter().all(|check| check.ratio() >= 1.0))
}
