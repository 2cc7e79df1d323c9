//! `unpaid-work`: what each refusal path costs a node, on both runtime builds, with the node's
//! cache cold and warm (`pq_benchmarks::unpaid`). Run through `benchmarking/unpaid-work.sh`;
//! the table goes into `docs/security.md`.

use clap::Parser;
use pq_benchmarks::{
	machine_summary,
	unpaid::{self, Setting, REFERENCE},
};
use std::{io::Write, path::PathBuf, process::ExitCode};

#[derive(Parser)]
struct Args {
	/// The `pq-node` binary to measure.
	#[arg(long)]
	node: PathBuf,
	/// Distinct transactions per refusal path.
	#[arg(long, default_value_t = 300)]
	count: usize,
	/// Rounds the paths are interleaved in.
	#[arg(long, default_value_t = 6)]
	rounds: usize,
}

#[tokio::main]
async fn main() -> ExitCode {
	match run(Args::parse()).await {
		Ok(()) => ExitCode::SUCCESS,
		Err(error) => {
			eprintln!("unpaid-work: {error:#}");
			ExitCode::FAILURE
		},
	}
}

async fn run(args: Args) -> anyhow::Result<()> {
	let mut progress = std::io::stderr();
	let mut runs = Vec::new();
	for setting in Setting::ALL {
		runs.push(unpaid::run(&args.node, setting, args.count, args.rounds, &mut progress).await?);
	}
	let mut out = std::io::stdout();
	writeln!(
		out,
		"{}\nEach figure: the median `validate_transaction` call of {} distinct transactions on the path, minus \
		 that of as many bytes of the same sizes that are no extrinsic (carrying them to the runtime; the \
		 first row gives such a call's own time); in brackets, as a multiple of the reference path — \
		 *{REFERENCE}* — in the same setting.\n",
		machine_summary(),
		args.count,
	)?;
	write!(out, "{}", unpaid::report(&runs)?)?;
	Ok(())
}
