//! The self-contained signed form: a runtime's extrinsic `Signature` type.
//!
//! A runtime's `UncheckedExtrinsic` checks `signature.verify(payload, &account)`. For Ed25519
//! the account *is* the key; for ML-DSA the account is derived from the key
//! ([`crate::account`]), so the key has to travel with the signature. [`TransactionSignature`]
//! carries both, checks that the key may sign for the account ([`SignatureWithKey::bind`]), and
//! verifies over the payload with the [`Purpose::Transaction`] context.

use crate::{
	account::edwards,
	backend::Backend,
	keys::*,
	multi::{MultiSignature, MultiSigner},
	params::{MlDsa44, MlDsa65, MlDsa87},
	verify::KeyDigest,
	Purpose, Scheme, VerifyError,
};
use codec::{Decode, DecodeWithMemTracking, Encode, MaxEncodedLen};
use core::marker::PhantomData;
use polkadot_sdk::sp_runtime::{
	traits::{Lazy, Verify},
	AccountId32,
};
use scale_info::TypeInfo;

/// A signature together with the key it verifies under (Ed25519 keys are the account itself).
#[allow(clippy::large_enum_variant)] // A fixed-size wire type: inline bytes, no allocation per decode.
#[derive(
	Clone, Debug, PartialEq, Eq, Encode, Decode, DecodeWithMemTracking, MaxEncodedLen, TypeInfo,
)]
pub enum SignatureWithKey {
	/// Ed25519: the signer's account id is its public key.
	Ed25519(Ed25519Signature),
	/// ML-DSA-44 key and signature.
	MlDsa44(MlDsa44Public, MlDsa44Signature),
	/// ML-DSA-65 key and signature.
	MlDsa65(MlDsa65Public, MlDsa65Signature),
	/// ML-DSA-87 key and signature.
	MlDsa87(MlDsa87Public, MlDsa87Signature),
}

impl SignatureWithKey {
	/// Pairs a key with a signature of the same scheme; `None` for mismatched schemes and for
	/// aggregates, which need the committee's shares and cannot be self-contained.
	pub fn new(signer: MultiSigner, signature: MultiSignature) -> Option<Self> {
		Some(match (signer, signature) {
			(MultiSigner::Ed25519(_), MultiSignature::Ed25519(signature)) => Self::Ed25519(signature),
			(MultiSigner::MlDsa44(key), MultiSignature::MlDsa44(signature)) => Self::MlDsa44(key, signature),
			(MultiSigner::MlDsa65(key), MultiSignature::MlDsa65(signature)) => Self::MlDsa65(key, signature),
			(MultiSigner::MlDsa87(key), MultiSignature::MlDsa87(signature)) => Self::MlDsa87(key, signature),
			_ => return None,
		})
	}

	/// The scheme of the key and signature.
	pub fn scheme(&self) -> Scheme {
		match self {
			Self::Ed25519(_) => Scheme::Ed25519,
			Self::MlDsa44(..) => Scheme::MlDsa44,
			Self::MlDsa65(..) => Scheme::MlDsa65,
			Self::MlDsa87(..) => Scheme::MlDsa87,
		}
	}

	/// Splits into the signer (given the claimed account, which is the key for Ed25519) and
	/// the signature.
	pub fn into_parts(self, account: &AccountId32) -> (MultiSigner, MultiSignature) {
		match self {
			Self::Ed25519(signature) => (ed25519_signer(account), MultiSignature::Ed25519(signature)),
			Self::MlDsa44(key, signature) => (MultiSigner::MlDsa44(key), MultiSignature::MlDsa44(signature)),
			Self::MlDsa65(key, signature) => (MultiSigner::MlDsa65(key), MultiSignature::MlDsa65(signature)),
			Self::MlDsa87(key, signature) => (MultiSigner::MlDsa87(key), MultiSignature::MlDsa87(signature)),
		}
	}

	/// The stateless half of the check, cheap and done before anything else: whether the key
	/// may sign for `account`, and if so its digest (for the caches). An ML-DSA key must derive
	/// the account ([`VerifyError::AccountMismatch`]); an Ed25519 signature's account is its
	/// key, so it must be an edwards25519 encoding ([`VerifyError::InvalidKey`]) — which no
	/// post-quantum account id is ([`crate::account`]), so a classical signature never reaches
	/// verification for one.
	pub fn bind(&self, account: &AccountId32) -> Result<KeyDigest, VerifyError> {
		let digest = match self {
			Self::Ed25519(_) if !edwards::decodes_as_point(account.as_ref()) => return Err(VerifyError::InvalidKey),
			Self::Ed25519(_) => return Ok(KeyDigest::of(&ed25519_signer(account))),
			Self::MlDsa44(key, _) => KeyDigest::of_ml_dsa::<MlDsa44>(key),
			Self::MlDsa65(key, _) => KeyDigest::of_ml_dsa::<MlDsa65>(key),
			Self::MlDsa87(key, _) => KeyDigest::of_ml_dsa::<MlDsa87>(key),
		};
		(digest.account_id() == *account).then_some(digest).ok_or(VerifyError::AccountMismatch)
	}

	/// Verifies that the key may sign for `account` ([`Self::bind`]) and the signature covers
	/// `message` for `purpose`, with backend `B`.
	pub fn verify<B: Backend>(
		&self,
		message: &[u8],
		account: &AccountId32,
		purpose: Purpose,
	) -> Result<(), VerifyError> {
		self.bind(account)?;
		let (signer, signature) = self.clone().into_parts(account);
		signature.verify::<B>(&signer, message, purpose)
	}
}

/// An Ed25519 account's key: the account id itself.
fn ed25519_signer(account: &AccountId32) -> MultiSigner {
	MultiSigner::Ed25519(Ed25519Public(*<AccountId32 as AsRef<[u8; 32]>>::as_ref(account)))
}

/// [`SignatureWithKey`] verified with backend `B`, for use as a runtime's `Signature` type.
///
/// The backend is a type parameter, so it costs nothing on the wire: the encoding is that of
/// [`SignatureWithKey`].
#[derive(Encode, Decode, DecodeWithMemTracking, MaxEncodedLen)]
pub struct TransactionSignature<B> {
	/// The signature and its key.
	pub signed: SignatureWithKey,
	#[codec(skip)]
	backend: PhantomData<B>,
}

/// Described in metadata as what it encodes as, [`SignatureWithKey`]: a one-field wrapper
/// would be a struct to clients, which polkadot.js cannot tell apart from a present signature.
impl<B> TypeInfo for TransactionSignature<B> {
	type Identity = SignatureWithKey;

	fn type_info() -> scale_info::Type {
		SignatureWithKey::type_info()
	}
}

impl<B> TransactionSignature<B> {
	/// Wraps a signature with its key.
	pub fn new(signed: SignatureWithKey) -> Self {
		Self { signed, backend: PhantomData }
	}
}

// Written out rather than derived: derives would demand the same traits of `B`.
impl<B> Clone for TransactionSignature<B> {
	fn clone(&self) -> Self {
		Self::new(self.signed.clone())
	}
}

impl<B> PartialEq for TransactionSignature<B> {
	fn eq(&self, other: &Self) -> bool {
		self.signed == other.signed
	}
}

impl<B> Eq for TransactionSignature<B> {}

impl<B> core::fmt::Debug for TransactionSignature<B> {
	fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
		self.signed.fmt(f)
	}
}

impl<B> From<SignatureWithKey> for TransactionSignature<B> {
	fn from(signed: SignatureWithKey) -> Self {
		Self::new(signed)
	}
}

impl<B: Backend> Verify for TransactionSignature<B> {
	type Signer = MultiSigner;

	fn verify<L: Lazy<[u8]>>(&self, mut message: L, account: &AccountId32) -> bool {
		self.signed.verify::<B>(message.get(), account, Purpose::Transaction).is_ok()
	}
}
