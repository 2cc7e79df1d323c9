//! [`AuthorizePq`]: the transaction extension that authorizes post-quantum-signed general
//! transactions, following polkadot-sdk's `pallet-verify-signature`.
//!
//! It signs over the *inherited implication*: the extension version, the call and every
//! extension after this one (nonce, mortality, tip, …), hashed with blake2-256. Extensions
//! after it therefore give replay protection and bind the fee parameters.

use crate::{
	committee::{aggregate_key, committee_account, shares_read_bound},
	key_cache::with_cache,
	Config, Keys, Pallet, WeightInfo,
};
use codec::{Decode, DecodeWithMemTracking, Encode};
use core::marker::PhantomData;
use polkadot_sdk::{
	frame_support::{
		pallet_prelude::TransactionSource,
		traits::{Get, OriginTrait},
		weights::Weight,
	},
	sp_io::hashing::blake2_256,
	sp_runtime::{
		impl_tx_ext_default,
		traits::{
			transaction_extension::TransactionExtension, AsSystemOriginSigner,
			AsTransactionAuthorizedOrigin, DispatchInfoOf, Dispatchable,
		},
		transaction_validity::{InvalidTransaction, TransactionValidityError, ValidTransaction},
		AccountId32,
	},
};
use pq_crypto::{
	backend::Backend, AggregateSignature, MultiSignature, Purpose, Scheme, SignatureWithKey, VerifyError,
};
use scale_info::TypeInfo;

/// How a transaction is authorized.
#[derive(Clone, Debug, PartialEq, Eq, Encode, Decode, DecodeWithMemTracking, TypeInfo, Default)]
pub enum Authorization {
	/// Not used by this transaction: bare transactions and ordinary signed extrinsics pass
	/// through (the latter only if their signer accepts classical signatures). Encodes as
	/// `0x00`, so wallets unaware of this extension stay compatible:
	///
	/// ```
	/// use codec::Encode;
	/// assert_eq!(pallet_pq_verifier::Authorization::None.encode(), [0u8]);
	/// ```
	#[default]
	None,
	/// The public key travels with the signature; the account must be the key's derived
	/// account. Signed for [`Purpose::ExtensionKeyInline`].
	KeyInline {
		/// The account the transaction is from.
		account: AccountId32,
		/// The signature and its key.
		signed: SignatureWithKey,
	},
	/// The key is the account's registered key. Signed for [`Purpose::ExtensionKeyRegistered`].
	KeyRegistered {
		/// The account the transaction is from.
		account: AccountId32,
		/// The signature by the registered key.
		signature: MultiSignature,
	},
	/// A committee's members signed together; the transaction is from the committee's account
	/// ([`pq_crypto::MultiSigner::AggregateMlDsa87`]). Verified under the aggregate key of the
	/// signer set, for [`Purpose::ExtensionCommittee`].
	Committee(AggregateSignature),
}

/// Why [`AuthorizePq`] refused a transaction, beyond the standard `InvalidTransaction` reasons
/// (`BadProof`: the signature does not verify; `BadSigner`: wrong account or an origin that
/// was already authorized). Carried as `InvalidTransaction::Custom(code)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum PqInvalidTransaction {
	/// The account has no registered key, but the transaction says the key is registered.
	NoRegisteredKey = 1,
	/// The signature is of another scheme than the key.
	SchemeMismatch = 2,
	/// The account migrated to a post-quantum key and refuses Ed25519 signatures.
	ClassicalRefused = 3,
	/// The Ed25519 key is not a valid curve point or is of small order.
	InvalidKey = 4,
	/// An aggregate signature in the key-inline or registered form; committees sign with
	/// [`Authorization::Committee`].
	AggregateUnsupported = 5,
	/// No committee has the id the aggregate signature names.
	UnknownCommittee = 6,
	/// The signer bitfield is not the canonical one of the committee (`⌈N/8⌉` bytes, no bit
	/// beyond the last member).
	InvalidSigners = 7,
	/// Fewer members signed than the committee's threshold.
	BelowThreshold = 8,
}

impl PqInvalidTransaction {
	/// The reason carried as `InvalidTransaction::Custom(code)`, for clients naming a refusal.
	pub fn from_code(code: u8) -> Option<Self> {
		[
			Self::NoRegisteredKey,
			Self::SchemeMismatch,
			Self::ClassicalRefused,
			Self::InvalidKey,
			Self::AggregateUnsupported,
			Self::UnknownCommittee,
			Self::InvalidSigners,
			Self::BelowThreshold,
		]
		.into_iter()
			.find(|reason| *reason as u8 == code)
	}
}

impl From<PqInvalidTransaction> for TransactionValidityError {
	fn from(reason: PqInvalidTransaction) -> Self {
		InvalidTransaction::Custom(reason as u8).into()
	}
}

fn refusal(error: VerifyError) -> TransactionValidityError {
	match error {
		VerifyError::BadSignature => InvalidTransaction::BadProof.into(),
		VerifyError::AccountMismatch => InvalidTransaction::BadSigner.into(),
		VerifyError::SchemeMismatch => PqInvalidTransaction::SchemeMismatch.into(),
		VerifyError::InvalidKey => PqInvalidTransaction::InvalidKey.into(),
		VerifyError::AggregateKeyRequired => PqInvalidTransaction::AggregateUnsupported.into(),
	}
}

/// This extension heads the authorization pipeline: nothing before it may have authorized.
fn ensure_unauthorized(origin: &impl AsTransactionAuthorizedOrigin) -> Result<(), TransactionValidityError> {
	if origin.is_transaction_authorized() {
		return Err(InvalidTransaction::BadSigner.into());
	}
	Ok(())
}

/// The transaction extension: an [`Authorization`], verified with `T`'s backend.
///
/// Put it first among the authorizing extensions; the ones after it are signed over. From the
/// test runtime:
#[doc = docify::embed!("src/mock.rs", extension_pipeline)]
#[derive(Encode, Decode, DecodeWithMemTracking, TypeInfo)]
#[scale_info(skip_type_params(T))]
pub struct AuthorizePq<T>(pub Authorization, #[codec(skip)] PhantomData<T>);

impl<T> AuthorizePq<T> {
	/// Wraps an authorization.
	pub fn new(authorization: Authorization) -> Self {
		Self(authorization, PhantomData)
	}
}

// Written out rather than derived: derives would demand the same traits of `T`.
impl<T> Clone for AuthorizePq<T> {
	fn clone(&self) -> Self {
		Self::new(self.0.clone())
	}
}

impl<T> PartialEq for AuthorizePq<T> {
	fn eq(&self, other: &Self) -> bool {
		self.0 == other.0
	}
}

impl<T> Eq for AuthorizePq<T> {}

impl<T> core::fmt::Debug for AuthorizePq<T> {
	fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
		self.0.fmt(f)
	}
}

impl<T: Config + Send + Sync> TransactionExtension<T::RuntimeCall> for AuthorizePq<T>
where
	<T::RuntimeCall as Dispatchable>::RuntimeOrigin:
		AsTransactionAuthorizedOrigin + AsSystemOriginSigner<AccountId32> + Clone,
{
	const IDENTIFIER: &'static str = "AuthorizePq";
	type Implicit = ();
	type Val = ();
	type Pre = ();

	/// Storage read (registered form, or the classical-refusal check) + decode + verify, from
	/// the benchmarks of each scheme and form.
	fn weight(&self, _call: &T::RuntimeCall) -> Weight {
		match &self.0 {
			Authorization::None => T::WeightInfo::authorize_none(),
			Authorization::KeyInline { signed, .. } => match signed {
				SignatureWithKey::Ed25519(_) => T::WeightInfo::authorize_inline_ed25519(),
				SignatureWithKey::MlDsa44(..) => T::WeightInfo::authorize_inline_ml_dsa_44(),
				SignatureWithKey::MlDsa65(..) => T::WeightInfo::authorize_inline_ml_dsa_65(),
				SignatureWithKey::MlDsa87(..) => T::WeightInfo::authorize_inline_ml_dsa_87(),
			},
			Authorization::KeyRegistered { signature, .. } => match signature.scheme() {
				Scheme::MlDsa44 => T::WeightInfo::authorize_registered_ml_dsa_44(),
				Scheme::MlDsa65 => T::WeightInfo::authorize_registered_ml_dsa_65(),
				Scheme::MlDsa87 => T::WeightInfo::authorize_registered_ml_dsa_87(),
				// Refused after one storage read at most.
				Scheme::Ed25519 | Scheme::AggregateMlDsa87 => T::WeightInfo::authorize_none(),
			},
			// Committee read, at most this many share reads, `pk*` derivation, decode, verify.
			Authorization::Committee(aggregate) =>
				T::WeightInfo::authorize_committee(shares_read_bound(&aggregate.signers)),
		}
	}

	fn validate(
		&self,
		mut origin: <T::RuntimeCall as Dispatchable>::RuntimeOrigin,
		_call: &T::RuntimeCall,
		_info: &DispatchInfoOf<T::RuntimeCall>,
		_len: usize,
		_self_implicit: (),
		inherited_implication: &impl Encode,
		_source: TransactionSource,
	) -> Result<
		(ValidTransaction, (), <T::RuntimeCall as Dispatchable>::RuntimeOrigin),
		TransactionValidityError,
	> {
		match &self.0 {
			Authorization::None => {
				// An ordinary signed extrinsic: its signature was checked before extensions
				// run. For a migrated account it can only have been Ed25519 (see the crate's
				// Assumptions), so honour the account's refusal.
				if let Some(who) = origin.as_system_origin_signer() {
					if !Pallet::<T>::accepts_classical(who) {
						return Err(PqInvalidTransaction::ClassicalRefused.into());
					}
				}
			},
			Authorization::KeyInline { account, signed } => {
				ensure_unauthorized(&origin)?;
				if matches!(signed, SignatureWithKey::Ed25519(_)) && !Pallet::<T>::accepts_classical(account) {
					return Err(PqInvalidTransaction::ClassicalRefused.into());
				}
				let message = inherited_implication.using_encoded(blake2_256);
				let (signer, signature) = signed.clone().into_parts(account);
				with_cache::<T::Backend, _>(T::KeyCacheBytes::get(), |cache| {
					cache.verify_for_account(account, &signer, &signature, &message, Purpose::ExtensionKeyInline)
				})
				.map_err(refusal)?;
				origin.set_caller_from_signed(account.clone());
			},
			Authorization::KeyRegistered { account, signature } => {
				ensure_unauthorized(&origin)?;
				if matches!(signature, MultiSignature::AggregateMlDsa87(_)) {
					return Err(PqInvalidTransaction::AggregateUnsupported.into());
				}
				let registered = Keys::<T>::get(account).ok_or(PqInvalidTransaction::NoRegisteredKey)?;
				let message = inherited_implication.using_encoded(blake2_256);
				with_cache::<T::Backend, _>(T::KeyCacheBytes::get(), |cache| {
					cache.verify(&registered.key, signature, &message, Purpose::ExtensionKeyRegistered)
				})
				.map_err(refusal)?;
				origin.set_caller_from_signed(account.clone());
			},
			Authorization::Committee(aggregate) => {
				ensure_unauthorized(&origin)?;
				let aggregate_key = aggregate_key::<T>(&aggregate.committee, &aggregate.signers)?;
				let message = inherited_implication.using_encoded(blake2_256);
				// Repeated signer sets hit the decoded-key cache (through `Native`, the node's,
				// which also keeps each committee's matrix).
				with_cache::<T::Backend, _>(T::KeyCacheBytes::get(), |cache| {
					T::Backend::verify_aggregate(
						cache,
						&aggregate_key,
						&message,
						Purpose::ExtensionCommittee,
						&aggregate.signature,
					)
				})
				.map_err(refusal)?;
				origin.set_caller_from_signed(committee_account(&aggregate.committee));
			},
		}
		Ok((ValidTransaction::default(), (), origin))
	}

	impl_tx_ext_default!(T::RuntimeCall; prepare);
}
