//! The AVX2 and portable engines give every key, signature, message and context the same
//! verdict, pure mode is Algorithm 8 over its `M′`, and nothing panics: a Wasm runtime runs the portable one, a node the AVX2 one, and
//! a disagreement would split them. Keys and signatures are raw bytes of the level's sizes
//! (every byte string of a key's size is a key); `pq-crypto`'s `differential` target adds
//! signatures made by a signer and near misses, against libcrux and RustCrypto.

#![no_main]

use arbitrary::Arbitrary;
use fips204::{Engine, MlDsa44, MlDsa65, MlDsa87, ParameterSet, VerifyingKey};
use libfuzzer_sys::fuzz_target;

#[derive(Arbitrary, Debug)]
enum Level {
	MlDsa44,
	MlDsa65,
	MlDsa87,
}

#[derive(Arbitrary, Debug)]
struct Input {
	level: Level,
	key: Vec<u8>,
	signature: Vec<u8>,
	message: Vec<u8>,
	context: Vec<u8>,
}

fuzz_target!(|input: Input| match input.level {
	Level::MlDsa44 => check::<MlDsa44>(&input),
	Level::MlDsa65 => check::<MlDsa65>(&input),
	Level::MlDsa87 => check::<MlDsa87>(&input),
});

fn check<P: ParameterSet>(input: &Input)
where
	P::EncodedPublicKey: for<'a> TryFrom<&'a [u8]>,
	P::EncodedSignature: for<'a> TryFrom<&'a [u8]>,
{
	let mut key = input.key.clone();
	key.resize(P::PUBLIC_KEY_BYTES, 0);
	let mut signature = input.signature.clone();
	signature.resize(P::SIGNATURE_BYTES, 0);
	let (Ok(key), Ok(signature)) =
		(P::EncodedPublicKey::try_from(&key[..]), P::EncodedSignature::try_from(&signature[..]))
	else {
		unreachable!("resized to the level's sizes")
	};
	let verdicts = [Engine::detect(), Engine::Portable].map(|engine| {
		let key = VerifyingKey::<P>::decode_by(engine, &key);
		let pure = key.verify_by(engine, &input.message, &input.context, &signature);
		// Pure mode is Algorithm 8 over `0 ‖ |ctx| ‖ ctx ‖ M`, and nothing for a long context.
		let m_prime = fips204::pure_header(&input.context)
			.map(|header| [&header[..], &input.context, &input.message].concat());
		let internal = m_prime.as_ref().is_some_and(|m_prime| {
			key.verify_internal_by(engine, m_prime, &signature)
		});
		assert_eq!(pure, internal, "pure mode is not Algorithm 8 over its M′");
		(pure, key.verify_internal_by(engine, &input.message, &signature))
	});
	assert_eq!(verdicts[0], verdicts[1], "the engines disagree");
}
