//! `throughput`: measures every case on fresh `pq-node`s, prints the report's Markdown and
//! writes its plots. Run through `benchmarking/throughput.sh`; see `docs/throughput.md`.

use clap::Parser;
use pq_benchmarks::{
	machine_summary,
	throughput::{measure, report, workload},
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
	/// Only the cases whose label contains this (`ml-dsa-44`, `registered`, …); Ed25519 runs
	/// always, as the baseline.
	#[arg(long)]
	only: Option<String>,
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
	let cases: Vec<_> = workload::all_cases()
		.into_iter()
		.filter(|case| {
			case.scheme == pq_crypto::Scheme::Ed25519 || args.only.as_ref().is_none_or(|only| case.label().contains(only))
		})
		.collect();
	let mut rows = Vec::new();
	let mut progress = std::io::stderr();
	for (index, case) in cases.iter().enumerate() {
		writeln!(progress, "[{}/{}] {} × {}", index + 1, cases.len(), case.label(), args.transactions)?;
		rows.push(report::Row::new(measure::run(&args.node, *case, args.transactions, &mut progress).await?));
	}
	if let Some(directory) = &args.plots {
		std::fs::create_dir_all(directory)?;
		std::fs::write(directory.join("throughput-tps.svg"), report::tps_chart(&rows))?;
		std::fs::write(directory.join("throughput-stages.svg"), report::stage_time_chart(&rows))?;
	}
	println!("{}", machine_summary());
	println!("{} transfers per case.\n", args.transactions);
	print!("{}", report::table(&rows));
	Ok(())
}
