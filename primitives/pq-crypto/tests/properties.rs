//! Property tests: backends agree on every input, and no decoder or verifier panics on
//! arbitrary bytes. Failing cases are kept in `proptest-regressions/`, committed.

use codec::Decode;
use proptest::prelude::*;
use pq_crypto::{
	backend::{Libcrux, MlDsaVerifier, Native, RustCrypto},
	params::{MlDsa44, MlDsa65, MlDsa87, MlDsaParams},
	AggregateSignature, MultiSignature, MultiSigner, SignatureWithKey,
};

fn config() -> ProptestConfig {
	ProptestConfig { cases: 64, ..ProptestConfig::default() }
}

macro_rules! agreement {
	($level:ident, $variant:ident, $params:ty, $libcrux:ident) => {
		mod $level {
			use super::*;
			use libcrux_ml_dsa::$libcrux as lib;

			fn public(bytes: &[u8]) -> <$params as MlDsaParams>::Public {
				<$params as MlDsaParams>::Public::from_slice(bytes).unwrap()
			}

			fn signature(bytes: &[u8]) -> <$params as MlDsaParams>::Signature {
				<$params as MlDsaParams>::Signature::from_slice(bytes).unwrap()
			}

			proptest! {
				#![proptest_config(config())]

				/// Sign with libcrux, verify with both; flip one bit anywhere, both refuse.
				#[test]
				fn signed_by_libcrux_both_agree(
					seed in any::<[u8; 32]>(),
					rnd in any::<[u8; 32]>(),
					message in proptest::collection::vec(any::<u8>(), 0..300),
					context in proptest::collection::vec(any::<u8>(), 0..64),
					flip in any::<prop::sample::Index>(),
				) {
					let pair = lib::generate_key_pair(seed);
					let sig = lib::sign(&pair.signing_key, &message, &context, rnd).unwrap();
					let key = public(pair.verification_key.as_ref());
					let good = signature(sig.as_ref());
					prop_assert!(<RustCrypto as MlDsaVerifier<$params>>::verify(&key, &message, &context, &good));
					prop_assert!(<Libcrux as MlDsaVerifier<$params>>::verify(&key, &message, &context, &good));
					prop_assert!(<Native as MlDsaVerifier<$params>>::verify(&key, &message, &context, &good));

					let mut bad = good.clone();
					let bit = flip.index(bad.0.len() * 8);
					bad.0[bit / 8] ^= 1 << (bit % 8);
					let rustcrypto = <RustCrypto as MlDsaVerifier<$params>>::verify(&key, &message, &context, &bad);
					let libcrux = <Libcrux as MlDsaVerifier<$params>>::verify(&key, &message, &context, &bad);
					let native = <Native as MlDsaVerifier<$params>>::verify(&key, &message, &context, &bad);
					prop_assert_eq!(rustcrypto, libcrux);
					prop_assert_eq!(native, libcrux);
				}

				/// Sign with RustCrypto (our signing side), verify with libcrux; the two
				/// implementations' KeyGen and deterministic Sign are bit-identical.
				#[test]
				fn signed_by_rustcrypto_libcrux_agrees(
					seed in any::<[u8; 32]>(),
					message in proptest::collection::vec(any::<u8>(), 0..300),
				) {
					let keypair = pq_crypto::signing::Keypair::from_seed(<$params>::SCHEME, &seed).unwrap();
					let signed = keypair.sign_deterministic(&message, pq_crypto::Purpose::Transaction);
					prop_assert!(signed.verify::<Libcrux>(&keypair.public(), &message, pq_crypto::Purpose::Transaction).is_ok());

					let pair = lib::generate_key_pair(seed);
					let key = public(pair.verification_key.as_ref());
					prop_assert_eq!(keypair.public(), MultiSigner::$variant(key));
					let context = pq_crypto::Purpose::Transaction.context();
					let theirs = lib::sign(&pair.signing_key, &message, context, [0u8; 32]).unwrap();
					prop_assert_eq!(signed, MultiSignature::$variant(signature(theirs.as_ref())));
				}

				/// Arbitrary key and signature bytes: both backends give the same answer.
				#[test]
				fn arbitrary_bytes_both_agree(
					key in proptest::collection::vec(any::<u8>(), <$params as MlDsaParams>::Public::LEN),
					sig in proptest::collection::vec(any::<u8>(), <$params as MlDsaParams>::Signature::LEN),
					message in proptest::collection::vec(any::<u8>(), 0..64),
				) {
					let (key, sig) = (public(&key), signature(&sig));
					prop_assert_eq!(
						<RustCrypto as MlDsaVerifier<$params>>::verify(&key, &message, b"", &sig),
						<Libcrux as MlDsaVerifier<$params>>::verify(&key, &message, b"", &sig)
					);
				}
			}
		}
	};
}

agreement!(ml_dsa_44, MlDsa44, MlDsa44, ml_dsa_44);
agreement!(ml_dsa_65, MlDsa65, MlDsa65, ml_dsa_65);
agreement!(ml_dsa_87, MlDsa87, MlDsa87, ml_dsa_87);

proptest! {
	/// No decoder panics or over-allocates on arbitrary input.
	#[test]
	fn decoders_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..6000)) {
		let _ = MultiSigner::decode(&mut &bytes[..]);
		let _ = MultiSignature::decode(&mut &bytes[..]);
		let _ = SignatureWithKey::decode(&mut &bytes[..]);
		let _ = AggregateSignature::decode(&mut &bytes[..]);
	}

	/// Decoded arbitrary input never panics in verification either.
	#[test]
	fn verifying_decoded_garbage_never_panics(bytes in proptest::collection::vec(any::<u8>(), 0..6000)) {
		let input = &mut &bytes[..];
		if let (Ok(signer), Ok(signature)) = (MultiSigner::decode(input), MultiSignature::decode(input)) {
			let _ = signature.verify::<Libcrux>(&signer, b"m", pq_crypto::Purpose::Transaction);
			let _ = signature.verify::<RustCrypto>(&signer, b"m", pq_crypto::Purpose::Transaction);
		}
	}
}
