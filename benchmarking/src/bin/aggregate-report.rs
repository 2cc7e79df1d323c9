//! Turns Criterion's results of `benches/aggregate.rs` into the table of `docs/aggregate.md`:
//! bytes on the wire and verification time against the number of signers, aggregate versus
//! individual ML-DSA-87, with the issue's targets checked against this run.
//!
//! Usage: `aggregate-report <criterion directory>`; prints markdown on standard output.

use pq_benchmarks::{machine_summary, read_results, Results};
use pq_crypto::{aggregate::CommitteeId, keys::MlDsa87Signature};
use std::{path::PathBuf, process::ExitCode};

const SIGNERS: [u32; 5] = [1, 4, 16, 64, 128];
const ED25519: &str = "ed25519/dalek/decode+verify";
const ML_DSA_87: &str = "ml-dsa-87/fips204/decode+verify";
const ML_DSA_87_CACHED: &str = "ml-dsa-87/fips204/cache-hit";
const EXPAND_MATRIX: &str = "ml-dsa-87/committee-verifier/expand-matrix";
/// Bytes of an ML-DSA-87 public key, for signatures whose keys travel with them.
const ML_DSA_87_PUBLIC: usize = 2592;

fn main() -> ExitCode {
	let Some(directory) = std::env::args_os().nth(1).map(PathBuf::from) else {
		eprintln!("usage: aggregate-report <criterion directory>");
		return ExitCode::FAILURE;
	};
	match read_results(&directory).and_then(|results| render(&results)) {
		Ok(table) => {
			print!("{table}");
			ExitCode::SUCCESS
		},
		Err(error) => {
			eprintln!("aggregate-report: {error}");
			ExitCode::FAILURE
		},
	}
}

fn get(results: &Results, id: &str) -> Result<f64, String> {
	results
		.get(id)
		.copied()
		.ok_or_else(|| format!("no {id} result; run the aggregate benchmark first"))
}

/// Bytes of an aggregate signature of a committee of `members`: committee id, the signer
/// bitfield (`⌈N/8⌉` bytes and its length) and one ML-DSA-87 signature.
fn aggregate_bytes(members: u32) -> usize {
	CommitteeId::LEN + 1 + members.div_ceil(8) as usize + MlDsa87Signature::LEN
}

fn render(results: &Results) -> Result<String, String> {
	let (ed25519, single, cached, expand) = (
		get(results, ED25519)?,
		get(results, ML_DSA_87)?,
		get(results, ML_DSA_87_CACHED)?,
		get(results, EXPAND_MATRIX)?,
	);
	let micros = |ns: f64| format!("{:.1}", ns / 1000.0);
	let mut out = machine_summary();
	out.push_str(&format!(
		"\nBaselines of this run (our FIPS 204 verifier, `Fips204`, the node's backend, native): \
		 one ML-DSA-87 decode+verify {} µs, one cached-key ML-DSA-87 verification {} µs, one \
		 Ed25519 decode+verify {} µs; `ExpandA(ρ)`, which the node runs once per committee, {} µs. \
		 Each aggregate is a committee of 128 whose first N members signed; *derive* is `pk*` as \
		 the pallet derives it, from the stored sum of all shares and min(N, 128 − N) shares \
		 (storage reads not included); *cold* is derive, `ExpandA`, decode and verify (the \
		 committee's first signature; what the weights charge); *fresh* is derive, decode and \
		 verify with the committee's matrix cached (a new signer set); *repeated* is the \
		 verification with `pk*` decoded and cached (the chain derives `pk*` first).\n\n",
		micros(single),
		micros(cached),
		micros(ed25519),
		micros(expand),
	));
	out.push_str(
		"| N | aggregate bytes | N signatures (+ keys) bytes | derive µs | cold µs | fresh µs | repeated µs | N × decode+verify µs | cold ÷ one decode+verify | fresh ÷ one decode+verify | N separate ÷ fresh | repeated ÷ one cached verify | fresh ÷ Ed25519 |\n",
	);
	out.push_str("|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
	let mut targets = Vec::new();
	for n in SIGNERS {
		let derive = get(results, &format!("aggregate/{n}/derive"))?;
		let cold = get(results, &format!("aggregate/{n}/cold"))?;
		let fresh = get(results, &format!("aggregate/{n}/fresh"))?;
		let repeated = get(results, &format!("aggregate/{n}/repeated"))?;
		let separate = get(results, &format!("individual/{n}/decode+verify"))?;
		let individual_bytes = n as usize * MlDsa87Signature::LEN;
		out.push_str(&format!(
			"| {n} | {} | {} ({}) | {} | {} | {} | {} | {} | {:.2}× | {:.2}× | {:.1}× | {:.2}× | {:.1}× |\n",
			aggregate_bytes(n),
			individual_bytes,
			individual_bytes + n as usize * ML_DSA_87_PUBLIC,
			micros(derive),
			micros(cold),
			micros(fresh),
			micros(repeated),
			micros(separate),
			cold / single,
			fresh / single,
			separate / fresh,
			repeated / cached,
			fresh / ed25519,
		));
		targets.push((n, cold, fresh, repeated, separate));
	}
	let repeated_worst = targets
		.iter()
		.map(|(_, _, _, repeated, _)| repeated / cached)
		.fold(0.0, f64::max);
	let (_, cold_128, fresh_128, _, separate_128) =
		targets.last().copied().ok_or("no signer counts")?;
	let verdict = |met: bool| if met { "met" } else { "missed" };
	out.push_str(&format!(
		"\nTargets (#5), this run:\n\n\
		 | target | result |\n|---|---|\n\
		 | repeated signer set ≤ 1.2× one cached-key ML-DSA-87 verification | {} (worst {:.2}×) |\n\
		 | fresh 128-member set ≤ 3× one ML-DSA-87 decode+verify | {} ({:.2}×; cold {:.2}×) |\n\
		 | fresh 128-member set ≥ 40× less than 128 separate decode+verify | {} ({:.1}×; cold {:.1}×) |\n",
		verdict(repeated_worst <= 1.2),
		repeated_worst,
		verdict(fresh_128 / single <= 3.0),
		fresh_128 / single,
		cold_128 / single,
		verdict(separate_128 / fresh_128 >= 40.0),
		separate_128 / fresh_128,
		separate_128 / cold_128,
	));
	Ok(out)
}

#[cfg(test)]
mod tests {
	use super::*;

	#[test]
	fn aggregate_bytes_match_the_issue() {
		// 4,627 bytes plus ⌈N/8⌉ + 1 bytes of signer bits, plus the 32-byte committee id.
		assert_eq!(aggregate_bytes(128), 32 + 4627 + 17);
		assert_eq!(aggregate_bytes(1), 32 + 4627 + 2);
	}

	#[test]
	fn a_missing_result_is_an_error_naming_it() {
		let error = render(&Results::new()).unwrap_err();
		assert!(error.contains(ED25519), "{error}");
	}

	#[test]
	fn a_complete_run_renders_every_row_and_target() {
		let mut results = Results::new();
		results.insert(ED25519.into(), 50_000.0);
		results.insert(ML_DSA_87.into(), 100_000.0);
		results.insert(ML_DSA_87_CACHED.into(), 90_000.0);
		results.insert(EXPAND_MATRIX.into(), 40_000.0);
		for n in SIGNERS {
			results.insert(format!("aggregate/{n}/derive"), 1_000.0 * n as f64);
			results.insert(format!("aggregate/{n}/cold"), 140_000.0 + 1_000.0 * n as f64);
			results.insert(format!("aggregate/{n}/fresh"), 100_000.0 + 1_000.0 * n as f64);
			results.insert(format!("aggregate/{n}/repeated"), 95_000.0);
			results.insert(format!("individual/{n}/decode+verify"), 100_000.0 * n as f64);
		}
		let table = render(&results).unwrap();
		for n in SIGNERS {
			assert_eq!(
				table.lines().filter(|line| line.starts_with(&format!("| {n} |"))).count(),
				1,
				"{table}"
			);
		}
		// 128 signers: fresh 228 µs = 2.28× one decode+verify, 56× less than 128 separate.
		// Cold: 268 µs = 2.68×, 47.8× less.
		assert!(table.contains("| fresh 128-member set ≤ 3× one ML-DSA-87 decode+verify | met (2.28×; cold 2.68×) |"), "{table}");
		assert!(table.contains("| fresh 128-member set ≥ 40× less than 128 separate decode+verify | met (56.1×; cold 47.8×) |"), "{table}");
		assert!(table.contains("| repeated signer set ≤ 1.2× one cached-key ML-DSA-87 verification | met (worst 1.06×) |"), "{table}");
	}
}
