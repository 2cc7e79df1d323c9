//! Post-quantum account ids are never classical keys: no derived id decodes as an Ed25519 key
//! or an sr25519 (Ristretto255) key, checked with decoders independent of the derivation's own
//! rule — curve25519-dalek's decompression and Ristretto decoding, ed25519-zebra (what sp-io's
//! Ed25519 host function decodes keys with), schnorrkel (sp-io's sr25519), and the node's
//! Ed25519 host function of this project. Failing cases are kept in `proptest-regressions/`.

use curve25519_dalek::{edwards::CompressedEdwardsY, ristretto::CompressedRistretto};
use polkadot_sdk::sp_runtime::AccountId32;
use pq_crypto::{
	account::edwards::decodes_as_point,
	aggregate::CommitteeId,
	backend::{Backend, Ed25519Verifier, Libcrux, MlDsaVerifier, StrictEd25519},
	host::pq_verify,
	keys::{Ed25519Public, Ed25519Signature, MlDsa44Public, MlDsa65Public, MlDsa87Public},
	params::MlDsaParams,
	transaction::{bind, Parts},
	AccountSigner, Scheme, TransactionSignature, VerifyError,
};
use pq_signer::signing::Keypair;
use proptest::prelude::*;

/// Every independent decoder refuses `id` as a classical public key.
fn assert_no_classical_key(id: [u8; 32]) {
	assert!(
		CompressedEdwardsY(id).decompress().is_none(),
		"{}: curve25519-dalek decodes an Ed25519 point",
		hex::encode(id)
	);
	assert!(
		ed25519_zebra::VerificationKey::try_from(&id[..]).is_err(),
		"{}: ed25519-zebra decodes a key",
		hex::encode(id)
	);
	assert!(
		ed25519_dalek::VerifyingKey::from_bytes(&id).is_err(),
		"{}: ed25519-dalek decodes a key",
		hex::encode(id)
	);
	assert!(
		!pq_verify::ed25519_key_is_valid(&Ed25519Public(id)),
		"{}: the node's host function accepts it",
		hex::encode(id)
	);
	assert!(
		CompressedRistretto(id).decompress().is_none(),
		"{}: curve25519-dalek decodes a Ristretto point",
		hex::encode(id)
	);
	assert!(
		schnorrkel::PublicKey::from_bytes(&id).is_err(),
		"{}: schnorrkel decodes an sr25519 key",
		hex::encode(id)
	);
}

fn account_bytes(signer: &AccountSigner) -> [u8; 32] {
	signer.account_id().into()
}

const CASES: u32 = 10_000;

proptest! {
	#![proptest_config(ProptestConfig { cases: CASES, ..ProptestConfig::default() })]

	#[test]
	fn no_ml_dsa_44_account_is_a_classical_key(key in prop::collection::vec(any::<u8>(), MlDsa44Public::LEN)) {
		assert_no_classical_key(account_bytes(&AccountSigner::MlDsa44(MlDsa44Public::from_slice(&key).unwrap())));
	}

	#[test]
	fn no_ml_dsa_65_account_is_a_classical_key(key in prop::collection::vec(any::<u8>(), MlDsa65Public::LEN)) {
		assert_no_classical_key(account_bytes(&AccountSigner::MlDsa65(MlDsa65Public::from_slice(&key).unwrap())));
	}

	#[test]
	fn no_ml_dsa_87_account_is_a_classical_key(key in prop::collection::vec(any::<u8>(), MlDsa87Public::LEN)) {
		assert_no_classical_key(account_bytes(&AccountSigner::MlDsa87(MlDsa87Public::from_slice(&key).unwrap())));
	}

	#[test]
	fn no_committee_account_is_a_classical_key(committee in any::<[u8; 32]>()) {
		assert_no_classical_key(CommitteeId(committee).account_id().into());
	}

	/// The derivation's rule is exactly curve25519-dalek's decompression, which accepts every
	/// encoding any Ed25519 decoder accepts.
	#[test]
	fn the_point_rule_is_curve25519_dalek_decompression(bytes in any::<[u8; 32]>()) {
		prop_assert_eq!(decodes_as_point(&bytes), CompressedEdwardsY(bytes).decompress().is_some());
	}
}

/// The edges of the rule: `y` of 0, ±1 (where `x = 0`, with either sign bit), `p`, `p ± 1`
/// and the largest 255-bit values, which permissive decoders read mod `p`.
#[test]
fn the_point_rule_agrees_on_the_edges() {
	let p_minus = |k: u8| {
		let mut bytes = [0xffu8; 32];
		bytes[0] = 0xed - k;
		bytes[31] = 0x7f;
		bytes
	};
	let small = |value: u8| {
		let mut bytes = [0u8; 32];
		bytes[0] = value;
		bytes
	};
	let mut edges: Vec<[u8; 32]> = (0..=40).map(small).collect();
	edges.extend((0..=19).map(p_minus));
	edges.extend((0..=18u8).map(|k| {
		// p + k (non-canonical y), and the largest values up to 2^255 − 1.
		let mut bytes = p_minus(0);
		bytes[0] = 0xed + k;
		bytes
	}));
	for bytes in edges.clone() {
		let mut signed = bytes;
		signed[31] |= 0x80;
		for bytes in [bytes, signed] {
			assert_eq!(
				decodes_as_point(&bytes),
				CompressedEdwardsY(bytes).decompress().is_some(),
				"{}",
				hex::encode(bytes)
			);
		}
	}
}

/// The dev accounts, which chains endow and documents name, are not classical keys; nor are
/// the ids of the ML-DSA-44 `//Alice` key whose version-1 id decoded as one.
#[test]
fn no_dev_account_is_a_classical_key() {
	for scheme in Scheme::ML_DSA {
		for name in ["Alice", "Bob", "Charlie", "Dave", "Eve", "Ferdie"] {
			let key = Keypair::from_suri(scheme, &format!("//{name}")).unwrap();
			assert_no_classical_key(key.account_id().into());
		}
	}
}

/// The derivation, step by step, for one key: the seed is the version-1 id, and the id is the
/// first candidate that is not a point (vectors with these values are in
/// `docs/wire-format-vectors.json`).
#[test]
fn the_derivation_is_the_documented_one() {
	use polkadot_sdk::sp_io::hashing::blake2_256;
	let key = Keypair::from_suri(Scheme::MlDsa44, "//Alice").unwrap().public();
	let seed = blake2_256(&[&b"pq-verifier/account/ml-dsa-44"[..], key.key_bytes()].concat());
	let candidate = |counter: u32| {
		let mut candidate = blake2_256(&[&seed[..], &counter.to_le_bytes()].concat());
		candidate[31] |= 0x80;
		candidate
	};
	let first = (0..)
		.map(candidate)
		.find(|candidate| CompressedEdwardsY(*candidate).decompress().is_none())
		.unwrap();
	assert_eq!(account_bytes(&key), first);
	assert!(
		CompressedEdwardsY(seed).decompress().is_some(),
		"the version-1 id of ML-DSA-44 //Alice decodes as an Ed25519 key: the attack this derivation stops"
	);
}

/// The attacker this project defends against, as a backend: it takes discrete logarithms, so
/// it has a valid Ed25519 signature for any key that decodes. Everything else is libcrux's.
struct DiscreteLogOracle;

impl Ed25519Verifier for DiscreteLogOracle {
	type DecodedKey = <StrictEd25519 as Ed25519Verifier>::DecodedKey;

	fn decode_key(public: &Ed25519Public) -> Option<Self::DecodedKey> {
		StrictEd25519::decode_key(public)
	}

	fn verify_decoded(_: &Self::DecodedKey, _: &[u8], _: &[u8], _: &Ed25519Signature) -> bool {
		true
	}
}

impl<P: MlDsaParams> MlDsaVerifier<P> for DiscreteLogOracle
where
	Libcrux: MlDsaVerifier<P>,
{
	type DecodedKey = <Libcrux as MlDsaVerifier<P>>::DecodedKey;
	const DECODED_KEY_BYTES: usize = <Libcrux as MlDsaVerifier<P>>::DECODED_KEY_BYTES;

	fn decode_key(public: &P::Public) -> Self::DecodedKey {
		<Libcrux as MlDsaVerifier<P>>::decode_key(public)
	}

	fn verify_decoded(
		key: &Self::DecodedKey,
		message: &[u8],
		context: &[u8],
		signature: &P::Signature,
	) -> bool {
		<Libcrux as MlDsaVerifier<P>>::verify_decoded(key, message, context, signature)
	}

	fn verify_internal(key: &Self::DecodedKey, message: &[u8], signature: &P::Signature) -> bool {
		<Libcrux as MlDsaVerifier<P>>::verify_internal(key, message, signature)
	}
}

impl Backend for DiscreteLogOracle {
	const NAME: &'static str = "discrete-log oracle";
}

/// With a discrete-logarithm oracle an attacker signs for every classical account, and for
/// about half of the version-1 post-quantum ids — and for no post-quantum id of today. The
/// oracle is asked directly, each account taken as the Ed25519 key it would be, so the check
/// does not rest on the rule that made the ids ([`TransactionSignature::bind`] refuses them too,
/// below, before any verifier is asked).
#[test]
fn a_discrete_log_oracle_signs_for_no_post_quantum_account() {
	let forged = Ed25519Signature([0x11; 64]);
	let spends = |account: &AccountId32| {
		let key = Ed25519Public(account.clone().into());
		<DiscreteLogOracle as Ed25519Verifier>::verify(&key, &[], b"transfer everything", &forged)
	};

	let classical = Keypair::from_suri(Scheme::Ed25519, "//Alice").unwrap().account_id();
	assert!(spends(&classical), "the oracle signs for a classical account: the model is right");

	let mut version_1_spent = 0;
	for seed in 0..200u8 {
		let signers =
			Scheme::ML_DSA.map(|scheme| Keypair::from_seed(scheme, &[seed; 32]).unwrap().public());
		let committee = AccountSigner::AggregateMlDsa87(CommitteeId([seed; 32]));
		for signer in signers.iter().chain([&committee]) {
			let account = signer.account_id();
			assert!(!spends(&account), "{signer:?}");
			let signed = TransactionSignature::Ed25519(forged.clone());
			let Parts::KeyInline(key, _) = signed.parts(&account) else { panic!("key inline") };
			assert_eq!(bind(&key, &account), Err(VerifyError::InvalidKey));
			version_1_spent += spends(&signer.version_1_account_id()) as u32;
		}
	}
	// 800 version-1 ids, each a point with probability about 1/2.
	assert!(
		(300..500).contains(&version_1_spent),
		"{version_1_spent} of 800 version-1 ids spendable"
	);
}
