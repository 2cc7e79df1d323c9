//! Verification: from a key and a signature of any scheme to a verdict, in one place.
//!
//! - [`KeyDigest`]: a key's scheme and a hash of it, the seed of its account derivation — the
//!   index of the decoded-key caches, and where the account binding starts.
//! - [`Signed`]: what a signature is checked over, a message in a [`Domain`]; the bytes each
//!   scheme signs are formatted by [`crate::message`].
//! - [`DecodedKey`]: a key decoded by a backend and the one per-scheme dispatch to it, used by
//!   [`AccountSignature::verify`] and [`crate::cache::KeyCache`].

use crate::{
	backend::{Backend, Ed25519Verifier, MlDsaVerifier},
	keys::MlDsa87Public,
	params::{match_ml_dsa, MlDsa44, MlDsa65, MlDsa87, MlDsaParams},
	signer::{AccountSignature, AccountSigner},
	Domain, Purpose, Scheme, VerifyError,
};
use polkadot_sdk::sp_runtime::AccountId32;

/// Identifies a public key: its scheme and a collision-resistant digest of it — for Ed25519
/// the key itself, otherwise `blake2_256(tag ‖ key)`, the seed its account id is derived from
/// ([`crate::account`]). One hash, never the derivation's candidates: a key ground for a long
/// derivation costs its cache lookups nothing more, so only binding an account to a key
/// ([`crate::transaction::bind`], charged by its candidates) derives. The scheme keeps the
/// namespaces apart: an Ed25519 key *is* its 32 bytes, the others are hashes, and the two
/// could be equal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct KeyDigest {
	scheme: Scheme,
	digest: [u8; 32],
}

impl KeyDigest {
	/// The digest of `signer`.
	pub fn of(signer: &AccountSigner) -> Self {
		Self { scheme: signer.scheme(), digest: signer.derivation_seed() }
	}

	/// The digest of an ML-DSA key of parameter set `P`, without wrapping it in a
	/// [`AccountSigner`].
	pub fn of_ml_dsa<P: MlDsaParams>(public: &P::Public) -> Self {
		Self {
			scheme: P::SCHEME,
			digest: crate::account::version_1(P::ACCOUNT_TAG, public.as_ref()),
		}
	}

	/// The digest's 32 bytes.
	pub fn as_bytes(&self) -> &[u8; 32] {
		&self.digest
	}

	/// The account id the key controls, and how many derivation candidates finding it tried
	/// (none for an Ed25519 key, which is its account): what [`AccountSigner::account_derivation`]
	/// gives, without hashing the key again.
	pub fn account_derivation(&self) -> (AccountId32, u32) {
		match self.scheme {
			Scheme::Ed25519 => (AccountId32::new(self.digest), 0),
			_ => crate::account::derive_counted_from_seed(self.digest),
		}
	}
}

/// What a signature is checked over: a message in a [`Domain`].
#[derive(Clone, Copy, Debug)]
pub enum Signed<'a> {
	/// `message` signed for `purpose` (FIPS 204 pure mode with the purpose's context; for
	/// Ed25519, the purpose's prefix before the message).
	ForPurpose(&'a [u8], Purpose),
	/// `message` in FIPS 204 pure mode with `context`; for Ed25519, `context` before the message.
	WithContext(&'a [u8], &'a [u8]),
	/// For ML-DSA, FIPS 204 Algorithm 8 `Verify_internal` over an already formatted `M′`; for
	/// Ed25519, the message as it is.
	Internal(&'a [u8]),
}

impl<'a> Signed<'a> {
	/// `message` in `domain`.
	pub fn new(message: &'a [u8], domain: &'a Domain) -> Self {
		match domain {
			Domain::Purpose(purpose) => Self::ForPurpose(message, *purpose),
			Domain::Context(context) => Self::WithContext(message, context),
			Domain::Internal => Self::Internal(message),
		}
	}

	/// Whether `signature` verifies over this under `key`, a key decoded by our verifier
	/// ([`fips204`]): Algorithm 3 with the domain's context, or Algorithm 8 over `M′`.
	pub fn verify_with<P: MlDsaParams>(
		&self,
		key: &fips204::VerifyingKey<P>,
		signature: &P::Signature,
	) -> bool {
		let signature = P::encoded_signature(signature);
		match *self {
			Self::ForPurpose(message, purpose) => key.verify(message, purpose.context(), signature),
			Self::WithContext(message, context) => key.verify(message, context, signature),
			Self::Internal(m_prime) => key.verify_internal(m_prime, signature),
		}
	}

	/// Whether `signature` is valid over this with an ML-DSA key of level `P` decoded by `B`.
	fn verify_ml_dsa<B: MlDsaVerifier<P>, P: MlDsaParams>(
		self,
		key: &B::DecodedKey,
		signature: &P::Signature,
	) -> bool {
		match self {
			Self::ForPurpose(message, purpose) => {
				B::verify_decoded(key, message, purpose.context(), signature)
			},
			Self::WithContext(message, context) => {
				B::verify_decoded(key, message, context, signature)
			},
			Self::Internal(message) => B::verify_internal(key, message, signature),
		}
	}

	/// Whether `signature` is valid over this under the ML-DSA key `public` of level `P`, by
	/// `B` without keeping a decoded key ([`MlDsaVerifier::verify`]; Algorithm 8 over a
	/// formatted `M′`, which only test vectors use, decodes).
	fn verify_ml_dsa_once<B: MlDsaVerifier<P>, P: MlDsaParams>(
		self,
		public: &P::Public,
		signature: &P::Signature,
	) -> bool {
		match self {
			Self::ForPurpose(message, purpose) => {
				B::verify(public, message, purpose.context(), signature)
			},
			Self::WithContext(message, context) => B::verify(public, message, context, signature),
			Self::Internal(message) => {
				B::verify_internal(&B::decode_key(public), message, signature)
			},
		}
	}

	/// Ed25519's `(prefix, message)`.
	fn ed25519_parts(&self) -> (&'a [u8], &'a [u8]) {
		match *self {
			Self::ForPurpose(message, purpose) => (purpose.ed25519_prefix(), message),
			Self::WithContext(message, context) => (context, message),
			Self::Internal(message) => (&[], message),
		}
	}
}

/// A key decoded by backend `B`, as the cache holds it.
pub enum DecodedKey<B: Backend> {
	/// An Ed25519 key.
	Ed25519(<B as Ed25519Verifier>::DecodedKey),
	/// An ML-DSA-44 key.
	MlDsa44(<B as MlDsaVerifier<MlDsa44>>::DecodedKey),
	/// An ML-DSA-65 key.
	MlDsa65(<B as MlDsaVerifier<MlDsa65>>::DecodedKey),
	/// An ML-DSA-87 key.
	MlDsa87(<B as MlDsaVerifier<MlDsa87>>::DecodedKey),
}

impl<B: Backend> DecodedKey<B> {
	/// Decodes `signer`; an aggregate needs its derived key, an Ed25519 key must be valid.
	pub fn decode(signer: &AccountSigner) -> Result<Self, VerifyError> {
		Ok(match signer {
			AccountSigner::Ed25519(key) => Self::Ed25519(
				<B as Ed25519Verifier>::decode_key(key).ok_or(VerifyError::InvalidKey)?,
			),
			AccountSigner::MlDsa44(key) => {
				Self::MlDsa44(<B as MlDsaVerifier<MlDsa44>>::decode_key(key))
			},
			AccountSigner::MlDsa65(key) => {
				Self::MlDsa65(<B as MlDsaVerifier<MlDsa65>>::decode_key(key))
			},
			AccountSigner::MlDsa87(key) => {
				Self::MlDsa87(<B as MlDsaVerifier<MlDsa87>>::decode_key(key))
			},
			AccountSigner::AggregateMlDsa87(_) => return Err(VerifyError::AggregateKeyRequired),
		})
	}

	/// Bytes the decoded key occupies, for a cache's byte budget.
	pub fn bytes(&self) -> usize {
		match_ml_dsa!(self, {
			Self::MlDsa(_) as P => <B as MlDsaVerifier<P>>::DECODED_KEY_BYTES,
			Self::Ed25519(_) => core::mem::size_of::<<B as Ed25519Verifier>::DecodedKey>(),
		})
	}

	/// Verifies `signature` with this key.
	pub fn verify(
		&self,
		signature: &AccountSignature,
		signed: Signed<'_>,
	) -> Result<(), VerifyError> {
		let valid = match_ml_dsa!((self, signature), {
			(Self::MlDsa(key), AccountSignature::MlDsa(signature)) as P => {
				signed.verify_ml_dsa::<B, P>(key, signature)
			},
			(Self::Ed25519(key), AccountSignature::Ed25519(signature)) => {
				let (prefix, message) = signed.ed25519_parts();
				<B as Ed25519Verifier>::verify_decoded(key, prefix, message, signature)
			},
			_ => return Err(VerifyError::SchemeMismatch),
		});
		valid.then_some(()).ok_or(VerifyError::BadSignature)
	}
}

impl AccountSignature {
	/// Decodes `signer` and verifies this signature over `message` for `purpose`, without a
	/// cache ([`crate::cache::KeyCache::verify`] keeps decoded keys).
	///
	/// Aggregate signatures need the aggregate key derived from the committee's shares; use
	/// [`crate::AggregateSignature::verify`] for them (this returns
	/// [`VerifyError::AggregateKeyRequired`]).
	pub fn verify<B: Backend>(
		&self,
		signer: &AccountSigner,
		message: &[u8],
		purpose: Purpose,
	) -> Result<(), VerifyError> {
		self.verify_signed::<B>(signer, Signed::ForPurpose(message, purpose))
	}

	/// [`Self::verify`] in any `domain`.
	pub fn verify_in_domain<B: Backend>(
		&self,
		signer: &AccountSigner,
		message: &[u8],
		domain: &Domain,
	) -> Result<(), VerifyError> {
		self.verify_signed::<B>(signer, Signed::new(message, domain))
	}

	/// The schemes are compared before the key is decoded: a mismatched pair costs nothing.
	fn verify_signed<B: Backend>(
		&self,
		signer: &AccountSigner,
		signed: Signed<'_>,
	) -> Result<(), VerifyError> {
		if signer.scheme() != self.scheme() {
			return Err(VerifyError::SchemeMismatch);
		}
		self.verify_once::<B>(signer, signed)
	}

	/// Verifies this signature by `signer` (of the same scheme) over `signed`, keeping nothing
	/// of the key: an ML-DSA key through [`MlDsaVerifier::verify`], the rest as
	/// [`DecodedKey`]s.
	pub(crate) fn verify_once<B: Backend>(
		&self,
		signer: &AccountSigner,
		signed: Signed<'_>,
	) -> Result<(), VerifyError> {
		let valid = match_ml_dsa!((signer, self), {
			(AccountSigner::MlDsa(public), AccountSignature::MlDsa(signature)) as P => {
				signed.verify_ml_dsa_once::<B, P>(public, signature)
			},
			_ => return DecodedKey::<B>::decode(signer)?.verify(self, signed),
		});
		valid.then_some(()).ok_or(VerifyError::BadSignature)
	}
}

impl crate::AggregateSignature {
	/// Verifies against the aggregate key `pk*` derived for its signers: exactly one FIPS 204
	/// ML-DSA-87 verification.
	pub fn verify<B: MlDsaVerifier<MlDsa87>>(
		&self,
		aggregate_key: &MlDsa87Public,
		message: &[u8],
		purpose: Purpose,
	) -> bool {
		B::verify(aggregate_key, message, purpose.context(), &self.signature)
	}
}
