//! Shared helpers of the integration tests: where the NIST vectors live and how to read them.

#![allow(dead_code)] // Each test binary uses a different part of this module.

use serde_json::Value;
use std::path::PathBuf;

/// Environment variable that overrides where the vectors are read from.
pub const VECTORS_ENV: &str = "PQ_VECTORS_DIR";

/// `../shared/vectors` beside the repository (the workspace root, found from whichever crate
/// includes this module), or `$PQ_VECTORS_DIR`.
pub fn vectors_dir() -> PathBuf {
	std::env::var_os(VECTORS_ENV).map(PathBuf::from).unwrap_or_else(|| {
		// Cargo's value for the running test, not `env!`'s: clones sharing one target
		// directory can share a test binary compiled in another clone.
		let manifest =
			PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("run by cargo test"));
		let root = manifest
			.ancestors()
			.find(|dir| dir.join("Cargo.lock").exists())
			.unwrap_or(&manifest);
		root.join("../shared/vectors")
	})
}

/// Loads one ACVP ML-DSA file (`key-gen.json`, `sig-gen.json`, `sig-ver.json`). A missing file
/// fails the test: a vector test that finds no vectors has proven nothing.
pub fn acvp(file: &str) -> Value {
	let path = vectors_dir().join("acvp-ml-dsa").join(file);
	let text = std::fs::read_to_string(&path).unwrap_or_else(|error| {
		panic!(
			"NIST ACVP vectors not found at {} ({error}); they live in ../shared/vectors beside \
			 the repository, or set {VECTORS_ENV}",
			path.display()
		)
	});
	serde_json::from_str(&text).expect("ACVP file is JSON")
}

/// The test groups of an ACVP file for one parameter set (`"ML-DSA-44"`, …).
fn acvp_groups<'a>(file: &'a Value, parameter_set: &str) -> Vec<&'a Value> {
	let groups: Vec<_> = file["testGroups"]
		.as_array()
		.expect("ACVP file has testGroups")
		.iter()
		.filter(|group| group["parameterSet"] == parameter_set)
		.collect();
	assert!(!groups.is_empty(), "no ACVP test group for {parameter_set}");
	groups
}

/// Every `(group, test)` of an ACVP file for one parameter set.
pub fn acvp_tests<'a>(file: &'a Value, parameter_set: &str) -> Vec<(&'a Value, &'a Value)> {
	acvp_groups(file, parameter_set)
		.into_iter()
		.flat_map(|group| {
			group["tests"]
				.as_array()
				.expect("group has tests")
				.iter()
				.map(move |test| (group, test))
		})
		.collect()
}

/// A hex field of an ACVP test or group.
pub fn hex_field(value: &Value, field: &str) -> Vec<u8> {
	hex::decode(value[field].as_str().unwrap_or_else(|| panic!("field {field} missing")))
		.unwrap_or_else(|_| panic!("field {field} is not hex"))
}

/// Our own verifier ([`fips204`]) held to its portable engine — what a Wasm runtime runs, a key
/// verified once included ([`fips204::verify_once_by`], which it says is lighter) — so the
/// vectors and properties check both engines and both ways on a machine whose
/// [`pq_crypto::backend::Fips204`] runs the AVX2 one. Counts on each test's thread the keys it
/// decodes ([`decoded_on_this_thread`]).
pub struct PortableEngine;

thread_local! {
	static DECODED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// ML-DSA keys [`PortableEngine`] decoded on this thread.
pub fn decoded_on_this_thread() -> usize {
	DECODED.with(|decoded| decoded.get())
}

impl<P: pq_crypto::params::MlDsaParams> pq_crypto::backend::MlDsaVerifier<P> for PortableEngine {
	type DecodedKey = std::sync::Arc<fips204::VerifyingKey<P>>;
	const DECODED_KEY_BYTES: usize = fips204::VerifyingKey::<P>::BYTES_WITH_MATRIX;

	fn decode_key(public: &P::Public) -> Self::DecodedKey {
		DECODED.with(|decoded| decoded.set(decoded.get() + 1));
		std::sync::Arc::new(fips204::VerifyingKey::decode_by(
			fips204::Engine::Portable,
			P::encoded_public_key(public),
		))
	}

	fn verify_decoded(
		key: &Self::DecodedKey,
		message: &[u8],
		context: &[u8],
		signature: &P::Signature,
	) -> bool {
		key.verify_by(fips204::Engine::Portable, message, context, P::encoded_signature(signature))
	}

	fn verify_internal(key: &Self::DecodedKey, message: &[u8], signature: &P::Signature) -> bool {
		key.verify_internal_by(fips204::Engine::Portable, message, P::encoded_signature(signature))
	}

	fn verify(
		public: &P::Public,
		message: &[u8],
		context: &[u8],
		signature: &P::Signature,
	) -> bool {
		let Some(header) = fips204::pure_header(context) else { return false };
		fips204::verify_once_by::<P>(
			fips204::Engine::Portable,
			P::encoded_public_key(public),
			&[&header, context, message],
			P::encoded_signature(signature),
		)
	}

	fn verify_is_lighter() -> bool {
		true
	}
}

impl pq_crypto::backend::Ed25519Verifier for PortableEngine {
	type DecodedKey =
		<pq_crypto::backend::StrictEd25519 as pq_crypto::backend::Ed25519Verifier>::DecodedKey;

	fn decode_key(public: &pq_crypto::keys::Ed25519Public) -> Option<Self::DecodedKey> {
		<pq_crypto::backend::StrictEd25519 as pq_crypto::backend::Ed25519Verifier>::decode_key(
			public,
		)
	}

	fn verify_decoded(
		key: &Self::DecodedKey,
		prefix: &[u8],
		message: &[u8],
		signature: &pq_crypto::keys::Ed25519Signature,
	) -> bool {
		<pq_crypto::backend::StrictEd25519 as pq_crypto::backend::Ed25519Verifier>::verify_decoded(
			key, prefix, message, signature,
		)
	}
}

impl pq_crypto::backend::Backend for PortableEngine {
	const NAME: &'static str = "fips204-portable";
}

/// `pk*` of `signers`, derived from `committee`'s published shares and their sum as a chain
/// derives it.
pub fn chain_key(
	committee: &pq_signer::aggregator::Committee,
	signers: &pq_crypto::aggregate::SignerBitfield,
) -> pq_crypto::keys::MlDsa87Public {
	use pq_crypto::committee::{derive_aggregate_key, ShareSum};
	let shares = committee.shares();
	let mut total = ShareSum::default();
	shares.iter().for_each(|share| total.add(share).unwrap());
	derive_aggregate_key(&committee.rho(), committee.size(), &total.pack(), signers, |index| {
		shares.get(index as usize).cloned()
	})
	.unwrap()
}
