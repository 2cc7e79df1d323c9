//! Turns Criterion's results of `benches/verify.rs` into the markdown table of
//! `docs/benchmarks.md`: every step of every scheme and backend, and each as a ratio to
//! Ed25519 decode+verify measured in the same run.
//!
//! Usage: `bench-report <criterion directory>`; prints markdown on standard output.

use pq_benchmarks::{machine_summary, read_results, Results};
use std::{path::PathBuf, process::ExitCode};

const STEPS: [&str; 4] = ["decode", "verify-decoded", "decode+verify", "cache-hit"];
const BASELINE: &str = "ed25519/dalek/decode+verify";
/// Results of a runtime blob (`wasm:…` backends) include the cost of the runtime call itself,
/// measured as `runtime-call/<backend>/overhead` and subtracted.
const CALL_OVERHEAD: &str = "runtime-call";
/// Row order: the baseline, native backends, then runtime blobs.
const BACKENDS: [&str; 11] = [
	"dalek",
	"sp-io",
	"host",
	"libcrux",
	"fips204",
	"rustcrypto",
	"wasm:native",
	"wasm:pure",
	"wasm:pure:block",
	"wasm:libcrux",
	"wasm:libcrux:block",
];

fn main() -> ExitCode {
	let Some(directory) = std::env::args_os().nth(1).map(PathBuf::from) else {
		eprintln!("usage: bench-report <criterion directory>");
		return ExitCode::FAILURE;
	};
	let results = match read_results(&directory) {
		Ok(results) => results,
		Err(error) => {
			eprintln!("bench-report: {error}");
			return ExitCode::FAILURE;
		},
	};
	let Some(&baseline) = results.get(BASELINE) else {
		eprintln!(
			"bench-report: no {BASELINE} result in {}; run the benchmarks first",
			directory.display()
		);
		return ExitCode::FAILURE;
	};
	print!("{}", render(&results, baseline));
	ExitCode::SUCCESS
}

fn render(results: &Results, baseline: f64) -> String {
	let mut out = machine_summary();
	out.push_str(&format!(
		"\nMedian time per operation; in brackets, the ratio to Ed25519 decode+verify ({:.1} µs) \
		 of this run. *cache hit* is a verification whose decoded key was cached; the last column \
		 is its ratio to the same backend's decode+verify.\n\n",
		baseline / 1000.0
	));
	let overheads: Vec<String> = results
		.iter()
		.filter_map(|(id, ns)| {
			let backend =
				id.strip_prefix(&format!("{CALL_OVERHEAD}/"))?.strip_suffix("/overhead")?;
			Some(format!("`{backend}` {:.1} µs", ns / 1000.0))
		})
		.collect();
	if !overheads.is_empty() {
		out.push_str(&format!(
			"`wasm:` rows are a runtime API call into that Wasm blob minus the same call refused \
			 before verifying (subtracted: {}).\n\n",
			overheads.join(", ")
		));
	}
	out.push_str("| scheme | backend | decode | verify (decoded key) | decode+verify | cache hit | hit ÷ decode+verify |\n");
	out.push_str("|---|---|---|---|---|---|---|\n");
	let mut rows: Vec<(&str, &str)> = results
		.keys()
		.filter_map(|id| {
			let mut parts = id.splitn(3, '/');
			Some((parts.next()?, parts.next()?))
		})
		.filter(|(scheme, _)| *scheme != CALL_OVERHEAD)
		.collect();
	rows.sort_by_key(|(scheme, backend)| {
		(order(&SCHEMES, scheme), order(&BACKENDS, backend), *backend)
	});
	rows.dedup();
	for (scheme, backend) in rows {
		let overhead = results
			.get(&format!("{CALL_OVERHEAD}/{backend}/overhead"))
			.copied()
			.unwrap_or(0.0);
		let time =
			|step: &str| results.get(&format!("{scheme}/{backend}/{step}")).map(|ns| ns - overhead);
		let cell = |step: &str| match time(step) {
			Some(ns) => format!("{:.1} µs ({:.2}×)", ns / 1000.0, ns / baseline),
			None => "—".into(),
		};
		let hit_ratio = match (time("cache-hit"), time("decode+verify")) {
			(Some(hit), Some(full)) => format!("{:.2}×", hit / full),
			_ => "—".into(),
		};
		let cells: Vec<String> = STEPS.iter().map(|step| cell(step)).collect();
		out.push_str(&format!("| {scheme} | {backend} | {} | {hit_ratio} |\n", cells.join(" | ")));
	}
	out
}

const SCHEMES: [&str; 4] = ["ed25519", "ml-dsa-44", "ml-dsa-65", "ml-dsa-87"];

/// Position of `name` in `order`; unknown names last.
fn order(order: &[&str], name: &str) -> usize {
	order.iter().position(|known| *known == name).unwrap_or(usize::MAX)
}

#[cfg(test)]
mod tests {
	use super::*;

	#[test]
	fn rows_give_ratios_to_the_ed25519_baseline() {
		let results: Results = [
			(BASELINE.to_owned(), 50_000.0),
			("ml-dsa-44/libcrux/decode+verify".to_owned(), 40_000.0),
			("ml-dsa-44/libcrux/cache-hit".to_owned(), 20_000.0),
		]
		.into_iter()
		.collect();
		let table = render(&results, 50_000.0);
		assert!(table.contains("| ed25519 | dalek | — | — | 50.0 µs (1.00×) | — | — |"), "{table}");
		assert!(
			table.contains(
				"| ml-dsa-44 | libcrux | — | — | 40.0 µs (0.80×) | 20.0 µs (0.40×) | 0.50× |"
			),
			"{table}"
		);
	}

	#[test]
	fn runtime_blob_rows_subtract_the_call_overhead() {
		let results: Results = [
			(BASELINE.to_owned(), 50_000.0),
			("runtime-call/wasm:native/overhead".to_owned(), 10_000.0),
			("ml-dsa-44/wasm:native/decode+verify".to_owned(), 45_000.0),
			("ml-dsa-44/wasm:native/cache-hit".to_owned(), 40_000.0),
		]
		.into_iter()
		.collect();
		let table = render(&results, 50_000.0);
		assert!(
			table.contains(
				"| ml-dsa-44 | wasm:native | — | — | 35.0 µs (0.70×) | 30.0 µs (0.60×) | 0.86× |"
			),
			"{table}"
		);
		assert!(table.contains("`wasm:native` 10.0 µs"), "{table}");
		assert!(!table.contains("| runtime-call |"), "{table}");
	}
}
