//! Every scheme and backend, step by step: decode, verify with a decoded key, decode+verify,
//! and verify through the decoded-key cache; Ed25519 (`ed25519-dalek`) measured alongside as
//! the baseline. Then the paths a runtime takes: the host functions' native side (`host`),
//! Substrate's stock Ed25519 host function (`sp-io`), and both pq-runtime Wasm blobs executed
//! by the node's executor (`wasm:native` calls the host functions, `wasm:pure` verifies in Wasm
//! with our verifier; `wasm:libcrux`, libcrux in Wasm, when built with `PQ_PURE_WASM_LIBCRUX`
//! set), one verification per runtime call and, for the pure-Wasm blobs, 32 in one call as a
//! block is imported (`…:block`). `bench-report` turns the results into the table of
//! `docs/benchmarks.md`.

use criterion::{criterion_group, criterion_main, Criterion};
use pq_benchmarks::wasm_runtime::{checks_by_distinct_keys, refused_checks, WasmRuntime};
use pq_crypto::{
	aggregate::CommitteeId,
	backend::{
		Backend, Ed25519Verifier, Fips204, Libcrux, MlDsaVerifier, RustCrypto, StrictEd25519,
	},
	cache::{CacheLimits, KeyCache},
	host::{node, Host},
	message::ed25519_message,
	params::{MlDsa44, MlDsa65, MlDsa87, MlDsaParams},
	AccountSignature, AccountSigner, Domain, Purpose, Scheme,
};
use pq_signer::signing::Keypair;
use std::{
	hint::black_box,
	time::{Duration, Instant},
};

/// A transfer-sized payload.
const MESSAGE: &[u8] = &[0x5a; 128];
const PURPOSE: Purpose = Purpose::Transaction;

fn signed(scheme: Scheme) -> (AccountSigner, AccountSignature) {
	let keypair = Keypair::from_suri(scheme, "//Bench").expect("dev URI");
	(keypair.public(), keypair.sign(MESSAGE, PURPOSE))
}

fn cache_hit<B: Backend>(c: &mut Criterion, scheme: Scheme) {
	let (signer, signature) = signed(scheme);
	// Decoded to keep at its first signature (a runtime's cache may only mark it then).
	let mut cache = KeyCache::<B>::decoding_every_key(CacheLimits::default());
	cache.verify(&signer, &signature, MESSAGE, PURPOSE).expect("valid signature");
	c.bench_function(&format!("{}/{}/cache-hit", scheme.name(), B::NAME), |b| {
		b.iter(|| {
			cache.verify(black_box(&signer), black_box(&signature), black_box(MESSAGE), PURPOSE)
		})
	});
}

fn ml_dsa<P: MlDsaParams, B: Backend + MlDsaVerifier<P>>(
	c: &mut Criterion,
	extract: fn(AccountSigner, AccountSignature) -> (P::Public, P::Signature),
) {
	let (key, signature) = {
		let (signer, signature) = signed(P::SCHEME);
		extract(signer, signature)
	};
	let context = PURPOSE.context();
	let name = |step: &str| format!("{}/{}/{step}", P::SCHEME.name(), B::NAME);
	c.bench_function(&name("decode"), |b| {
		b.iter(|| <B as MlDsaVerifier<P>>::decode_key(black_box(&key)))
	});
	let decoded = <B as MlDsaVerifier<P>>::decode_key(&key);
	c.bench_function(&name("verify-decoded"), |b| {
		b.iter(|| {
			<B as MlDsaVerifier<P>>::verify_decoded(
				black_box(&decoded),
				black_box(MESSAGE),
				context,
				black_box(&signature),
			)
		})
	});
	c.bench_function(&name("decode+verify"), |b| {
		b.iter(|| {
			<B as MlDsaVerifier<P>>::verify(
				black_box(&key),
				black_box(MESSAGE),
				context,
				black_box(&signature),
			)
		})
	});
	cache_hit::<B>(c, P::SCHEME);
}

macro_rules! extractor {
	($variant:ident) => {
		|signer, signature| match (signer, signature) {
			(AccountSigner::$variant(key), AccountSignature::$variant(signature)) => {
				(key, signature)
			},
			_ => unreachable!("signed() returns matching schemes"),
		}
	};
}

fn ml_dsa_backend<B: Backend>(c: &mut Criterion) {
	ml_dsa::<MlDsa44, B>(c, extractor!(MlDsa44));
	ml_dsa::<MlDsa65, B>(c, extractor!(MlDsa65));
	ml_dsa::<MlDsa87, B>(c, extractor!(MlDsa87));
}

fn ed25519(c: &mut Criterion) {
	let (AccountSigner::Ed25519(key), AccountSignature::Ed25519(signature)) =
		signed(Scheme::Ed25519)
	else {
		unreachable!("signed() returns matching schemes")
	};
	let name = |step: &str| format!("ed25519/dalek/{step}");
	c.bench_function(&name("decode"), |b| b.iter(|| StrictEd25519::decode_key(black_box(&key))));
	let decoded = StrictEd25519::decode_key(&key).expect("valid key");
	c.bench_function(&name("verify-decoded"), |b| {
		b.iter(|| {
			StrictEd25519::verify_decoded(
				black_box(&decoded),
				b"",
				black_box(MESSAGE),
				black_box(&signature),
			)
		})
	});
	c.bench_function(&name("decode+verify"), |b| {
		b.iter(|| {
			StrictEd25519::verify(black_box(&key), b"", black_box(MESSAGE), black_box(&signature))
		})
	});
	// Every backend runs Ed25519 through `StrictEd25519`; the cache is measured through one of them.
	cache_hit::<Libcrux>(c, Scheme::Ed25519);
}

/// Every scheme through the [`Host`] backend in this process: the host functions' bodies,
/// as the node runs them. decode+verify without the node's cache, then with every key cached.
fn host_backend(c: &mut Criterion) {
	let signed: Vec<_> =
		Scheme::SINGLE_KEY.into_iter().map(|scheme| (scheme, signed(scheme))).collect();
	for (step, limits) in [
		("decode+verify", CacheLimits { max_entries: 0, max_bytes: 0 }),
		("cache-hit", node::DEFAULT_LIMITS),
	] {
		node::configure(limits);
		for (scheme, (signer, signature)) in &signed {
			c.bench_function(&format!("{}/{}/{step}", scheme.name(), Host::NAME), |b| {
				b.iter(|| signature.verify::<Host>(black_box(signer), black_box(MESSAGE), PURPOSE))
			});
		}
	}
}

/// Substrate's stock Ed25519 host function (`sp_io::crypto::ed25519_verify`), natively.
fn stock_ed25519(c: &mut Criterion) {
	use polkadot_sdk::sp_core::ed25519;
	let (AccountSigner::Ed25519(key), AccountSignature::Ed25519(signature)) =
		signed(Scheme::Ed25519)
	else {
		unreachable!("signed() returns matching schemes")
	};
	let (key, signature) =
		(ed25519::Public::from_raw(key.0), ed25519::Signature::from_raw(signature.0));
	// The bytes the signature signs, as the verifier builds them (for a transaction, the
	// message itself: its purpose has no prefix), checked to verify before they are timed.
	let signed_bytes = ed25519_message(PURPOSE.ed25519_prefix(), MESSAGE);
	let verify = || {
		polkadot_sdk::sp_io::crypto::ed25519_verify(
			black_box(&signature),
			black_box(signed_bytes.as_ref()),
			black_box(&key),
		)
	};
	assert!(verify(), "the stock host function refuses the benchmark's signature");
	c.bench_function("ed25519/sp-io/decode+verify", |b| b.iter(verify));
}

/// Every scheme verified by each pq-runtime Wasm blob (`PqVerifierApi_verify_signature`), and
/// the same call refused before any verification (`runtime-call/…/overhead`), which
/// `bench-report` subtracts. The host-function blob is measured without and with the node's
/// cache, like [`host_backend`]; the pure-Wasm blobs also inside one instance ([`in_one_call`]).
fn wasm(c: &mut Criterion) {
	let blob = |blob: Option<&'static [u8]>| blob.expect("pq-runtime built with its Wasm blobs");
	let runtimes = [
		("wasm:native", WasmRuntime::new(blob(pq_runtime::WASM_BINARY))),
		("wasm:pure", WasmRuntime::new(blob(pq_runtime::pure_wasm::WASM_BINARY))),
	];
	// Built only with PQ_PURE_WASM_LIBCRUX set (runtime/build.rs).
	let libcrux = pq_runtime::pure_wasm_libcrux::WASM_BINARY
		.map(|blob| ("wasm:libcrux", WasmRuntime::new(blob)));
	let runtimes: Vec<_> = runtimes.into_iter().chain(libcrux).collect();
	let domain = Domain::Purpose(PURPOSE);
	// A committee signer needs the committee's key, which no backend decodes from the signer:
	// refused before any backend decodes or verifies anything.
	let committee = AccountSigner::AggregateMlDsa87(CommitteeId([7; 32]));
	let (_, ml_dsa_44) = signed(Scheme::MlDsa44);
	for (name, runtime) in &runtimes {
		node::configure(CacheLimits { max_entries: 0, max_bytes: 0 });
		c.bench_function(&format!("runtime-call/{name}/overhead"), |b| {
			b.iter(|| {
				runtime.verify_signature(
					black_box(&committee),
					black_box(&ml_dsa_44),
					MESSAGE,
					&domain,
				)
			})
		});
		let steps: &[(&str, CacheLimits)] = if *name == "wasm:native" {
			&[
				("decode+verify", CacheLimits { max_entries: 0, max_bytes: 0 }),
				("cache-hit", node::DEFAULT_LIMITS),
			]
		} else {
			&[("decode+verify", CacheLimits { max_entries: 0, max_bytes: 0 })]
		};
		for (step, limits) in steps {
			node::configure(*limits);
			for scheme in Scheme::SINGLE_KEY {
				let (signer, signature) = signed(scheme);
				assert_eq!(
					runtime.verify_signature(&signer, &signature, MESSAGE, &domain),
					Ok(Ok(()))
				);
				c.bench_function(&format!("{}/{name}/{step}", scheme.name()), |b| {
					b.iter(|| {
						runtime.verify_signature(
							black_box(&signer),
							black_box(&signature),
							MESSAGE,
							&domain,
						)
					})
				});
			}
		}
		if *name != "wasm:native" {
			in_one_call(c, name, runtime);
		}
	}
}

/// Verifications per runtime call in [`in_one_call`].
const PER_CALL: u32 = 32;

/// A pure-Wasm blob verifying [`PER_CALL`] signatures in one runtime call
/// (`PqVerifierApi_verify_signatures`), as block import does in one instance, timed per
/// verification as `<scheme>/<blob>:block/…`: `decode+verify` by as many keys (each decoded),
/// `cache-hit` by one key (decoded by the first, found in the in-call cache by the other 31).
/// `runtime-call/<blob>:block/overhead` is the same call with every check refused before any
/// verification, per check.
fn in_one_call(c: &mut Criterion, name: &str, runtime: &WasmRuntime) {
	let (_, ml_dsa_44) = signed(Scheme::MlDsa44);
	let refused = refused_checks(ml_dsa_44, PER_CALL, MESSAGE, PURPOSE);
	c.bench_function(
		&format!("runtime-call/{name}:block/overhead"),
		per_verification(runtime, &refused),
	);
	for scheme in Scheme::SINGLE_KEY {
		let distinct = checks_by_distinct_keys(scheme, PER_CALL, MESSAGE, PURPOSE);
		let (signer, signature) = signed(scheme);
		let repeated = vec![(signer, signature, MESSAGE.to_vec(), PURPOSE); PER_CALL as usize];
		for (step, checks) in [("decode+verify", &distinct), ("cache-hit", &repeated)] {
			let verdicts = runtime.verify_signatures(checks).expect("the runtime call succeeds");
			assert!(verdicts.iter().all(Result::is_ok), "{name}: {verdicts:?}");
			c.bench_function(
				&format!("{}/{name}:block/{step}", scheme.name()),
				per_verification(runtime, checks),
			);
		}
	}
}

/// A benchmark timing `runtime`'s verification of `checks` in one call, per check.
fn per_verification<'a>(
	runtime: &'a WasmRuntime,
	checks: &'a [(AccountSigner, AccountSignature, Vec<u8>, Purpose)],
) -> impl FnMut(&mut criterion::Bencher) + 'a {
	move |b| {
		b.iter_custom(|iterations| {
			let start = Instant::now();
			for _ in 0..iterations {
				black_box(
					runtime
						.verify_signatures(black_box(checks))
						.expect("the runtime call succeeds"),
				);
			}
			start.elapsed() / PER_CALL
		})
	}
}

/// Criterion measures one benchmark after another and a shared VM drifts during a run, so the
/// rows compared with each other most are measured next to each other: the Ed25519 baselines,
/// then the paths a runtime takes, then the backends.
fn all(c: &mut Criterion) {
	eprintln!("libcrux AVX2 engaged: {}", Libcrux::simd_engaged());
	ed25519(c);
	stock_ed25519(c);
	host_backend(c);
	wasm(c);
	ml_dsa_backend::<Libcrux>(c);
	ml_dsa_backend::<Fips204>(c);
	ml_dsa_backend::<RustCrypto>(c);
}

criterion_group! {
	name = benches;
	config = Criterion::default()
		.warm_up_time(Duration::from_secs(1))
		.measurement_time(Duration::from_secs(3))
		.sample_size(50);
	targets = all
}
criterion_main!(benches);
