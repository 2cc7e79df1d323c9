//! Whether this machine ran at its reference speed around a measurement.
//!
//! This VM alternates between its reference speed and slow stretches, from under a minute to
//! half an hour, in which ML-DSA verification takes up to 1.5× as long — Ed25519 sometimes as
//! much, sometimes not at all (docs/benchmarking.md). Weights are the machine at its reference speed
//! (`scripts/generate-weights.sh` keeps only runs between two passing probes of
//! `scripts/machine-check.sh`), so a measurement is compared with them only if the machine was
//! at that speed on both sides of it. Which state it was in is measured, not chosen after the
//! fact: a [`probe`] right before and right after, each judged against the fastest probes of
//! the session ([`at_reference`]). A probe times both schemes, since a stretch may slow either
//! alone (2026-11-29: Ed25519 at 1.24–1.73× with ML-DSA-87 unmoved, and the reverse).

use pq_crypto::{
	backend::{Ed25519Verifier, Fips204, MlDsaVerifier, StrictEd25519},
	params::MlDsa87,
	AccountSignature, AccountSigner, Purpose, Scheme,
};
use pq_signer::signing::Keypair;
use std::{
	hint::black_box,
	time::{Duration, Instant},
};

/// Verifications of each scheme a probe times: about a tenth of a second for both.
const VERIFICATIONS: usize = 801;

/// How much slower than the session's fastest probe a probe may be and still show the machine
/// at its reference speed: the margin every weight carries (10%).
pub const TOLERANCE: f64 = 1.10;

/// The machine's speed at a moment: the median time of a verification of each scheme,
/// natively, by the verifiers the node runs, with no decoded-key cache.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Probe {
	/// An ML-DSA-87 key decode and verification by our verifier, with the engine the node's
	/// host functions use (AVX2 when the CPU has it): the work whose weights are most at stake.
	pub ml_dsa_87: Duration,
	/// An Ed25519 verification under the consensus rule (`StrictEd25519`).
	pub ed25519: Duration,
}

/// Times both schemes now.
pub fn probe() -> Probe {
	let message = [0x5a; 128];
	let purpose = Purpose::Transaction;
	let signed = |scheme| {
		let keypair = Keypair::from_suri(scheme, "//MachineStateProbe").expect("a dev URI");
		(keypair.public(), keypair.sign(&message, purpose))
	};
	let (AccountSigner::MlDsa87(key), AccountSignature::MlDsa87(signature)) =
		signed(Scheme::MlDsa87)
	else {
		unreachable!("an ML-DSA-87 key pair signs with ML-DSA-87")
	};
	let ml_dsa_87 = median_time(|| {
		<Fips204 as MlDsaVerifier<MlDsa87>>::verify(
			black_box(&key),
			black_box(&message),
			purpose.context(),
			black_box(&signature),
		)
	});
	let (AccountSigner::Ed25519(key), AccountSignature::Ed25519(signature)) =
		signed(Scheme::Ed25519)
	else {
		unreachable!("an Ed25519 key pair signs with Ed25519")
	};
	let ed25519 = median_time(|| {
		StrictEd25519::verify(
			black_box(&key),
			purpose.ed25519_prefix(),
			black_box(&message),
			black_box(&signature),
		)
	});
	Probe { ml_dsa_87, ed25519 }
}

/// The median time of [`VERIFICATIONS`] calls of `verify`, each of which must succeed.
fn median_time(verify: impl Fn() -> bool) -> Duration {
	let mut times: Vec<Duration> = (0..VERIFICATIONS)
		.map(|_| {
			let start = Instant::now();
			let valid = verify();
			let elapsed = start.elapsed();
			assert!(valid, "the probe's own signature verifies");
			elapsed
		})
		.collect();
	times.sort_unstable();
	times[VERIFICATIONS / 2]
}

/// The probes before and after one measurement.
pub type Bracket = [Probe; 2];

/// For each measurement, whether the machine was at its reference speed on both sides of it:
/// each scheme's time in both of its probes within [`TOLERANCE`] of that scheme's fastest in
/// all `brackets`.
pub fn at_reference(brackets: &[Bracket]) -> Vec<bool> {
	let probes = || brackets.iter().flatten();
	let (Some(ml_dsa_87), Some(ed25519)) =
		(probes().map(|probe| probe.ml_dsa_87).min(), probes().map(|probe| probe.ed25519).min())
	else {
		return Vec::new();
	};
	let within =
		|time: Duration, fastest: Duration| time.as_secs_f64() <= fastest.as_secs_f64() * TOLERANCE;
	let fast = |probe: &Probe| within(probe.ml_dsa_87, ml_dsa_87) && within(probe.ed25519, ed25519);
	brackets.iter().map(|bracket| bracket.iter().all(fast)).collect()
}

#[cfg(test)]
mod tests {
	use super::*;

	fn probe(ml_dsa_87: u64, ed25519: u64) -> Probe {
		Probe {
			ml_dsa_87: Duration::from_micros(ml_dsa_87),
			ed25519: Duration::from_micros(ed25519),
		}
	}

	/// Four measurements: the second ends in a slow stretch of ML-DSA (1.4× its fastest), the
	/// third starts at 1.08×, within the tolerance, the fourth ends in one of Ed25519 alone.
	#[test]
	fn a_measurement_beside_a_slow_probe_is_not_at_reference_speed() {
		let brackets = [
			[probe(100, 30), probe(105, 31)],
			[probe(103, 30), probe(140, 30)],
			[probe(108, 32), probe(100, 30)],
			[probe(101, 30), probe(100, 45)],
		];
		assert_eq!(at_reference(&brackets), [true, false, true, false]);
	}

	#[test]
	fn no_probes_judge_no_measurements() {
		assert!(at_reference(&[]).is_empty());
	}

	#[test]
	fn a_probe_times_valid_verifications_of_both_schemes() {
		let probe = super::probe();
		assert!(probe.ml_dsa_87 > Duration::ZERO && probe.ed25519 > Duration::ZERO);
	}
}
