//! Aggregate ML-DSA-87 against `N` individual ML-DSA-87 signatures, for `N` signers in
//! {1, 4, 16, 64, 128}, with one ML-DSA-87 and one Ed25519 verification as baselines, all in
//! one run, natively, on the paths of the node's aggregate host function: a committee's matrix
//! expanded on its first signature, then cached with the keys of its signer sets. Individual
//! signatures and the baselines go through the backend behind the host functions
//! ([`NodeBackend`]). `aggregate-report` turns the results into the table of `docs/aggregate.md`.
//!
//! - `aggregate/N/derive`: `pk*` as the pallet derives it (`derive_aggregate_key`): from the
//!   stored sum of all shares and `min(N, 128 − N)` shares, unpacked and added or subtracted,
//!   then `Power2Round` and `pkEncode` (storage reads are not included);
//! - `aggregate/N/cold`: derive + decode (`ExpandA` included) + verify, the committee's first
//!   signature (what the weights charge);
//! - `aggregate/N/fresh`: derive + decode + verify with the committee's matrix cached, a signer
//!   set seen for the first time;
//! - `aggregate/N/repeated`: verification with `pk*` cached, as the other cached baselines (the
//!   chain derives `pk*` first: *derive*);
//! - `individual/N/decode+verify`: `N` members' own ML-DSA-87 signatures, each decoded and
//!   verified.

use criterion::{criterion_group, criterion_main, Criterion};
use pq_crypto::{
	aggregate::SignerBitfield,
	backend::{Backend, Ed25519Verifier, MlDsaVerifier, StrictEd25519},
	cache::{CacheLimits, KeyCache},
	committee::{derive_aggregate_key, PackedShare, ShareSum},
	host::{
		committee_matrix::{AggregateKey, AggregateKeyId, AggregateLookup, CommitteeMatrix},
		node::NodeBackend,
		node_cache::NodeCache,
	},
	params::MlDsa87,
	verify::Signed,
	AccountSignature, AccountSigner, Purpose, Scheme,
};
use pq_signer::{aggregator::Committee, signing::Keypair};
use std::{hint::black_box, sync::Arc, time::Duration};

const MESSAGE: &[u8] = &[0x5a; 128];
const PURPOSE: Purpose = Purpose::Transaction;
/// Signer counts of the report.
const SIGNERS: [u32; 5] = [1, 4, 16, 64, 128];

/// A committee's shares and their stored sum, as the pallet keeps them.
struct Stored {
	rho: [u8; 32],
	shares: Vec<PackedShare>,
	sum: PackedShare,
}

impl Stored {
	fn new(committee: &Committee) -> Self {
		let shares = committee.shares();
		let mut sum = ShareSum::default();
		shares
			.iter()
			.for_each(|share| sum.add(share).expect("generated shares are reduced"));
		Stored { rho: committee.rho(), shares, sum: sum.pack() }
	}

	fn derive(&self, signers: &SignerBitfield) -> pq_crypto::keys::MlDsa87Public {
		derive_aggregate_key(&self.rho, self.shares.len() as u32, &self.sum, signers, |index| {
			self.shares.get(index as usize).cloned()
		})
		.expect("every share is stored")
	}
}

fn baselines(c: &mut Criterion) {
	let ed25519 = Keypair::from_suri(Scheme::Ed25519, "//Bench").expect("dev URI");
	let (AccountSigner::Ed25519(key), AccountSignature::Ed25519(signature)) =
		(ed25519.public(), ed25519.sign(MESSAGE, PURPOSE))
	else {
		unreachable!("an Ed25519 keypair signs Ed25519")
	};
	c.bench_function("ed25519/dalek/decode+verify", |b| {
		b.iter(|| {
			StrictEd25519::verify(
				black_box(&key),
				PURPOSE.ed25519_prefix(),
				black_box(MESSAGE),
				black_box(&signature),
			)
		})
	});

	let ml_dsa = Keypair::from_suri(Scheme::MlDsa87, "//Bench").expect("dev URI");
	let (signer, signature) = (ml_dsa.public(), ml_dsa.sign(MESSAGE, PURPOSE));
	let (AccountSigner::MlDsa87(key), AccountSignature::MlDsa87(raw)) = (&signer, &signature)
	else {
		unreachable!("an ML-DSA-87 keypair signs ML-DSA-87")
	};
	c.bench_function(&format!("ml-dsa-87/{}/decode+verify", NodeBackend::NAME), |b| {
		b.iter(|| {
			<NodeBackend as MlDsaVerifier<MlDsa87>>::verify(
				black_box(key),
				black_box(MESSAGE),
				PURPOSE.context(),
				black_box(raw),
			)
		})
	});
	let mut cache = KeyCache::<NodeBackend>::new(CacheLimits::default());
	cache.verify(&signer, &signature, MESSAGE, PURPOSE).expect("valid signature");
	c.bench_function(&format!("ml-dsa-87/{}/cache-hit", NodeBackend::NAME), |b| {
		b.iter(|| {
			cache.verify(black_box(&signer), black_box(&signature), black_box(MESSAGE), PURPOSE)
		})
	});
	c.bench_function("ml-dsa-87/committee-verifier/expand-matrix", |b| {
		b.iter(|| CommitteeMatrix::expand::<MlDsa87>(black_box(&[0xa6; 32])))
	});
}

/// A node cache holding the committee's matrix, through the decoded key of another signer set
/// (its last member alone), and the decoded key of `signers` if given.
fn committee_cache(
	committee: &Committee,
	stored: &Stored,
	signers: Option<&SignerBitfield>,
) -> NodeCache<NodeBackend> {
	let mut cache = NodeCache::new(CacheLimits { max_entries: 1024, max_bytes: 64 << 20 });
	let matrix = Arc::new(CommitteeMatrix::expand::<MlDsa87>(&stored.rho));
	let other = committee.signers([committee.size() - 1]).expect("a member");
	for signers in [Some(&other), signers].into_iter().flatten() {
		let public = stored.derive(signers);
		let key = AggregateKey::decode_with(matrix.clone(), public.as_bytes())
			.expect("the matrix of the key's ρ");
		cache.insert_aggregate(&AggregateKeyId::of(&public), Arc::new(key));
	}
	cache
}

fn aggregate(c: &mut Criterion, committee: &Committee, stored: &Stored, count: u32) {
	let signers: SignerBitfield = committee.signers(0..count).expect("members");
	let aggregate = committee.sign(&signers, MESSAGE, PURPOSE).expect("aggregate signing");
	c.bench_function(&format!("aggregate/{count}/derive"), |b| {
		b.iter(|| stored.derive(black_box(&signers)))
	});
	c.bench_function(&format!("aggregate/{count}/cold"), |b| {
		b.iter(|| {
			let key = stored.derive(black_box(&signers));
			assert!(aggregate.verify::<NodeBackend>(&key, black_box(MESSAGE), PURPOSE));
		})
	});
	let mut fresh = committee_cache(committee, stored, None);
	c.bench_function(&format!("aggregate/{count}/fresh"), |b| {
		b.iter(|| {
			let public = stored.derive(black_box(&signers));
			let AggregateLookup::Uncached(Some(matrix)) =
				fresh.lookup_aggregate(&AggregateKeyId::of(&public))
			else {
				unreachable!("the matrix is cached, keys never are")
			};
			let key = AggregateKey::decode_with(matrix, public.as_bytes())
				.expect("the matrix of the key's ρ");
			assert!(Signed::ForPurpose(black_box(MESSAGE), PURPOSE)
				.verify_with(&key, &aggregate.signature));
		})
	});
	let aggregate_key = stored.derive(&signers);
	let mut repeated = committee_cache(committee, stored, Some(&signers));
	c.bench_function(&format!("aggregate/{count}/repeated"), |b| {
		b.iter(|| {
			let id = AggregateKeyId::of(black_box(&aggregate_key));
			let AggregateLookup::Cached(key) = repeated.lookup_aggregate(&id) else {
				unreachable!("pk* is cached")
			};
			assert!(Signed::ForPurpose(black_box(MESSAGE), PURPOSE)
				.verify_with(&key, &aggregate.signature));
		})
	});
}

fn individual(c: &mut Criterion, members: &[(AccountSigner, AccountSignature)], count: u32) {
	let pairs: Vec<_> = members[..count as usize]
		.iter()
		.map(|pair| match pair {
			(AccountSigner::MlDsa87(key), AccountSignature::MlDsa87(signature)) => (key, signature),
			_ => unreachable!("ML-DSA-87 keypairs sign ML-DSA-87"),
		})
		.collect();
	c.bench_function(&format!("individual/{count}/decode+verify"), |b| {
		b.iter(|| {
			for (key, signature) in &pairs {
				assert!(<NodeBackend as MlDsaVerifier<MlDsa87>>::verify(
					key,
					black_box(MESSAGE),
					PURPOSE.context(),
					signature
				));
			}
		})
	});
}

fn all(c: &mut Criterion) {
	baselines(c);
	let committee = Committee::from_seed(&[0xa6; 32], 128, 1);
	let stored = Stored::new(&committee);
	let members: Vec<(AccountSigner, AccountSignature)> = (0..128u8)
		.map(|index| {
			let keypair =
				Keypair::from_seed(Scheme::MlDsa87, &[index; 32]).expect("ML-DSA-87 from a seed");
			(keypair.public(), keypair.sign(MESSAGE, PURPOSE))
		})
		.collect();
	for count in SIGNERS {
		aggregate(c, &committee, &stored, count);
		individual(c, &members, count);
	}
}

criterion_group! {
	name = benches;
	config = Criterion::default()
		.warm_up_time(Duration::from_secs(1))
		.measurement_time(Duration::from_secs(3))
		.sample_size(20);
	targets = all
}
criterion_main!(benches);
