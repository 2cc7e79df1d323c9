//! `throughput`: measures every case on fresh `pq-node`s, prints the report's Markdown and
//! writes its plots. Run through `benchmarking/throughput.sh`; see `docs/throughput.md`.

use clap::Parser;
use pq_benchmarks::{
	machine_summary,
	throughput::{
		measure, report,
		workload::{self, Verifier},
	},
};
use std::{io::Write, path::PathBuf, process::ExitCode};

#[derive(Parser)]
struct Args {
	/// The `pq-node` binary to measure.
	#[arg(long)]
	node: PathBuf,
	/// Transfers per case.
	#[arg(long, default_value_t = 2000)]
	transactions: usize,
	/// Directory to write the SVG plots to.
	#[arg(long)]
	plots: Option<PathBuf>,
	/// Only the cases whose label contains one of these (comma-separated: `ml-dsa-44`,
	/// `registered`, `ed25519 key inline,ml-dsa-87 registered`, …); Ed25519 through host
	/// functions runs always, as the baseline.
	#[arg(long, value_delimiter = ',')]
	only: Vec<String>,
	/// Runs of every case, interleaved; each case reports its run of median authoring TPS, so
	/// one disturbed run on a shared machine does not decide a ratio.
	#[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
	repeat: u32,
	/// The runtime builds to measure (comma-separated). Ed25519 through host functions, the
	/// baseline, runs always.
	#[arg(long, value_enum, value_delimiter = ',', default_values_t = [Verifier::HostFunctions, Verifier::PureWasm])]
	verifiers: Vec<Verifier>,
	/// Directory to keep each authoring node's log in (`<run>. <verifier>, <case>.log`), for
	/// reading the proposer block by block (benchmarking/authoring-split.sh); the nodes log
	/// what `RUST_LOG` asks.
	#[arg(long)]
	node_logs: Option<PathBuf>,
}

#[tokio::main]
async fn main() -> ExitCode {
	let args = Args::parse();
	match run(args).await {
		Ok(()) => ExitCode::SUCCESS,
		Err(error) => {
			eprintln!("throughput: {error:#}");
			ExitCode::FAILURE
		},
	}
}

async fn run(args: Args) -> anyhow::Result<()> {
	let cases: Vec<_> = workload::all_cases(&args.verifiers)
		.into_iter()
		.filter(|case| {
			*case == case.baseline()
				|| args.only.is_empty()
				|| args.only.iter().any(|only| case.label().contains(only.as_str()))
		})
		.collect();
	let mut runs: Vec<Vec<report::Row>> = cases.iter().map(|_| Vec::new()).collect();
	let mut progress = std::io::stderr();
	for repetition in 1..=args.repeat {
		for (index, case) in cases.iter().enumerate() {
			writeln!(
				progress,
				"[run {repetition}/{}, {}/{}] {}, {} × {}",
				args.repeat,
				index + 1,
				cases.len(),
				case.verifier.label(),
				case.label(),
				args.transactions
			)?;
			let node_log = args.node_logs.as_ref().map(|directory| {
				directory.join(format!(
					"{repetition}. {}, {}.log",
					case.verifier.label(),
					case.label()
				))
			});
			let measurement = measure::run(
				&args.node,
				*case,
				args.transactions,
				node_log.as_deref(),
				&mut progress,
			)
			.await?;
			runs[index].push(report::Row::new(measurement));
		}
	}
	let rows: Vec<report::Row> = runs.into_iter().map(report::median_run).collect();
	if let Some(directory) = &args.plots {
		std::fs::create_dir_all(directory)?;
		std::fs::write(directory.join("throughput-tps.svg"), report::tps_chart(&rows))?;
		std::fs::write(directory.join("throughput-stages.svg"), report::stage_time_chart(&rows))?;
	}
	println!("{}", machine_summary());
	println!(
		"{} transfers per case; each row is the run of median authoring TPS of {} run(s).\n",
		args.transactions, args.repeat
	);
	print!("{}", report::table(&rows));
	Ok(())
}
