//! `parachain-costs`: what each transfer kind adds to a parachain block's proof of validity
//! (its bytes in the body, its storage proof) and to its execution, measured on the pure-Wasm
//! runtime executed with a parachain validator's host functions; and how many fit a block under
//! the relay chain's proof-of-validity limit and the 2-second execution limit, beside Ed25519.
//! Run through `benchmarking/parachain-costs.sh`; see `docs/parachain.md`.

use clap::Parser;
use polkadot_sdk::sc_executor::WasmtimeInstantiationStrategy;
use pq_benchmarks::{
	charge::Kind,
	machine_summary,
	parachain::{self, TransactionCost, ValidatorRuntime, FILLER_ACCOUNTS},
};
use pq_crypto::Scheme;
use pq_runtime_client::transactions::Form;
use std::{fmt::Write as _, process::ExitCode, time::Duration};

#[derive(Parser)]
struct Args {
	/// Transactions in each measured block, each from its own sender.
	#[arg(long, default_value_t = 100)]
	transactions: usize,
	/// Imports of each measured block and its baseline, alternating; the fastest of each counts.
	#[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..))]
	runs: u32,
	/// A new instance for every runtime call instead of the pooling allocator's: to count
	/// instructions under valgrind (callgrind), which cannot reserve the pool's address space.
	#[arg(long)]
	recreate_instances: bool,
	/// Only the kinds whose label contains this (`ml-dsa-87`, `registered`, …); Ed25519, the
	/// baseline of every ratio, runs always.
	#[arg(long)]
	only: Option<String>,
}

/// The relay chain's limit on a parachain block's proof of validity (block and storage proof):
/// `MAX_POV_SIZE` of polkadot-primitives 26 (2609), 10 MiB.
const MAX_POV_BYTES: f64 = 10.0 * 1024.0 * 1024.0;
/// The execution time a parachain block may take: 2 seconds (the weight limit parachains set
/// for a relay-chain-backed block, `WEIGHT_REF_TIME_PER_SECOND * 2`).
const MAX_EXECUTION: Duration = Duration::from_secs(2);

fn main() -> ExitCode {
	match run(Args::parse()) {
		Ok(table) => {
			print!("{table}");
			ExitCode::SUCCESS
		},
		Err(error) => {
			eprintln!("parachain-costs: {error:#}");
			ExitCode::FAILURE
		},
	}
}

/// Every transfer form of every scheme, and a committee; Ed25519 first.
fn kinds() -> Vec<Kind> {
	let mut kinds = vec![Kind::Transfer(Scheme::Ed25519, Form::KeyInline)];
	for form in [Form::KeyInline, Form::KeyRegistered] {
		kinds.extend(Scheme::ML_DSA.into_iter().map(|scheme| Kind::Transfer(scheme, form)));
	}
	kinds.push(Kind::CommitteeTransfer { size: 16, signers: 9 });
	kinds
}

fn run(args: Args) -> anyhow::Result<String> {
	let blob = pq_runtime::pure_wasm::WASM_BINARY
		.ok_or_else(|| anyhow::anyhow!("pq-runtime built without its Wasm blobs"))?;
	let runtime = if args.recreate_instances {
		ValidatorRuntime::with_instantiation(blob, WasmtimeInstantiationStrategy::RecreateInstance)
	} else {
		ValidatorRuntime::new(blob)
	};
	let mut costs = Vec::new();
	let kinds = kinds().into_iter().enumerate().filter(|(index, kind)| {
		*index == 0 || args.only.as_ref().is_none_or(|only| kind.label().contains(only))
	});
	for (_, kind) in kinds {
		eprintln!("{}: {} transactions", kind.label(), args.transactions);
		costs.push(parachain::measure(&runtime, kind, args.transactions, args.runs as usize)?);
	}
	Ok(table(&costs, args.transactions))
}

fn table(costs: &[TransactionCost], transactions: usize) -> String {
	let ed25519 = &costs[0];
	let mut out = machine_summary();
	let _ = write!(
		out,
		"\nPer transaction, averaged over a block of {transactions} from distinct senders, each to an account it creates \
		 (a committee transfer from a committee of its own; the block with only its \
		 timestamp subtracted), on a state with {FILLER_ACCOUNTS} other funded accounts; pure-Wasm runtime with a \
		 parachain validator's host functions, on this machine. *proof*: compact storage proof of importing the \
		 block; *PoV*: body + proof; *charged proof*: the weights' `proof_size`, which a parachain's block \
		 weight limit counts (with the body) against the same {:.0} MiB; execution limit {} s.\n\n",
		MAX_POV_BYTES / 1024.0 / 1024.0,
		MAX_EXECUTION.as_secs()
	);
	out.push_str(
		"| kind | body B | proof B | PoV B (÷ Ed25519) | charged proof B (÷ measured) | execution µs (÷ Ed25519) | per block by PoV | by charged proof | by time | bound by |\n\
		 |---|---:|---:|---:|---:|---:|---:|---:|---:|---|\n",
	);
	for cost in costs {
		let limits = [
			("PoV", MAX_POV_BYTES / cost.pov_bytes()),
			("charged proof", MAX_POV_BYTES / (cost.body_bytes + cost.charged_proof_bytes)),
			("time", MAX_EXECUTION.as_secs_f64() / cost.execution.as_secs_f64()),
		];
		let (bound, _) = limits.iter().min_by(|a, b| a.1.total_cmp(&b.1)).expect("three limits");
		let _ = writeln!(
			out,
			"| {} | {:.0} | {:.0} | {:.0} ({:.2}×) | {:.0} ({:.1}×) | {:.0} ({:.2}×) | {:.0} | {:.0} | {:.0} | {bound} |",
			cost.kind.label(),
			cost.body_bytes,
			cost.proof_bytes,
			cost.pov_bytes(),
			cost.pov_bytes() / ed25519.pov_bytes(),
			cost.charged_proof_bytes,
			cost.charged_proof_bytes / cost.proof_bytes,
			cost.execution.as_secs_f64() * 1e6,
			cost.execution.as_secs_f64() / ed25519.execution.as_secs_f64(),
			limits[0].1.floor(),
			limits[1].1.floor(),
			limits[2].1.floor(),
		);
	}
	out
}
