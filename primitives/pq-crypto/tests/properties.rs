//! Property tests: backends agree on every input, and no decoder or verifier panics on
//! arbitrary bytes. Failing cases are kept in `proptest-regressions/`, committed.

mod common;

use codec::Decode;
use common::PortableEngine;
use pq_crypto::{
	backend::{Fips204, Libcrux, MlDsaVerifier, RustCrypto},
	host::Host,
	params::{MlDsa44, MlDsa65, MlDsa87, MlDsaParams, ParameterSet},
	AccountSignature, AccountSigner, AggregateSignature, TransactionSignature,
};
use proptest::prelude::*;

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

				/// Sign with libcrux, verify with every backend; flip one bit anywhere, all agree.
				#[test]
				fn signed_by_libcrux_every_backend_agrees(
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
					prop_assert!(<Host as MlDsaVerifier<$params>>::verify(&key, &message, &context, &good));
					prop_assert!(<Fips204 as MlDsaVerifier<$params>>::verify(&key, &message, &context, &good));
					prop_assert!(<PortableEngine as MlDsaVerifier<$params>>::verify(&key, &message, &context, &good));

					let mut bad = good.clone();
					let bit = flip.index(bad.0.len() * 8);
					bad.0[bit / 8] ^= 1 << (bit % 8);
					let rustcrypto = <RustCrypto as MlDsaVerifier<$params>>::verify(&key, &message, &context, &bad);
					let libcrux = <Libcrux as MlDsaVerifier<$params>>::verify(&key, &message, &context, &bad);
					let host = <Host as MlDsaVerifier<$params>>::verify(&key, &message, &context, &bad);
					let fips204 = <Fips204 as MlDsaVerifier<$params>>::verify(&key, &message, &context, &bad);
					let portable = <PortableEngine as MlDsaVerifier<$params>>::verify(&key, &message, &context, &bad);
					// The portable engine both ways: without a decoded key (above) and with one.
					let portable_decoded = <PortableEngine as MlDsaVerifier<$params>>::verify_decoded(
						&<PortableEngine as MlDsaVerifier<$params>>::decode_key(&key),
						&message,
						&context,
						&bad,
					);
					prop_assert_eq!(rustcrypto, libcrux);
					prop_assert_eq!(portable, libcrux);
					prop_assert_eq!(portable_decoded, libcrux);
					prop_assert_eq!(host, libcrux);
					prop_assert_eq!(fips204, libcrux);
				}

				/// A valid signature with its hint bytes replaced, or one coefficient of `z`
				/// rewritten to any packed value (across the `‖z‖∞ < γ1 − β` boundary): the
				/// encodings FIPS 204 refuses and those it accepts, as every backend decides.
				#[test]
				fn mutated_hints_and_z_every_backend_agrees(
					seed in any::<[u8; 32]>(),
					message in proptest::collection::vec(any::<u8>(), 0..64),
					hints in proptest::collection::vec(any::<u8>(), <$params as ParameterSet>::PARAMETERS.omega + <$params as ParameterSet>::K),
					coefficient in 0..256 * <$params as ParameterSet>::L,
					near_bound in any::<bool>(),
					value in any::<u32>(),
				) {
					let parameters = <$params as ParameterSet>::PARAMETERS;
					let pair = lib::generate_key_pair(seed);
					let key = public(pair.verification_key.as_ref());
					let good = lib::sign(&pair.signing_key, &message, b"", [0; 32]).unwrap();
					let mut with_hints = signature(good.as_ref());
					let hint_start = with_hints.0.len() - hints.len();
					with_hints.0[hint_start..].copy_from_slice(&hints);
					// z = γ1 − packed: values near γ1 ± (γ1 − β) straddle the norm bound.
					let bits = parameters.z_bits();
					let bound = parameters.gamma1 - parameters.beta();
					let packed = if near_bound {
						let offset = value % 5;
						[parameters.gamma1 - bound - 2 + offset, parameters.gamma1 + bound - 2 + offset][value as usize % 2]
					} else {
						value & ((1 << bits) - 1)
					};
					let mut with_z = signature(good.as_ref());
					let first_bit = parameters.c_tilde_bytes() * 8 + coefficient * bits;
					for bit in 0..bits {
						let (byte, shift) = ((first_bit + bit) / 8, (first_bit + bit) % 8);
						with_z.0[byte] = with_z.0[byte] & !(1 << shift) | (((packed >> bit) & 1) as u8) << shift;
					}
					for mutated in [with_hints, with_z] {
						let libcrux = <Libcrux as MlDsaVerifier<$params>>::verify(&key, &message, b"", &mutated);
						prop_assert_eq!(<RustCrypto as MlDsaVerifier<$params>>::verify(&key, &message, b"", &mutated), libcrux);
						prop_assert_eq!(<Fips204 as MlDsaVerifier<$params>>::verify(&key, &message, b"", &mutated), libcrux);
						prop_assert_eq!(<PortableEngine as MlDsaVerifier<$params>>::verify(&key, &message, b"", &mutated), libcrux);
					}
				}

				/// Sign with RustCrypto (our signing side), verify with libcrux; the two
				/// implementations' KeyGen and deterministic Sign are bit-identical.
				#[test]
				fn signed_by_rustcrypto_libcrux_agrees(
					seed in any::<[u8; 32]>(),
					message in proptest::collection::vec(any::<u8>(), 0..300),
				) {
					let keypair = pq_signer::signing::Keypair::from_seed(<$params>::SCHEME, &seed).unwrap();
					let signed = keypair.sign_deterministic(&message, pq_crypto::Purpose::Transaction);
					prop_assert!(signed.verify::<Libcrux>(&keypair.public(), &message, pq_crypto::Purpose::Transaction).is_ok());

					let pair = lib::generate_key_pair(seed);
					let key = public(pair.verification_key.as_ref());
					prop_assert_eq!(keypair.public(), AccountSigner::$variant(key));
					let context = pq_crypto::Purpose::Transaction.context();
					let theirs = lib::sign(&pair.signing_key, &message, context, [0u8; 32]).unwrap();
					prop_assert_eq!(signed, AccountSignature::$variant(signature(theirs.as_ref())));
				}

				/// Arbitrary key and signature bytes: every backend gives the same answer.
				#[test]
				fn arbitrary_bytes_every_backend_agrees(
					key in proptest::collection::vec(any::<u8>(), <$params as MlDsaParams>::Public::LEN),
					sig in proptest::collection::vec(any::<u8>(), <$params as MlDsaParams>::Signature::LEN),
					message in proptest::collection::vec(any::<u8>(), 0..64),
				) {
					let (key, sig) = (public(&key), signature(&sig));
					let libcrux = <Libcrux as MlDsaVerifier<$params>>::verify(&key, &message, b"", &sig);
					prop_assert_eq!(<RustCrypto as MlDsaVerifier<$params>>::verify(&key, &message, b"", &sig), libcrux);
					prop_assert_eq!(<Fips204 as MlDsaVerifier<$params>>::verify(&key, &message, b"", &sig), libcrux);
					prop_assert_eq!(<PortableEngine as MlDsaVerifier<$params>>::verify(&key, &message, b"", &sig), libcrux);
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
		let _ = AccountSigner::decode(&mut &bytes[..]);
		let _ = AccountSignature::decode(&mut &bytes[..]);
		let _ = TransactionSignature::decode(&mut &bytes[..]);
		let _ = AggregateSignature::decode(&mut &bytes[..]);
	}

	/// Decoded arbitrary input never panics in verification either.
	#[test]
	fn verifying_decoded_garbage_never_panics(bytes in proptest::collection::vec(any::<u8>(), 0..6000)) {
		let input = &mut &bytes[..];
		if let (Ok(signer), Ok(signature)) = (AccountSigner::decode(input), AccountSignature::decode(input)) {
			let _ = signature.verify::<Libcrux>(&signer, b"m", pq_crypto::Purpose::Transaction);
			let _ = signature.verify::<RustCrypto>(&signer, b"m", pq_crypto::Purpose::Transaction);
		}
	}
}
