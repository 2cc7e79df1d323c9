//! NIST ACVP ML-DSA signature-verification vectors (FIPS 204 Algorithm 8, the internal
//! interface) against both engines of this verifier, with a decoded key and without one.
//!
//! Provenance: ACVP-Server commit 65370b8,
//! `gen-val/json-files/ML-DSA-sigVer-FIPS204/internalProjection.json`, kept as
//! `acvp-ml-dsa/sig-ver.json` in `../shared/vectors/` beside the repository (its README says
//! what each file checks), or in `$PQ_VECTORS_DIR`. A missing file fails the test: a vector
//! test that finds no vectors has proven nothing.

use fips204::{verify_once_by, Engine, MlDsa44, MlDsa65, MlDsa87, ParameterSet, VerifyingKey};
use serde_json::Value;
use std::path::PathBuf;

fn sig_ver_file() -> Value {
	let directory = std::env::var_os("PQ_VECTORS_DIR").map(PathBuf::from).unwrap_or_else(|| {
		// Cargo's value for the running test: the workspace root is the first ancestor with a
		// lock file, and the vectors live beside it.
		let manifest =
			PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("run by cargo test"));
		let root = manifest
			.ancestors()
			.find(|dir| dir.join("Cargo.lock").exists())
			.unwrap_or(&manifest)
			.to_path_buf();
		root.join("../shared/vectors")
	});
	let path = directory.join("acvp-ml-dsa/sig-ver.json");
	let text = std::fs::read_to_string(&path).unwrap_or_else(|error| {
		panic!("NIST ACVP vectors not found at {} ({error}); set PQ_VECTORS_DIR", path.display())
	});
	serde_json::from_str(&text).expect("ACVP file is JSON")
}

fn hex_field(value: &Value, field: &str) -> Vec<u8> {
	hex::decode(value[field].as_str().unwrap_or_else(|| panic!("field {field}")))
		.unwrap_or_else(|_| panic!("field {field} is hex"))
}

/// Every sigVer vector of level `P`: `Verify_internal(pk, M′, σ)` must equal `testPassed` on
/// `engine`; and a passing signature with any one of a sample of its bits flipped, or under
/// another message, must fail.
fn sig_ver<P: ParameterSet>(engine: Engine)
where
	P::EncodedPublicKey: for<'a> TryFrom<&'a [u8]>,
	P::EncodedSignature: for<'a> TryFrom<&'a [u8]>,
{
	let file = sig_ver_file();
	let mut tests = 0;
	let mut passing = 0;
	for group in file["testGroups"].as_array().expect("testGroups") {
		if group["parameterSet"] != P::NAME {
			continue;
		}
		let public = P::EncodedPublicKey::try_from(&hex_field(group, "pk")[..])
			.unwrap_or_else(|_| panic!("a {} key", P::NAME));
		let key = VerifyingKey::<P>::decode_by(engine, &public);
		for test in group["tests"].as_array().expect("tests") {
			tests += 1;
			let message = hex_field(test, "message");
			let signature_bytes = hex_field(test, "signature");
			let expected = test["testPassed"].as_bool().expect("testPassed");
			let Ok(signature) = P::EncodedSignature::try_from(&signature_bytes[..]) else {
				// A signature of another length is refused before it reaches the verifier.
				assert!(
					!expected,
					"tcId {}: a passing signature of the wrong length",
					test["tcId"]
				);
				continue;
			};
			let verified = key.verify_internal_by(engine, &message, &signature);
			assert_eq!(verified, expected, "tcId {} ({})", test["tcId"], test["reason"]);
			// The same verdict without a decoded key (the portable engine makes `Â` a row at
			// a time).
			let verified_once = verify_once_by::<P>(engine, &public, &[&message], &signature);
			assert_eq!(verified_once, expected, "tcId {}, verified once", test["tcId"]);
			if !expected {
				continue;
			}
			passing += 1;
			let mut other_message = message.clone();
			other_message.push(0);
			assert!(!key.verify_internal_by(engine, &other_message, &signature));
			for bit in (0..signature_bytes.len() * 8).step_by(97) {
				let mut flipped = signature_bytes.clone();
				flipped[bit / 8] ^= 1 << (bit % 8);
				let Ok(flipped) = P::EncodedSignature::try_from(&flipped[..]) else {
					unreachable!()
				};
				assert!(
					!key.verify_internal_by(engine, &message, &flipped),
					"tcId {}: bit {bit} flipped still verifies",
					test["tcId"]
				);
				assert!(
					!verify_once_by::<P>(engine, &public, &[&message], &flipped),
					"tcId {}: bit {bit} flipped still verifies once",
					test["tcId"]
				);
			}
		}
	}
	assert_eq!(tests, 15, "{} sigVer vectors", P::NAME);
	assert!(passing > 0, "{}: no passing vector", P::NAME);
}

#[test]
fn acvp_sig_ver_ml_dsa_44() {
	sig_ver::<MlDsa44>(Engine::detect());
	sig_ver::<MlDsa44>(Engine::Portable);
}

#[test]
fn acvp_sig_ver_ml_dsa_65() {
	sig_ver::<MlDsa65>(Engine::detect());
	sig_ver::<MlDsa65>(Engine::Portable);
}

#[test]
fn acvp_sig_ver_ml_dsa_87() {
	sig_ver::<MlDsa87>(Engine::detect());
	sig_ver::<MlDsa87>(Engine::Portable);
}
