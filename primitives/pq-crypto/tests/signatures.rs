//! Behaviour of the public types: encodings, account ids, domain separation, the
//! self-contained transaction signature, dev keys and aggregates. One outcome per test.

use codec::{Decode, DecodeAll, Encode, MaxEncodedLen};
use polkadot_sdk::{
	sp_core::Pair,
	sp_runtime::{traits::IdentifyAccount, AccountId32},
};
use pq_crypto::{
	aggregate::{CommitteeId, SignerBitfield, MAX_COMMITTEE_SIZE},
	backend::{Libcrux, RustCrypto},
	keys::*,
	transaction::{bind, Parts},
	AccountSignature, AccountSigner, AggregateSignature, Purpose, Scheme, TransactionSignature,
	VerifyError,
};
use pq_signer::signing::{Keypair, SecretError};

fn keypair(scheme: Scheme) -> Keypair {
	Keypair::from_seed(scheme, &[scheme as u8 + 1; 32]).unwrap()
}

#[test]
fn encoded_sizes_are_the_fips_204_sizes() {
	for (scheme, key_len, signature_len) in [
		(Scheme::Ed25519, 32, 64),
		(Scheme::MlDsa44, 1312, 2420),
		(Scheme::MlDsa65, 1952, 3309),
		(Scheme::MlDsa87, 2592, 4627),
	] {
		let keypair = keypair(scheme);
		// One byte of enum tag, then the raw fixed-size bytes.
		assert_eq!(keypair.public().encoded_size(), 1 + key_len, "{scheme:?}");
		assert_eq!(
			keypair.sign(b"m", Purpose::Transaction).encoded_size(),
			1 + signature_len,
			"{scheme:?}"
		);
	}
	assert_eq!(AccountSignature::max_encoded_len(), AggregateSignature::max_encoded_len() + 1);
	assert_eq!(AggregateSignature::max_encoded_len(), 32 + 1 + 16 + 4627);
}

#[test]
fn encodings_round_trip() {
	for scheme in Scheme::SINGLE_KEY {
		let keypair = keypair(scheme);
		let signature = keypair.sign(b"m", Purpose::Transaction);
		assert_eq!(
			AccountSigner::decode_all(&mut &keypair.public().encode()[..]),
			Ok(keypair.public())
		);
		assert_eq!(AccountSignature::decode_all(&mut &signature.encode()[..]), Ok(signature));
	}
}

#[test]
fn truncated_signature_fails_to_decode() {
	for scheme in Scheme::SINGLE_KEY {
		let encoded = keypair(scheme).sign(b"m", Purpose::Transaction).encode();
		assert!(
			AccountSignature::decode(&mut &encoded[..encoded.len() - 1]).is_err(),
			"{scheme:?}"
		);
	}
}

#[test]
fn oversized_signature_fails_to_decode() {
	for scheme in Scheme::SINGLE_KEY {
		let mut encoded = keypair(scheme).sign(b"m", Purpose::Transaction).encode();
		encoded.push(0);
		assert!(AccountSignature::decode_all(&mut &encoded[..]).is_err(), "{scheme:?}");
	}
}

#[test]
fn unknown_variant_fails_to_decode() {
	assert!(AccountSigner::decode(&mut &[5u8, 0, 0][..]).is_err());
	assert!(AccountSignature::decode(&mut &[9u8; 100][..]).is_err());
}

#[test]
fn every_scheme_verifies_on_every_backend() {
	for scheme in Scheme::SINGLE_KEY {
		let keypair = keypair(scheme);
		let signature = keypair.sign(b"payload", Purpose::Transaction);
		assert_eq!(
			signature.verify::<RustCrypto>(&keypair.public(), b"payload", Purpose::Transaction),
			Ok(())
		);
		assert_eq!(
			signature.verify::<Libcrux>(&keypair.public(), b"payload", Purpose::Transaction),
			Ok(())
		);
	}
}

#[test]
fn tampered_message_is_bad_signature() {
	for scheme in Scheme::SINGLE_KEY {
		let keypair = keypair(scheme);
		let signature = keypair.sign(b"payload", Purpose::Transaction);
		assert_eq!(
			signature.verify::<Libcrux>(&keypair.public(), b"payloaD", Purpose::Transaction),
			Err(VerifyError::BadSignature)
		);
	}
}

#[test]
fn wrong_key_is_bad_signature() {
	for scheme in Scheme::SINGLE_KEY {
		let other = Keypair::from_seed(scheme, &[0xee; 32]).unwrap();
		let signature = keypair(scheme).sign(b"payload", Purpose::Transaction);
		assert_eq!(
			signature.verify::<RustCrypto>(&other.public(), b"payload", Purpose::Transaction),
			Err(VerifyError::BadSignature)
		);
	}
}

#[test]
fn scheme_mismatch_is_refused() {
	let signature = keypair(Scheme::MlDsa44).sign(b"payload", Purpose::Transaction);
	assert_eq!(
		signature.verify::<Libcrux>(
			&keypair(Scheme::MlDsa65).public(),
			b"payload",
			Purpose::Transaction
		),
		Err(VerifyError::SchemeMismatch)
	);
}

#[test]
fn ml_dsa_purposes_are_separated() {
	for scheme in Scheme::ML_DSA {
		let keypair = keypair(scheme);
		for signed_for in Purpose::ALL {
			let signature = keypair.sign(b"payload", signed_for);
			for checked_for in Purpose::ALL {
				let result =
					signature.verify::<Libcrux>(&keypair.public(), b"payload", checked_for);
				assert_eq!(
					result.is_ok(),
					signed_for == checked_for,
					"{scheme:?}: {signed_for:?} as {checked_for:?}"
				);
			}
		}
	}
}

#[test]
fn purpose_contexts_are_distinct_and_within_fips_204_limit() {
	for (i, a) in Purpose::ALL.iter().enumerate() {
		assert!(a.context().len() <= 255);
		for b in &Purpose::ALL[i + 1..] {
			assert_ne!(a.context(), b.context());
		}
	}
}

#[test]
fn ed25519_account_is_the_key_as_in_sp_runtime() {
	let alice = Keypair::from_suri(Scheme::Ed25519, "//Alice").unwrap();
	let substrate_alice =
		polkadot_sdk::sp_core::ed25519::Pair::from_string("//Alice", None).unwrap();
	let substrate_account =
		polkadot_sdk::sp_runtime::MultiSigner::from(substrate_alice.public()).into_account();
	assert_eq!(alice.account_id(), substrate_account);
}

#[test]
fn ml_dsa_account_ids_are_distinct_per_scheme_and_key() {
	let mut accounts: Vec<AccountId32> = Scheme::SINGLE_KEY
		.iter()
		.flat_map(|scheme| {
			[
				keypair(*scheme).account_id(),
				Keypair::from_seed(*scheme, &[0x42; 32]).unwrap().account_id(),
			]
		})
		.collect();
	accounts.push(AccountSigner::AggregateMlDsa87(CommitteeId([0x42; 32])).account_id());
	let count = accounts.len();
	accounts.sort();
	accounts.dedup();
	assert_eq!(accounts.len(), count);
}

#[test]
fn dev_keys_are_deterministic_and_distinct() {
	for scheme in Scheme::SINGLE_KEY {
		let alice = Keypair::from_suri(scheme, "//Alice").unwrap();
		assert_eq!(alice.public(), Keypair::from_suri(scheme, "//Alice").unwrap().public());
		assert_ne!(alice.public(), Keypair::from_suri(scheme, "//Bob").unwrap().public());
		assert_ne!(
			alice.public(),
			Keypair::from_suri(scheme, "//Alice///secret").unwrap().public()
		);
	}
}

#[test]
fn bad_secret_uris_are_typed_errors() {
	assert_eq!(
		Keypair::from_suri(Scheme::MlDsa44, "//Alice/soft").err(),
		Some(SecretError::SoftJunction)
	);
	assert_eq!(
		Keypair::from_suri(Scheme::MlDsa44, "not a mnemonic").err(),
		Some(SecretError::InvalidPhrase)
	);
	assert_eq!(
		Keypair::from_suri(Scheme::AggregateMlDsa87, "//Alice").err(),
		Some(SecretError::AggregateScheme)
	);
}

/// A script whose secret variable is unset passes an empty URI (`ml-dsa-87:$SECRET`), which
/// sp-core reads as the public development phrase: registering or funding that key hands the
/// account to anyone. Only a `//` junction names the development phrase on purpose; and a
/// password after a hex seed, which derivation ignores, is refused rather than dropped.
#[test]
fn an_empty_secret_uri_is_not_the_public_dev_phrase() {
	for scheme in Scheme::SINGLE_KEY {
		for no_secret in ["", "///password"] {
			assert_eq!(
				Keypair::from_suri(scheme, no_secret).err(),
				Some(SecretError::NoSecret),
				"{scheme:?} {no_secret:?}"
			);
		}
		assert!(Keypair::from_suri(scheme, "//Alice").is_ok());
	}
	let seed = format!("0x{}", "11".repeat(32));
	assert!(Keypair::from_suri(Scheme::MlDsa44, &seed).is_ok());
	assert_eq!(
		Keypair::from_suri(Scheme::MlDsa44, &format!("{seed}///password")).err(),
		Some(SecretError::PasswordOnSeed)
	);
}

#[test]
fn deterministic_signing_repeats_and_hedged_signing_varies() {
	let keypair = keypair(Scheme::MlDsa65);
	let first = keypair.sign_deterministic(b"m", Purpose::Transaction);
	assert_eq!(first, keypair.sign_deterministic(b"m", Purpose::Transaction));
	assert_ne!(keypair.sign(b"m", Purpose::Transaction), keypair.sign(b"m", Purpose::Transaction));
}

#[test]
fn transaction_signature_verifies_for_its_account() {
	for scheme in Scheme::SINGLE_KEY {
		let keypair = keypair(scheme);
		let signed = keypair.sign_transaction(b"payload");
		let account = keypair.account_id();
		let Parts::KeyInline(signer, signature) = signed.parts(&account) else {
			panic!("{scheme:?}: key inline")
		};
		assert!(bind(&signer, &account).is_ok(), "{scheme:?}");
		assert_eq!(
			signature.verify::<Libcrux>(&signer, b"payload", Purpose::Transaction),
			Ok(()),
			"{scheme:?}"
		);
	}
}

#[test]
fn transaction_signature_for_another_account_is_account_mismatch() {
	for scheme in Scheme::ML_DSA {
		let signed = keypair(scheme).sign_transaction(b"payload");
		let other = Keypair::from_seed(scheme, &[0x42; 32]).unwrap().account_id();
		let Parts::KeyInline(signer, _) = signed.parts(&other) else { panic!("key inline") };
		assert_eq!(bind(&signer, &other), Err(VerifyError::AccountMismatch));
	}
}

#[test]
fn transaction_signature_round_trips_its_parts() {
	let keypair = keypair(Scheme::MlDsa44);
	let signed = keypair.sign_transaction(b"payload");
	let Parts::KeyInline(signer, signature) = signed.parts(&keypair.account_id()) else {
		panic!("key inline")
	};
	assert_eq!(signer, keypair.public());
	assert_eq!(TransactionSignature::key_inline(signer, signature), Some(signed.clone()));
	assert_eq!(TransactionSignature::decode_all(&mut &signed.encode()[..]), Ok(signed));
}

#[test]
fn aggregate_verifies_against_its_aggregate_key_only() {
	// With one member, the aggregate key is that member's ML-DSA-87 key.
	let member = keypair(Scheme::MlDsa87);
	let AccountSigner::MlDsa87(aggregate_key) = member.public() else { unreachable!() };
	let AccountSignature::MlDsa87(signature) = member.sign(b"payload", Purpose::Transaction) else {
		unreachable!()
	};
	let aggregate = AggregateSignature {
		committee: CommitteeId([1; 32]),
		signers: SignerBitfield::new(1, [0]).unwrap(),
		signature,
	};
	assert!(aggregate.verify::<Libcrux>(&aggregate_key, b"payload", Purpose::Transaction));
	assert!(aggregate.verify::<RustCrypto>(&aggregate_key, b"payload", Purpose::Transaction));
	assert!(!aggregate.verify::<Libcrux>(&aggregate_key, b"payloaD", Purpose::Transaction));
	let AccountSigner::MlDsa87(other_key) =
		Keypair::from_seed(Scheme::MlDsa87, &[0x42; 32]).unwrap().public()
	else {
		unreachable!()
	};
	assert!(!aggregate.verify::<Libcrux>(&other_key, b"payload", Purpose::Transaction));
	assert_eq!(
		AccountSignature::AggregateMlDsa87(aggregate).verify::<Libcrux>(
			&AccountSigner::AggregateMlDsa87(CommitteeId([1; 32])),
			b"payload",
			Purpose::Transaction
		),
		Err(VerifyError::AggregateKeyRequired)
	);
}

#[test]
fn signer_bitfield_records_members() {
	let signers = SignerBitfield::new(128, [0, 3, 9, 127]).unwrap();
	assert_eq!(signers.count(), 4);
	assert_eq!(signers.members().collect::<Vec<_>>(), vec![0, 3, 9, 127]);
	assert!(signers.contains(9) && !signers.contains(8));
	assert!(
		signers.is_canonical_for(128)
			&& !signers.is_canonical_for(127)
			&& !signers.is_canonical_for(120)
	);
	assert_eq!(signers.encoded_size(), 1 + 16);
	assert_eq!(SignerBitfield::new(128, [MAX_COMMITTEE_SIZE]), None);
	assert_eq!(SignerBitfield::new(4, [4]), None);
	assert_eq!(SignerBitfield::new(MAX_COMMITTEE_SIZE + 1, [0]), None);
	// The canonical length is ⌈N/8⌉ whoever signed.
	assert_eq!(SignerBitfield::new(9, [0]).unwrap().encoded_size(), 1 + 2);
}

#[test]
fn oversized_bitfield_fails_to_decode() {
	let mut encoded = codec::Compact(17u32).encode();
	encoded.extend([0xffu8; 17]);
	assert!(SignerBitfield::decode(&mut &encoded[..]).is_err());
}

#[test]
fn keys_render_briefly_in_debug() {
	let rendered = format!("{:?}", MlDsa87Public([0xab; 2592]));
	assert_eq!(rendered, "MlDsa87Public(abababababababab…; 2592 bytes)");
}

/// What `UncheckedExtrinsic` demands of a runtime's `Signature` type for its bytes and metadata
/// (verification is the pallet's extrinsic type's, which reads the chain).
#[test]
fn transaction_signature_meets_runtime_bounds() {
	fn runtime_signature<T>()
	where
		T: codec::Codec
			+ codec::DecodeWithMemTracking
			+ codec::EncodeLike
			+ Clone
			+ Eq
			+ core::fmt::Debug
			+ scale_info::TypeInfo
			+ Send
			+ Sync
			+ 'static,
	{
	}
	runtime_signature::<TransactionSignature>();
}

#[test]
fn hex_seed_uri_is_the_seed() {
	let seed = [0x5au8; 32];
	let uri = format!("0x{}", hex::encode(seed));
	for scheme in Scheme::SINGLE_KEY {
		assert_eq!(
			Keypair::from_suri(scheme, &uri).unwrap().public(),
			Keypair::from_seed(scheme, &seed).unwrap().public(),
			"{scheme:?}"
		);
	}
}

/// `verify` and `verify_in_domain` (the runtime API's check) compare schemes before they decode
/// the key, so a mismatched pair costs no decoding: keys that would fail to decode (a
/// small-order Ed25519 point, a committee) are named a scheme mismatch, not a decoding error.
#[test]
fn mismatched_pairs_are_refused_before_the_key_is_decoded() {
	let mut small_order = [0u8; 32];
	small_order[0] = 1; // the identity point
	let invalid_ed25519 = AccountSigner::Ed25519(Ed25519Public(small_order));
	let committee = AccountSigner::AggregateMlDsa87(CommitteeId([7; 32]));
	let ml_dsa = keypair(Scheme::MlDsa44).sign(b"m", Purpose::Transaction);
	let domain = pq_crypto::Domain::Purpose(Purpose::Transaction);
	for signer in [invalid_ed25519, committee] {
		assert_eq!(
			ml_dsa.verify::<Libcrux>(&signer, b"m", Purpose::Transaction),
			Err(VerifyError::SchemeMismatch)
		);
		assert_eq!(
			ml_dsa.verify_in_domain::<Libcrux>(&signer, b"m", &domain),
			Err(VerifyError::SchemeMismatch)
		);
	}
}
