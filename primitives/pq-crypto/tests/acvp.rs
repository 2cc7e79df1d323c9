//! NIST ACVP ML-DSA vectors (FIPS 204 internal interface) against every backend.
//!
//! Provenance: ACVP-Server commit 65370b8,
//! `gen-val/json-files/ML-DSA-{keyGen,sigGen,sigVer}-FIPS204/internalProjection.json`, kept in
//! `../shared/vectors/acvp-ml-dsa/` beside the repository (see the README there).
//!
//! Test names read `<vector source>::<level>::<backend>`.

mod common;

use common::{acvp, acvp_tests, hex_field, PortableEngine};
use pq_crypto::{
	backend::{Fips204, Libcrux, MlDsaVerifier, RustCrypto},
	host::Host,
	params::{MlDsa44, MlDsa65, MlDsa87, MlDsaParams, ParameterSet},
	AccountSigner,
};
use pq_signer::signing::Keypair;

/// The verifying key encoded inside an expanded ACVP signing key, recomputed by `ml-dsa`.
fn public_of_expanded<P: ml_dsa::MlDsaParams>(sk: &[u8]) -> Vec<u8> {
	#[allow(deprecated)] // The ACVP files carry expanded keys; this is the only way to load one.
	let key = ml_dsa::ExpandedSigningKey::<P>::from_expanded(sk.try_into().expect("sk length"));
	key.verifying_key().encode().to_vec()
}

macro_rules! acvp_suite {
	($level:ident, $variant:ident, $params:ty, $theirs:ty, $libcrux:ident, $signing_key:ident) => {
		mod $level {
			use super::*;

			fn public(bytes: &[u8]) -> <$params as MlDsaParams>::Public {
				<$params as MlDsaParams>::Public::from_slice(bytes).expect("public key length")
			}

			fn signature(bytes: &[u8]) -> <$params as MlDsaParams>::Signature {
				<$params as MlDsaParams>::Signature::from_slice(bytes).expect("signature length")
			}

			/// sigVer: `Verify_internal(pk, M′, σ)` must equal `testPassed`.
			pub(super) fn sig_ver<B: MlDsaVerifier<$params>>() {
				let file = acvp("sig-ver.json");
				let tests = acvp_tests(&file, <$params>::NAME);
				assert_eq!(tests.len(), 15);
				for (group, test) in tests {
					let key = B::decode_key(&public(&hex_field(group, "pk")));
					let expected = test["testPassed"].as_bool().unwrap();
					let sig = signature(&hex_field(test, "signature"));
					let verified = B::verify_internal(&key, &hex_field(test, "message"), &sig);
					assert_eq!(verified, expected, "tcId {} ({})", test["tcId"], test["reason"]);
				}
			}

			/// sigGen: the expected signature verifies under the key of the expanded `sk`, and
			/// a tampered message does not.
			pub(super) fn sig_gen_verifies<B: MlDsaVerifier<$params>>() {
				let file = acvp("sig-gen.json");
				let tests = acvp_tests(&file, <$params>::NAME);
				assert_eq!(tests.len(), 20);
				for (_, test) in tests {
					let key = B::decode_key(&public(&public_of_expanded::<$theirs>(&hex_field(
						test, "sk",
					))));
					let sig = signature(&hex_field(test, "signature"));
					let mut message = hex_field(test, "message");
					assert!(B::verify_internal(&key, &message, &sig), "tcId {}", test["tcId"]);
					message.push(0);
					assert!(
						!B::verify_internal(&key, &message, &sig),
						"tcId {} tampered",
						test["tcId"]
					);
				}
			}

			/// `rnd` of a sigGen test: given for hedged groups, zero for deterministic ones.
			fn rnd(group: &serde_json::Value, test: &serde_json::Value) -> [u8; 32] {
				if group["deterministic"].as_bool().unwrap() {
					[0u8; 32]
				} else {
					hex_field(test, "rnd").try_into().unwrap()
				}
			}

			mod rustcrypto {
				use super::*;

				#[test]
				fn acvp_sig_ver() {
					sig_ver::<RustCrypto>();
				}

				#[test]
				fn acvp_sig_gen() {
					sig_gen_verifies::<RustCrypto>();
					let file = acvp("sig-gen.json");
					for (group, test) in acvp_tests(&file, <$params>::NAME) {
						#[allow(deprecated)]
						let key = ml_dsa::ExpandedSigningKey::<$theirs>::from_expanded(
							hex_field(test, "sk").as_slice().try_into().unwrap(),
						);
						let message = hex_field(test, "message");
						let produced = key.sign_internal(&[&message], &rnd(group, test).into());
						assert_eq!(
							produced.encode().to_vec(),
							hex_field(test, "signature"),
							"tcId {}",
							test["tcId"]
						);
					}
				}

				/// keyGen: `KeyGen_internal(ξ)` of the signing side gives the expected `pk`,
				/// which this backend decodes and verifies with.
				#[test]
				fn acvp_key_gen() {
					let file = acvp("key-gen.json");
					let tests = acvp_tests(&file, <$params>::NAME);
					assert_eq!(tests.len(), 25);
					for (_, test) in tests {
						let seed: [u8; 32] = hex_field(test, "seed").try_into().unwrap();
						let keypair = Keypair::from_seed(<$params>::SCHEME, &seed).unwrap();
						let AccountSigner::$variant(key) = keypair.public() else { unreachable!() };
						assert_eq!(key.0.to_vec(), hex_field(test, "pk"), "tcId {}", test["tcId"]);
						let signed =
							keypair.sign(b"key-gen check", pq_crypto::Purpose::Transaction);
						assert!(signed
							.verify::<RustCrypto>(
								&keypair.public(),
								b"key-gen check",
								pq_crypto::Purpose::Transaction
							)
							.is_ok());
					}
				}
			}

			/// Through the host functions (called directly in a native build), with the
			/// node's decoded-key cache in front of them.
			mod host {
				use super::*;

				#[test]
				fn acvp_sig_ver() {
					sig_ver::<Host>();
				}

				#[test]
				fn acvp_sig_gen() {
					sig_gen_verifies::<Host>();
				}
			}

			/// The project's own verifier (the `fips204` crate), which also checks every
			/// aggregate signature.
			mod fips204 {
				use super::*;

				#[test]
				fn acvp_sig_ver() {
					sig_ver::<Fips204>();
				}

				#[test]
				fn acvp_sig_gen() {
					sig_gen_verifies::<Fips204>();
				}

				/// Its portable engine, which a Wasm runtime runs.
				#[test]
				fn acvp_portable_engine() {
					sig_ver::<PortableEngine>();
					sig_gen_verifies::<PortableEngine>();
				}
			}

			mod libcrux {
				use super::*;
				use libcrux_ml_dsa::$libcrux as lib;

				#[test]
				fn acvp_sig_ver() {
					sig_ver::<Libcrux>();
				}

				#[test]
				fn acvp_sig_gen() {
					sig_gen_verifies::<Libcrux>();
					let file = acvp("sig-gen.json");
					for (group, test) in acvp_tests(&file, <$params>::NAME) {
						let key = lib::$signing_key::new(hex_field(test, "sk").try_into().unwrap());
						let produced =
							lib::sign_internal(&key, &hex_field(test, "message"), rnd(group, test))
								.unwrap();
						assert_eq!(
							produced.as_ref().to_vec(),
							hex_field(test, "signature"),
							"tcId {}",
							test["tcId"]
						);
					}
				}

				/// keyGen: libcrux's `KeyGen_internal(ξ)` gives the expected `pk` and `sk`.
				#[test]
				fn acvp_key_gen() {
					let file = acvp("key-gen.json");
					let tests = acvp_tests(&file, <$params>::NAME);
					assert_eq!(tests.len(), 25);
					for (_, test) in tests {
						let seed: [u8; 32] = hex_field(test, "seed").try_into().unwrap();
						let pair = lib::generate_key_pair(seed);
						assert_eq!(
							pair.verification_key.as_ref().to_vec(),
							hex_field(test, "pk"),
							"tcId {}",
							test["tcId"]
						);
						assert_eq!(
							pair.signing_key.as_ref().to_vec(),
							hex_field(test, "sk"),
							"tcId {}",
							test["tcId"]
						);
					}
				}
			}
		}
	};
}

acvp_suite!(ml_dsa_44, MlDsa44, MlDsa44, ml_dsa::MlDsa44, ml_dsa_44, MLDSA44SigningKey);
acvp_suite!(ml_dsa_65, MlDsa65, MlDsa65, ml_dsa::MlDsa65, ml_dsa_65, MLDSA65SigningKey);
acvp_suite!(ml_dsa_87, MlDsa87, MlDsa87, ml_dsa::MlDsa87, ml_dsa_87, MLDSA87SigningKey);
