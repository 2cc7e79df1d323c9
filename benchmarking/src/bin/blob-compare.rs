//! What one verification costs in two pure-Wasm runtime blobs — one built before a change, one
//! after — executed by the node's executor in one process, interleaved call by call: each call
//! verifies 32 signatures by distinct keys through `PqVerifierApi_verify_signatures`, as block
//! import checks a block's transactions in one instance, the two blobs' calls alternating in
//! order; and 32 by one ML-DSA-44 key, a key seen earlier in the call (a block's repeat signer).
//! Each figure is the fastest call of ROUNDS per blob and scheme, per verification, less
//! the same call with every check refused before verifying (the call's own cost, with 2.6 KB
//! of input a check: a scheme's larger or smaller signatures shift its figure by their
//! copying); on a VM whose speed jumps between stretches, the minimum is the figure that
//! repeats. Ed25519, compiled into the same blob, is measured beside every scheme, so each
//! figure is also a ratio to it; and it runs no Keccak, so its after ÷ before is the control.
//! The raw minima are printed too. So is the stock `sp_io` Ed25519 host function, called
//! natively on the same 32 Ed25519 signatures in every round (what a stock runtime's check
//! costs the node, without the runtime call around it), and each blob's ML-DSA-44 against it.
//! A host-function blob may be compared too; its ML-DSA figures are then the node's decoded-key
//! cache hits (the process-wide cache keeps every key after the first round), not decodes.
//!
//! Usage: `blob-compare BEFORE.wasm AFTER.wasm [ROUNDS]` (blobs as `wbuild` leaves them,
//! compressed or not; ROUNDS defaults to 200). Prints a markdown table.

use polkadot_sdk::{sp_core::ed25519, sp_io};
use pq_benchmarks::wasm_runtime::{checks_by_distinct_keys, refused_checks, Checks, WasmRuntime};
use pq_crypto::{
	message::ed25519_message, AccountSignature, AccountSigner, Purpose, Scheme, VerifyError,
};
use std::{
	hint::black_box,
	process::ExitCode,
	time::{Duration, Instant},
};

const MESSAGE: &[u8] = &[0x5a; 128];
const PURPOSE: Purpose = Purpose::Transaction;
const PER_CALL: u32 = 32;

fn call(runtime: &WasmRuntime, checks: &Checks) -> Duration {
	let start = Instant::now();
	black_box(runtime.verify_signatures(black_box(checks)).expect("the runtime call succeeds"));
	start.elapsed()
}

/// Ed25519 checks as the stock host function takes them: the bytes each signature signs (the
/// purpose's prefix and the message).
type StockChecks = Vec<(ed25519::Signature, Vec<u8>, ed25519::Public)>;

fn stock_checks(checks: &Checks) -> StockChecks {
	checks
		.iter()
		.map(|(signer, signature, message, purpose)| {
			let (AccountSigner::Ed25519(key), AccountSignature::Ed25519(signature)) =
				(signer, signature)
			else {
				unreachable!("Ed25519 checks")
			};
			let signed = ed25519_message(purpose.ed25519_prefix(), message).into_owned();
			(ed25519::Signature::from_raw(signature.0), signed, ed25519::Public::from_raw(key.0))
		})
		.collect()
}

/// The stock `sp_io` Ed25519 host function on every check, natively; whether all verified.
fn stock_call(checks: &StockChecks) -> (Duration, bool) {
	let start = Instant::now();
	let verified = checks.iter().all(|(signature, message, key)| {
		sp_io::crypto::ed25519_verify(black_box(signature), black_box(message), black_box(key))
	});
	(start.elapsed(), verified)
}

fn main() -> ExitCode {
	let arguments: Vec<String> = std::env::args().skip(1).collect();
	let (Some(before), Some(after)) = (arguments.first(), arguments.get(1)) else {
		eprintln!("usage: blob-compare BEFORE.wasm AFTER.wasm [ROUNDS]");
		return ExitCode::FAILURE;
	};
	let rounds: usize = match arguments.get(2).map(|rounds| rounds.parse()) {
		None => 200,
		Some(Ok(rounds)) if rounds > 0 => rounds,
		Some(_) => {
			eprintln!("ROUNDS is a positive number");
			return ExitCode::FAILURE;
		},
	};
	let mut runtimes = Vec::new();
	for path in [before, after] {
		match std::fs::read(path) {
			Ok(blob) => runtimes.push(WasmRuntime::new(Box::leak(blob.into_boxed_slice()))),
			Err(error) => {
				eprintln!("{path}: {error}");
				return ExitCode::FAILURE;
			},
		}
	}
	let ml_dsa_44_check = checks_by_distinct_keys(Scheme::MlDsa44, 1, MESSAGE, PURPOSE).remove(0);
	let one_key = vec![ml_dsa_44_check.clone(); PER_CALL as usize];
	// Ed25519 first: every figure's ratio is to workload 0; the refused call last.
	let workloads: Vec<(&str, Checks)> = [Scheme::Ed25519]
		.into_iter()
		.chain(Scheme::ML_DSA)
		.map(|scheme| (scheme.name(), checks_by_distinct_keys(scheme, PER_CALL, MESSAGE, PURPOSE)))
		.chain([
			("ML-DSA-44, one key (seen earlier in the call)", one_key),
			(
				"refused (call overhead)",
				refused_checks(ml_dsa_44_check.1, PER_CALL, MESSAGE, PURPOSE),
			),
		])
		.collect();
	let overhead = workloads.len() - 1;
	// A blob that is not a pq-runtime, or answers wrongly, is reported before anything is timed.
	for (runtime, path) in runtimes.iter().zip([before, after]) {
		for (workload, (name, checks)) in workloads.iter().enumerate() {
			let verdicts = match runtime.verify_signatures(checks) {
				Ok(verdicts) => verdicts,
				Err(error) => {
					eprintln!("{path}: {error}");
					return ExitCode::FAILURE;
				},
			};
			let expected =
				if workload == overhead { Err(VerifyError::SchemeMismatch) } else { Ok(()) };
			if verdicts.len() != checks.len()
				|| !verdicts.iter().all(|verdict| *verdict == expected)
			{
				eprintln!("{path}, {name}: the verdicts are not {expected:?} each: {verdicts:?}");
				return ExitCode::FAILURE;
			}
		}
	}
	let stock = stock_checks(&workloads[0].1);
	// fastest[blob][workload]
	let mut fastest = vec![vec![Duration::MAX; workloads.len()]; runtimes.len()];
	let mut fastest_stock = Duration::MAX;
	for round in 0..rounds {
		for (workload, (_, checks)) in workloads.iter().enumerate() {
			// Each blob goes first in every other round.
			for blob in [round % 2, 1 - round % 2] {
				let elapsed = call(&runtimes[blob], checks);
				fastest[blob][workload] = fastest[blob][workload].min(elapsed);
			}
		}
		let (elapsed, verified) = stock_call(&stock);
		if !verified {
			eprintln!("sp_io refuses an Ed25519 signature the blobs verify");
			return ExitCode::FAILURE;
		}
		fastest_stock = fastest_stock.min(elapsed);
	}
	let raw = |blob: usize, workload: usize| {
		fastest[blob][workload].as_secs_f64() * 1e6 / f64::from(PER_CALL)
	};
	let net = |blob: usize, workload: usize| raw(blob, workload) - raw(blob, overhead);
	println!(
		"{rounds} interleaved calls of {PER_CALL} verifications by distinct keys (or one) per \
		 blob and scheme; the fastest, less the refused call's, per verification (raw: the \
		 fastest call per check)"
	);
	println!();
	println!(
		"| scheme | before µs (÷ Ed25519) | after µs (÷ Ed25519) | after ÷ before | raw before µs | \
		 raw after µs |"
	);
	println!("|---|---:|---:|---:|---:|---:|");
	for (workload, (name, _)) in workloads.iter().enumerate() {
		let [before, after] = [0, 1].map(|blob| net(blob, workload));
		let [raw_before, raw_after] = [0, 1].map(|blob| raw(blob, workload));
		if workload == overhead {
			println!(
				"| {name} | | | {:.3} | {raw_before:.1} | {raw_after:.1} |",
				raw_after / raw_before
			);
			continue;
		}
		let [before_ed25519, after_ed25519] = [0, 1].map(|blob| net(blob, 0));
		println!(
			"| {name} | {before:.1} ({:.2}×) | {after:.1} ({:.2}×) | {:.3} | {raw_before:.1} | \
			 {raw_after:.1} |",
			before / before_ed25519,
			after / after_ed25519,
			after / before
		);
	}
	let stock = fastest_stock.as_secs_f64() * 1e6 / stock.len() as f64;
	let ml_dsa_44 = workloads
		.iter()
		.position(|(name, _)| *name == Scheme::MlDsa44.name())
		.expect("ML-DSA-44 is measured");
	println!();
	println!(
		"Ed25519 through the stock `sp_io` host function, natively, the fastest of the same \
		 rounds: {stock:.1} µs a verification; ML-DSA-44 ÷ it: before {:.2}×, after {:.2}×",
		net(0, ml_dsa_44) / stock,
		net(1, ml_dsa_44) / stock
	);
	ExitCode::SUCCESS
}
