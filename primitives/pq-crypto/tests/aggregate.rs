//! Aggregate ML-DSA-87: signatures of committees of 1 to 128 signers are ordinary FIPS 204
//! signatures under the derived `pk*`, accepted by every backend; anything else is refused.

mod common;

use common::chain_key;
use polkadot_sdk::sp_runtime::AccountId32;
use pq_crypto::{
	aggregate::{CommitteeId, SignerBitfield},
	backend::{Backend, Fips204, Libcrux, MlDsaVerifier, RustCrypto},
	cache::{CacheLimits, CacheStats, KeyCache},
	committee::{derive_aggregate_key, verify_membership, PackedShare, ShareError, ShareSum},
	host::committee_matrix::{AggregateKey, AggregateKeyId, AggregateLookup, CommitteeMatrix},
	host::node_cache::NodeCache,
	host::Host,
	params::MlDsa87,
	statement::MembershipStatement,
	verify::Signed,
	AggregateSignature, Purpose,
};
use pq_signer::aggregator::Committee;
use std::sync::{Arc, OnceLock};

const MESSAGE: &[u8] = b"transfer 10 from the committee";

fn verifies_with<B: MlDsaVerifier<MlDsa87>>(
	committee: &Committee,
	aggregate: &AggregateSignature,
	message: &[u8],
) -> bool {
	aggregate.verify::<B>(&chain_key(committee, &aggregate.signers), message, Purpose::Transaction)
}

/// `σ*` under the chain's `pk*` with the committee verifier and a matrix expanded for it.
fn committee_verifier_accepts(
	committee: &Committee,
	aggregate: &AggregateSignature,
	message: &[u8],
) -> bool {
	let key = chain_key(committee, &aggregate.signers);
	let matrix = Arc::new(CommitteeMatrix::expand::<MlDsa87>(&committee.rho()));
	let key = AggregateKey::decode_with(matrix, key.as_bytes()).expect("the committee's own ρ");
	Signed::ForPurpose(message, Purpose::Transaction).verify_with(&key, &aggregate.signature)
}

/// `σ*` through a backend's aggregate path (for `Host`, the node's committee cache).
fn backend_accepts<B: Backend>(
	committee: &Committee,
	aggregate: &AggregateSignature,
	message: &[u8],
) -> bool {
	let mut cache = KeyCache::<B>::new(CacheLimits::default());
	let key = chain_key(committee, &aggregate.signers);
	cache
		.verify_aggregate(
			aggregate.signer_set(),
			&key,
			message,
			Purpose::Transaction,
			&aggregate.signature,
		)
		.is_ok()
}

/// The verdicts of the three backends' standard verifiers, of the committee verifier, and of
/// the node's aggregate host function.
fn verifies_everywhere(
	committee: &Committee,
	aggregate: &AggregateSignature,
	message: &[u8],
) -> [bool; 5] {
	[
		verifies_with::<RustCrypto>(committee, aggregate, message),
		verifies_with::<Libcrux>(committee, aggregate, message),
		verifies_with::<Host>(committee, aggregate, message),
		committee_verifier_accepts(committee, aggregate, message),
		backend_accepts::<Host>(committee, aggregate, message),
	]
}

fn committee(size: u32) -> Committee {
	Committee::from_seed(&[size as u8; 32], size, 1)
}

/// One 128-member committee shared by the tests that need a big one.
fn large() -> &'static Committee {
	static LARGE: OnceLock<Committee> = OnceLock::new();
	LARGE.get_or_init(|| committee(128))
}

fn sign(committee: &Committee, members: impl IntoIterator<Item = u32>) -> AggregateSignature {
	let signers = committee.signers(members).unwrap();
	committee
		.sign_with_randomness(&signers, MESSAGE, Purpose::Transaction, [7; 32])
		.unwrap()
}

#[test]
fn every_committee_size_verifies_with_every_backend() {
	for size in [1, 2, 4, 16, 64] {
		let committee = committee(size);
		let aggregate = sign(&committee, 0..size);
		assert_eq!(
			verifies_everywhere(&committee, &aggregate, MESSAGE),
			[true; 5],
			"{size} signers"
		);
	}
	let aggregate = sign(large(), 0..128);
	assert_eq!(verifies_everywhere(large(), &aggregate, MESSAGE), [true; 5], "128 signers");
}

#[test]
fn partial_signer_sets_of_a_large_committee_verify() {
	for members in
		[vec![5], vec![0, 127], (0..128).step_by(3).collect(), (1..128).collect::<Vec<_>>()]
	{
		let aggregate = sign(large(), members.iter().copied());
		assert_eq!(
			verifies_everywhere(large(), &aggregate, MESSAGE),
			[true; 5],
			"{} signers",
			members.len()
		);
	}
}

#[test]
fn the_aggregate_is_one_standard_signature_whatever_the_signer_count() {
	let aggregate = sign(large(), 0..128);
	assert_eq!(codec::Encode::encoded_size(&aggregate), 32 + 1 + 16 + 4627);
	assert_eq!(aggregate.committee, large().id());
	// The aggregator's own pk* is the chain's.
	assert_eq!(large().aggregate_key(&aggregate.signers), chain_key(large(), &aggregate.signers));
}

#[test]
fn a_wrong_signer_bitfield_fails() {
	let mut aggregate = sign(large(), 0..10);
	aggregate.signers = large().signers((0..9).chain([10])).unwrap();
	assert_eq!(verifies_everywhere(large(), &aggregate, MESSAGE), [false; 5]);
}

#[test]
fn a_missing_member_fails() {
	let mut aggregate = sign(large(), 0..10);
	aggregate.signers = large().signers(0..9).unwrap();
	assert_eq!(verifies_everywhere(large(), &aggregate, MESSAGE), [false; 5]);
}

#[test]
fn an_extra_member_fails() {
	let mut aggregate = sign(large(), 0..10);
	aggregate.signers = large().signers(0..11).unwrap();
	assert_eq!(verifies_everywhere(large(), &aggregate, MESSAGE), [false; 5]);
}

#[test]
fn a_tampered_message_fails() {
	let aggregate = sign(large(), 0..10);
	assert_eq!(
		verifies_everywhere(large(), &aggregate, b"transfer 11 from the committee"),
		[false; 5]
	);
}

#[test]
fn another_purpose_fails() {
	let aggregate = sign(large(), 0..10);
	let key = chain_key(large(), &aggregate.signers);
	assert!(!aggregate.verify::<Libcrux>(&key, MESSAGE, Purpose::TransactionCommittee));
}

#[test]
fn a_committee_matrix_serves_all_its_signer_sets() {
	let (first, second) = (sign(large(), 0..10), sign(large(), 0..11));
	let (first_key, second_key) =
		(chain_key(large(), &first.signers), chain_key(large(), &second.signers));
	let mut cache =
		NodeCache::<Fips204>::new(CacheLimits { max_entries: 1024, max_bytes: 16 << 20 });
	let signed = Signed::ForPurpose(MESSAGE, Purpose::Transaction);
	for (key, aggregate) in
		[(&first_key, &first), (&second_key, &second), (&first_key, &first), (&second_key, &second)]
	{
		let id = AggregateKeyId::of(key);
		match cache.lookup_aggregate(&id) {
			AggregateLookup::Cached(cached) => {
				assert!(signed.verify_with(&cached, &aggregate.signature))
			},
			AggregateLookup::Uncached(matrix) => {
				let matrix = matrix.unwrap_or_else(|| {
					Arc::new(CommitteeMatrix::expand::<MlDsa87>(&large().rho()))
				});
				let decoded = AggregateKey::decode_with(matrix, key.as_bytes()).unwrap();
				assert!(signed.verify_with(&decoded, &aggregate.signature));
				cache.insert_aggregate(&id, Arc::new(decoded));
			},
		}
	}
	let stats = cache.stats();
	assert_eq!(stats.aggregate_keys, CacheStats { hits: 2, misses: 2, evictions: 0 });
	assert_eq!(
		stats.matrices,
		CacheStats { hits: 1, misses: 1, evictions: 0 },
		"one matrix for both sets"
	);
	let occupancy = cache.occupancy();
	assert_eq!((occupancy.matrices, occupancy.aggregate_keys), (1, 2));
	// A cached key refuses what an uncached one refuses.
	let AggregateLookup::Cached(cached) = cache.lookup_aggregate(&AggregateKeyId::of(&first_key))
	else {
		panic!("the key is cached")
	};
	assert!(!Signed::ForPurpose(b"another message", Purpose::Transaction)
		.verify_with(&cached, &first.signature));
	assert!(!signed.verify_with(&cached, &second.signature));

	// A budget too small for the matrix holds neither it nor its keys.
	let mut small =
		NodeCache::<Fips204>::new(CacheLimits { max_entries: 1024, max_bytes: 32 << 10 });
	let decoded = AggregateKey::decode_with(
		Arc::new(CommitteeMatrix::expand::<MlDsa87>(&large().rho())),
		first_key.as_bytes(),
	)
	.unwrap();
	small.insert_aggregate(&AggregateKeyId::of(&first_key), Arc::new(decoded));
	assert_eq!(small.occupancy(), Default::default(), "a 32 KiB budget holds no 57 KiB matrix");
}

/// A cached aggregate key always has its matrix cached, counted once: evicting the matrix
/// evicts its keys, so the bytes counted are the bytes held.
#[test]
fn evicting_a_committee_matrix_evicts_its_keys() {
	let sets: Vec<_> = (8..12).map(|signers| sign(large(), 0..signers)).collect();
	let entry = |bytes: usize| bytes + pq_crypto::host::node_cache::ENTRY_OVERHEAD;
	// Room for one matrix and its four keys, not one byte more.
	let budget = entry(CommitteeMatrix::bytes::<MlDsa87>()) + 4 * entry(AggregateKey::BYTES);
	let mut cache = NodeCache::<Fips204>::new(CacheLimits { max_entries: 1024, max_bytes: budget });
	let matrix = Arc::new(CommitteeMatrix::expand::<MlDsa87>(&large().rho()));
	for aggregate in &sets {
		let key = chain_key(large(), &aggregate.signers);
		cache.insert_aggregate(
			&AggregateKeyId::of(&key),
			Arc::new(AggregateKey::decode_with(matrix.clone(), key.as_bytes()).unwrap()),
		);
	}
	let occupancy = cache.occupancy();
	assert_eq!((occupancy.matrices, occupancy.aggregate_keys, occupancy.bytes), (1, 4, budget));

	// Another committee's matrix and key do not fit beside them: the oldest entry, the first
	// committee's matrix, goes, and its keys with it.
	let other = Committee::from_seed(&[0x0f; 32], 4, 1);
	let other_aggregate = sign(&other, 0..2);
	let other_key = chain_key(&other, &other_aggregate.signers);
	let other_matrix = Arc::new(CommitteeMatrix::expand::<MlDsa87>(&other.rho()));
	cache.insert_aggregate(
		&AggregateKeyId::of(&other_key),
		Arc::new(AggregateKey::decode_with(other_matrix, other_key.as_bytes()).unwrap()),
	);
	let occupancy = cache.occupancy();
	assert_eq!((occupancy.matrices, occupancy.aggregate_keys), (1, 1));
	assert_eq!(cache.stats().matrices.evictions, 1);
	assert_eq!(cache.stats().aggregate_keys.evictions, 4);
	assert!(occupancy.bytes <= budget);
}

/// The chain and creator the membership proofs of these tests name.
const GENESIS: [u8; 32] = [0x47; 32];
const OWNER: AccountId32 = AccountId32::new([0x0e; 32]);

fn membership<'a>(committee: &'a CommitteeId, member: u32) -> MembershipStatement<'a, [u8; 32]> {
	MembershipStatement { genesis_hash: GENESIS, owner: &OWNER, committee, member }
}

#[test]
fn every_generated_share_has_a_valid_proof_of_possession() {
	let committee = committee(4);
	let id = committee.id();
	for (index, share) in (0..).zip(committee.shares()) {
		let proof = committee.membership_proof(index, GENESIS, &OWNER);
		assert_eq!(
			verify_membership::<Libcrux, _>(
				&committee.rho(),
				&share,
				&membership(&id, index),
				&proof
			),
			Ok(())
		);
		assert_eq!(
			verify_membership::<RustCrypto, _>(
				&committee.rho(),
				&share,
				&membership(&id, index),
				&proof
			),
			Ok(())
		);
	}
}

#[test]
fn a_share_without_a_valid_proof_is_refused() {
	let committee = committee(4);
	let (rho, id, shares) = (committee.rho(), committee.id(), committee.shares());
	let proof = committee.membership_proof(1, GENESIS, &OWNER);
	let refused = Err(ShareError::InvalidProof);
	// Another member's proof, the right proof for another seat, or for another committee.
	assert_eq!(
		verify_membership::<Libcrux, _>(&rho, &shares[0], &membership(&id, 0), &proof),
		refused
	);
	assert_eq!(
		verify_membership::<Libcrux, _>(&rho, &shares[1], &membership(&id, 2), &proof),
		refused
	);
	let other = CommitteeId([9; 32]);
	assert_eq!(
		verify_membership::<Libcrux, _>(&rho, &shares[1], &membership(&other, 1), &proof),
		refused
	);
	// The right seat, but another creator or another chain.
	let stranger = AccountId32::new([0x0f; 32]);
	let copied = MembershipStatement { owner: &stranger, ..membership(&id, 1) };
	assert_eq!(verify_membership::<Libcrux, _>(&rho, &shares[1], &copied, &proof), refused);
	let elsewhere = MembershipStatement { genesis_hash: [0x48; 32], ..membership(&id, 1) };
	assert_eq!(verify_membership::<Libcrux, _>(&rho, &shares[1], &elsewhere, &proof), refused);
	// A rogue share: chosen to cancel the others, with no key behind it to prove.
	let mut rogue = ShareSum::default();
	for share in &shares[..3] {
		rogue.subtract(share).unwrap();
	}
	assert_eq!(
		verify_membership::<Libcrux, _>(&rho, &rogue.pack(), &membership(&id, 3), &proof),
		refused
	);
}

#[test]
fn a_share_with_a_coefficient_not_below_q_is_refused() {
	let share = PackedShare([0xff; PackedShare::LEN]);
	assert!(!share.is_reduced());
	let proof = committee(1).membership_proof(0, GENESIS, &OWNER);
	assert_eq!(
		verify_membership::<Libcrux, _>(
			&[0; 32],
			&share,
			&membership(&committee(1).id(), 0),
			&proof
		),
		Err(ShareError::NotReduced)
	);
}

#[test]
fn the_sum_of_all_minus_the_absent_equals_the_sum_of_the_present() {
	let shares = large().shares();
	let mut total = ShareSum::default();
	shares.iter().for_each(|share| total.add(share).unwrap());
	assert_eq!(ShareSum::from_packed(&total.pack()).unwrap(), total);
	for members in
		[(0..128).filter(|i| i % 17 != 0).collect::<Vec<_>>(), vec![3, 70], (0..128).collect()]
	{
		let signers = large().signers(members.iter().copied()).unwrap();
		let mut fetched = 0;
		let derived = derive_aggregate_key(&large().rho(), 128, &total.pack(), &signers, |index| {
			fetched += 1;
			shares.get(index as usize).cloned()
		})
		.unwrap();
		assert_eq!(derived, large().aggregate_key(&signers), "{} signers", members.len());
		assert_eq!(fetched, members.len().min(128 - members.len()), "{} signers", members.len());
	}
}

#[test]
fn a_missing_share_is_an_error() {
	let signers = large().signers([0, 1]).unwrap();
	let total = large().share(0);
	assert_eq!(
		derive_aggregate_key(&large().rho(), 128, &total, &signers, |_| None),
		Err(ShareError::MissingShare)
	);
}

#[test]
fn signing_refuses_non_members_and_empty_sets() {
	let committee = committee(4);
	assert!(committee.signers([4]).is_err());
	let empty = committee.signers([]).unwrap();
	assert!(committee.sign(&empty, MESSAGE, Purpose::Transaction).is_err());
	let foreign = SignerBitfield::new(16, [0]).unwrap();
	assert!(committee.sign(&foreign, MESSAGE, Purpose::Transaction).is_err());
}

#[test]
fn committee_ids_bind_threshold_members_and_order() {
	let seeds = [[1u8; 32], [2u8; 32]];
	let base = Committee::generate([3; 32], &seeds, 1);
	assert_ne!(base.id(), Committee::generate([3; 32], &seeds, 2).id());
	assert_ne!(base.id(), Committee::generate([3; 32], &[seeds[1], seeds[0]], 1).id());
	assert_ne!(base.id(), Committee::generate([4; 32], &seeds, 1).id());
	assert_eq!(base.id(), Committee::generate([3; 32], &seeds, 1).id());
}

mod properties {
	use super::*;
	use proptest::prelude::*;

	fn sixteen() -> &'static Committee {
		static SIXTEEN: OnceLock<Committee> = OnceLock::new();
		SIXTEEN.get_or_init(|| committee(16))
	}

	proptest! {
		#![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

		/// Any non-empty signer set of a 16-member committee signs any message; one flipped bit
		/// anywhere in `σ*` is refused by every backend.
		#[test]
		fn any_signer_set_verifies_and_any_bit_flip_fails(
			members in proptest::bits::u16::ANY.prop_filter("non-empty", |bits| *bits != 0),
			message in proptest::collection::vec(any::<u8>(), 0..200),
			rnd in any::<[u8; 32]>(),
			flip in any::<prop::sample::Index>(),
		) {
			let committee = sixteen();
			let signers = committee.signers((0..16).filter(|i| members >> i & 1 == 1)).unwrap();
			let mut aggregate = committee.sign_with_randomness(&signers, &message, Purpose::Transaction, rnd).unwrap();
			prop_assert_eq!(verifies_everywhere(committee, &aggregate, &message), [true; 5]);
			let bit = flip.index(aggregate.signature.0.len() * 8);
			aggregate.signature.0[bit / 8] ^= 1 << (bit % 8);
			prop_assert_eq!(verifies_everywhere(committee, &aggregate, &message), [false; 5]);
		}
	}
}
