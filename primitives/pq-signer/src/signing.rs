//! The signing side: key generation, dev keys and signing for every scheme.
//!
//! Chains verify; wallets, tools, tests and benchmarks sign. Signing uses RustCrypto `ml-dsa`
//! (FIPS 204 Algorithm 6 `KeyGen_internal` from a 32-byte seed `ξ`, Algorithm 7
//! `Sign_internal`) and `ed25519-dalek`. Seeds and deterministic signing work without `std`
//! (runtime benchmarks sign in Wasm); secret URIs and hedged signing need `std`.

use alloc::boxed::Box;
use ml_dsa::SigningKey;
use polkadot_sdk::sp_runtime::AccountId32;
use pq_crypto::{
	keys::*,
	message::{ed25519_message, pure_header},
	AccountSignature, AccountSigner, Purpose, Scheme,
};

/// Why a secret URI could not be turned into a key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SecretError {
	/// Not of the form `[phrase or 0x seed][//hard...][///password]`.
	InvalidUri,
	/// The phrase is neither a BIP-39 mnemonic nor a 32-byte hex seed.
	InvalidPhrase,
	/// Soft derivation (`/name`) is undefined for these schemes; use `//name`.
	SoftJunction,
	/// Aggregate keys are made by a committee, not derived from a secret.
	AggregateScheme,
	/// Neither a phrase or seed nor a `//` junction: an empty URI (or a password alone) would
	/// be the public development phrase's key, which anyone can derive — a mistake, such as an
	/// unset variable, not a key to send or register with.
	NoSecret,
	/// A `///password` after a `0x` seed, which derivation would silently ignore.
	PasswordOnSeed,
}

/// A signing key of one scheme.
pub enum Keypair {
	/// Ed25519.
	Ed25519(Box<ed25519_dalek::SigningKey>),
	/// ML-DSA-44.
	MlDsa44(Box<SigningKey<ml_dsa::MlDsa44>>),
	/// ML-DSA-65.
	MlDsa65(Box<SigningKey<ml_dsa::MlDsa65>>),
	/// ML-DSA-87.
	MlDsa87(Box<SigningKey<ml_dsa::MlDsa87>>),
}

/// Tag of ML-DSA hard derivation, in the manner of sp-core's `"Ed25519HDKD"`.
#[cfg(feature = "std")]
const ML_DSA_HDKD: &str = "MlDsaHDKD";

impl Keypair {
	/// The key generated from a 32-byte seed: FIPS 204 `KeyGen_internal(ξ)` for ML-DSA, the
	/// RFC 8032 secret key for Ed25519. Aggregate keys are not generated from seeds.
	pub fn from_seed(scheme: Scheme, seed: &[u8; 32]) -> Result<Self, SecretError> {
		Ok(match scheme {
			Scheme::Ed25519 => Self::Ed25519(Box::new(ed25519_dalek::SigningKey::from_bytes(seed))),
			Scheme::MlDsa44 => Self::MlDsa44(Box::new(SigningKey::from_seed(&(*seed).into()))),
			Scheme::MlDsa65 => Self::MlDsa65(Box::new(SigningKey::from_seed(&(*seed).into()))),
			Scheme::MlDsa87 => Self::MlDsa87(Box::new(SigningKey::from_seed(&(*seed).into()))),
			Scheme::AggregateMlDsa87 => return Err(SecretError::AggregateScheme),
		})
	}

	/// The key of a Substrate secret URI: `//Alice`, `<mnemonic>//hard//path///password` or a
	/// `0x` seed. Ed25519 keys are exactly sp-core's, so `//Alice` is the well-known dev
	/// account; ML-DSA seeds follow the same hard derivation under the tag `"MlDsaHDKD"`.
	#[cfg(feature = "std")]
	pub fn from_suri(scheme: Scheme, suri: &str) -> Result<Self, SecretError> {
		use codec::Encode;
		use core::str::FromStr;
		use polkadot_sdk::{
			sp_core::{
				crypto::{DeriveJunction, ExposeSecret, Pair as _, SecretUri},
				ed25519,
			},
			sp_io::hashing::blake2_256,
		};
		let uri = SecretUri::from_str(suri).map_err(|_| SecretError::InvalidUri)?;
		// sp-core reads a missing phrase as the development phrase: only `//Alice`-style dev
		// keys name it on purpose, by a junction.
		let names_a_phrase = !suri.is_empty() && !suri.starts_with('/');
		if !names_a_phrase && uri.junctions.is_empty() {
			return Err(SecretError::NoSecret);
		}
		let password = uri.password.as_ref().map(|password| password.expose_secret().as_str());
		let phrase = uri.phrase.expose_secret();
		if phrase.starts_with("0x") && password.is_some() {
			return Err(SecretError::PasswordOnSeed);
		}
		// A BIP-39 mnemonic, or else a `0x` hex seed.
		let mut seed: [u8; 32] = match ed25519::Pair::from_phrase(phrase, password) {
			Ok((_, seed)) => seed,
			Err(_) => ed25519::Pair::from_string_with_seed(phrase, password)
				.ok()
				.and_then(|(_, seed)| seed)
				.ok_or(SecretError::InvalidPhrase)?,
		};
		let tag = if scheme == Scheme::Ed25519 { "Ed25519HDKD" } else { ML_DSA_HDKD };
		for junction in &uri.junctions {
			match junction {
				DeriveJunction::Hard(chain_code) => {
					seed = blake2_256(&(tag, seed, chain_code).encode())
				},
				DeriveJunction::Soft(_) => return Err(SecretError::SoftJunction),
			}
		}
		Self::from_seed(scheme, &seed)
	}

	/// The scheme of this key.
	pub fn scheme(&self) -> Scheme {
		match self {
			Self::Ed25519(_) => Scheme::Ed25519,
			Self::MlDsa44(_) => Scheme::MlDsa44,
			Self::MlDsa65(_) => Scheme::MlDsa65,
			Self::MlDsa87(_) => Scheme::MlDsa87,
		}
	}

	/// The public key.
	pub fn public(&self) -> AccountSigner {
		match self {
			Self::Ed25519(key) => {
				AccountSigner::Ed25519(Ed25519Public(key.verifying_key().to_bytes()))
			},
			Self::MlDsa44(key) => AccountSigner::MlDsa44(MlDsa44Public(
				key.expanded_key().verifying_key().encode().into(),
			)),
			Self::MlDsa65(key) => AccountSigner::MlDsa65(MlDsa65Public(
				key.expanded_key().verifying_key().encode().into(),
			)),
			Self::MlDsa87(key) => AccountSigner::MlDsa87(MlDsa87Public(
				key.expanded_key().verifying_key().encode().into(),
			)),
		}
	}

	/// The account this key controls.
	pub fn account_id(&self) -> AccountId32 {
		self.public().account_id()
	}

	/// Hedged signing (FIPS 204 default): fresh randomness `rnd` from the operating system.
	#[cfg(feature = "std")]
	pub fn sign(&self, message: &[u8], purpose: Purpose) -> AccountSignature {
		let mut rnd = [0u8; 32];
		getrandom::fill(&mut rnd).expect("the operating system provides randomness");
		self.sign_with_randomness(message, purpose, rnd)
	}

	/// Deterministic signing (FIPS 204 `rnd = 0³²`): the same signature for the same input.
	pub fn sign_deterministic(&self, message: &[u8], purpose: Purpose) -> AccountSignature {
		self.sign_with_randomness(message, purpose, [0u8; 32])
	}

	/// Signs with caller-chosen `rnd` (FIPS 204 Algorithm 2 with `rnd` given). Ed25519 is
	/// deterministic by construction and ignores `rnd`.
	pub fn sign_with_randomness(
		&self,
		message: &[u8],
		purpose: Purpose,
		rnd: [u8; 32],
	) -> AccountSignature {
		let context = purpose.context();
		let header = pure_header(context).expect("a purpose's context fits in 255 bytes");
		let parts: &[&[u8]] = &[&header, context, message];
		let rnd = rnd.into();
		match self {
			Self::Ed25519(key) => {
				use ed25519_dalek::Signer;
				let signed = ed25519_message(purpose.ed25519_prefix(), message);
				AccountSignature::Ed25519(Ed25519Signature(key.sign(&signed).to_bytes()))
			},
			Self::MlDsa44(key) => AccountSignature::MlDsa44(MlDsa44Signature(
				key.expanded_key().sign_internal(parts, &rnd).encode().into(),
			)),
			Self::MlDsa65(key) => AccountSignature::MlDsa65(MlDsa65Signature(
				key.expanded_key().sign_internal(parts, &rnd).encode().into(),
			)),
			Self::MlDsa87(key) => AccountSignature::MlDsa87(MlDsa87Signature(
				key.expanded_key().sign_internal(parts, &rnd).encode().into(),
			)),
		}
	}

	/// Signs a transaction's signing payload ([`pq_crypto::statement::signing_payload`]) in the
	/// key-inline form: the signature with this key, ready to be a runtime's extrinsic
	/// signature.
	#[cfg(feature = "std")]
	pub fn sign_transaction(&self, signing_payload: &[u8]) -> pq_crypto::TransactionSignature {
		pq_crypto::TransactionSignature::key_inline(
			self.public(),
			self.sign(signing_payload, Purpose::Transaction),
		)
		.expect("a keypair's public key and signature are of the same scheme")
	}
}
