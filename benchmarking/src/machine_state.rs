//! Whether this machine ran at its reference speed around a measurement.
//!
//! This VM alternates between its reference speed and slow stretches, from under a minute to
//! half an hour, in which ML-DSA verification takes up to 1.5× as long — Ed25519 sometimes as
//! much, sometimes not at all (docs/benchmarking.md). Weights are the machine at its reference speed
//! (`scripts/generate-weights.sh` keeps only runs between two passing probes of
//! `scripts/machine-check.sh`), so a measurement is compared with them only if the machine was
//! at that speed on both sides of it. Which state it was in is measured, not chosen after the
//! fact: a [`probe`] right before and right after, each judged against the fastest probe of
//! the session ([`at_reference`]).

use pq_crypto::{
	backend::{Fips204, MlDsaVerifier},
	params::MlDsa87,
	AccountSignature, AccountSigner, Purpose, Scheme,
};
use pq_signer::signing::Keypair;
use std::{
	hint::black_box,
	time::{Duration, Instant},
};

/// Verifications a probe times: about a tenth of a second at the reference speed.
const VERIFICATIONS: usize = 801;

/// How much slower than the session's fastest probe a probe may be and still show the machine
/// at its reference speed: the margin every weight carries (10%).
pub const TOLERANCE: f64 = 1.10;

/// The median time of one ML-DSA-87 key decode and verification, natively, by our verifier
/// with the engine the node's host functions use (AVX2 when the CPU has it) and no decoded-key
/// cache: the work the VM's slow stretches slow most reliably, and the work whose weights are
/// most at stake.
pub fn probe() -> Duration {
	let keypair = Keypair::from_suri(Scheme::MlDsa87, "//MachineStateProbe").expect("a dev URI");
	let message = [0x5a; 128];
	let purpose = Purpose::Transaction;
	let (AccountSigner::MlDsa87(key), AccountSignature::MlDsa87(signature)) =
		(keypair.public(), keypair.sign(&message, purpose))
	else {
		unreachable!("an ML-DSA-87 key pair signs with ML-DSA-87")
	};
	let mut times: Vec<Duration> = (0..VERIFICATIONS)
		.map(|_| {
			let start = Instant::now();
			let valid = <Fips204 as MlDsaVerifier<MlDsa87>>::verify(
				black_box(&key),
				black_box(&message),
				purpose.context(),
				black_box(&signature),
			);
			let elapsed = start.elapsed();
			assert!(valid, "the probe's own signature verifies");
			elapsed
		})
		.collect();
	times.sort_unstable();
	times[VERIFICATIONS / 2]
}

/// The probes before and after one measurement.
pub type Bracket = [Duration; 2];

/// For each measurement, whether the machine was at its reference speed on both sides of it:
/// both of its probes within [`TOLERANCE`] of the fastest probe of all `brackets`.
pub fn at_reference(brackets: &[Bracket]) -> Vec<bool> {
	let Some(fastest) = brackets.iter().flatten().min() else {
		return Vec::new();
	};
	let fast = |probe: &Duration| probe.as_secs_f64() <= fastest.as_secs_f64() * TOLERANCE;
	brackets.iter().map(|bracket| bracket.iter().all(fast)).collect()
}

#[cfg(test)]
mod tests {
	use super::*;

	/// Three measurements: the second ends in a slow stretch (its second probe 1.4× the
	/// fastest), the third starts at 1.08×, within the tolerance.
	#[test]
	fn a_measurement_beside_a_slow_probe_is_not_at_reference_speed() {
		let bracket = |before, after| [Duration::from_micros(before), Duration::from_micros(after)];
		let brackets = [bracket(100, 105), bracket(103, 140), bracket(108, 100)];
		assert_eq!(at_reference(&brackets), [true, false, true]);
	}

	#[test]
	fn no_probes_judge_no_measurements() {
		assert!(at_reference(&[]).is_empty());
	}

	#[test]
	fn a_probe_times_a_valid_verification() {
		assert!(probe() > Duration::ZERO);
	}
}
