//! Every ML-DSA verifier the project can run gives every input the same verdict: our own
//! (`Fips204`, on the engine this CPU picks, and held to the portable one), libcrux and
//! RustCrypto. A verifier that accepts what another refuses splits consensus.
//!
//! Inputs are structured: a key pair from a seed signs a message under a context, and the
//! fuzzer's edits then flip bytes of the signature or the key — so most inputs are valid
//! signatures or near misses (hint encodings, `z` near its bound, a wrong `c̃`), which random
//! bytes almost never are. A raw mode checks arbitrary key and signature bytes too.

#![no_main]

use arbitrary::Arbitrary;
use fips204::{Engine, VerifyingKey};
use libfuzzer_sys::fuzz_target;
use pq_crypto::{
	backend::{Fips204, Libcrux, MlDsaVerifier, RustCrypto},
	params::{MlDsa44, MlDsa65, MlDsa87, MlDsaParams},
};

#[derive(Arbitrary, Debug)]
enum Level {
	MlDsa44,
	MlDsa65,
	MlDsa87,
}

#[derive(Arbitrary, Debug)]
enum Edit {
	/// XOR `mask` into the signature byte at `position` (modulo its length).
	Signature { position: u16, mask: u8 },
	/// XOR `mask` into the key byte at `position` (modulo its length).
	Key { position: u16, mask: u8 },
}

#[derive(Arbitrary, Debug)]
enum Case {
	/// A signature made with libcrux, then edited.
	Signed { seed: [u8; 32], rnd: [u8; 32], message: Vec<u8>, context: Vec<u8>, edits: Vec<Edit> },
	/// Arbitrary bytes as key and signature (cut or padded to the level's sizes).
	Raw { key: Vec<u8>, signature: Vec<u8>, message: Vec<u8> },
}

#[derive(Arbitrary, Debug)]
struct Input {
	level: Level,
	case: Case,
}

fuzz_target!(|input: Input| {
	match input.level {
		Level::MlDsa44 => check::<MlDsa44>(input.case, |seed, rnd, message, context| {
			let pair = libcrux_ml_dsa::ml_dsa_44::generate_key_pair(seed);
			let signature =
				libcrux_ml_dsa::ml_dsa_44::sign(&pair.signing_key, message, context, rnd).ok()?;
			Some((pair.verification_key.as_ref().to_vec(), signature.as_ref().to_vec()))
		}),
		Level::MlDsa65 => check::<MlDsa65>(input.case, |seed, rnd, message, context| {
			let pair = libcrux_ml_dsa::ml_dsa_65::generate_key_pair(seed);
			let signature =
				libcrux_ml_dsa::ml_dsa_65::sign(&pair.signing_key, message, context, rnd).ok()?;
			Some((pair.verification_key.as_ref().to_vec(), signature.as_ref().to_vec()))
		}),
		Level::MlDsa87 => check::<MlDsa87>(input.case, |seed, rnd, message, context| {
			let pair = libcrux_ml_dsa::ml_dsa_87::generate_key_pair(seed);
			let signature =
				libcrux_ml_dsa::ml_dsa_87::sign(&pair.signing_key, message, context, rnd).ok()?;
			Some((pair.verification_key.as_ref().to_vec(), signature.as_ref().to_vec()))
		}),
	}
});

/// `(key, signature)` of a seed, `rnd`, message and context; `None` if signing refuses (a
/// context over 255 bytes).
type Sign = fn([u8; 32], [u8; 32], &[u8], &[u8]) -> Option<(Vec<u8>, Vec<u8>)>;

/// A level's key and signature types from bytes of exactly their length.
trait FromBytes: MlDsaParams {
	fn public(bytes: &[u8]) -> Option<Self::Public>;
	fn signature(bytes: &[u8]) -> Option<Self::Signature>;
}

macro_rules! from_bytes {
	($($params:ty),*) => {$(
		impl FromBytes for $params {
			fn public(bytes: &[u8]) -> Option<Self::Public> {
				<Self as MlDsaParams>::Public::from_slice(bytes)
			}
			fn signature(bytes: &[u8]) -> Option<Self::Signature> {
				<Self as MlDsaParams>::Signature::from_slice(bytes)
			}
		}
	)*};
}
from_bytes!(MlDsa44, MlDsa65, MlDsa87);

fn check<P: FromBytes>(case: Case, sign: Sign)
where
	Libcrux: MlDsaVerifier<P>,
	RustCrypto: MlDsaVerifier<P>,
	Fips204: MlDsaVerifier<P>,
{
	let (public_len, signature_len) =
		(P::PARAMETERS.public_key_bytes(), P::PARAMETERS.signature_bytes());
	let (mut key, mut signature, message, context) = match case {
		Case::Signed { seed, rnd, message, context, edits } => {
			let Some((key, signature)) = sign(seed, rnd, &message, &context) else { return };
			let (mut key, mut signature) = (key, signature);
			for edit in edits {
				match edit {
					Edit::Signature { position, mask } => {
						signature[position as usize % signature_len] ^= mask
					},
					Edit::Key { position, mask } => key[position as usize % public_len] ^= mask,
				}
			}
			(key, signature, message, context)
		},
		Case::Raw { key, signature, message } => (key, signature, message, Vec::new()),
	};
	key.resize(public_len, 0);
	signature.resize(signature_len, 0);
	let (Some(key), Some(signature)) = (P::public(&key), P::signature(&signature)) else {
		unreachable!("resized to the level's sizes")
	};
	let libcrux = <Libcrux as MlDsaVerifier<P>>::verify(&key, &message, &context, &signature);
	let rustcrypto = <RustCrypto as MlDsaVerifier<P>>::verify(&key, &message, &context, &signature);
	let ours = <Fips204 as MlDsaVerifier<P>>::verify(&key, &message, &context, &signature);
	let portable = VerifyingKey::<P>::decode_by(Engine::Portable, P::encoded_public_key(&key))
		.verify_by(Engine::Portable, &message, &context, P::encoded_signature(&signature));
	assert_eq!(rustcrypto, libcrux, "RustCrypto and libcrux disagree");
	assert_eq!(ours, libcrux, "our verifier and libcrux disagree");
	assert_eq!(portable, libcrux, "our portable engine and libcrux disagree");
}
