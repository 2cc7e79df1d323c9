//! [`AuthorizePq`]: the transaction extension that authorizes post-quantum-signed general
//! transactions, following polkadot-sdk's `pallet-verify-signature`.
//!
//! Every form signs an [`AuthorizationStatement`]: this chain's genesis hash, the form and who
//! it authorizes (the account, or the committee and its exact signer set), and the blake2-256
//! hash of the *inherited implication* — the extension version, the call and every extension
//! after this one (nonce, mortality, tip, …). Extensions after it therefore give replay
//! protection and bind the fee parameters, and a signature authorizes one account only, even
//! when one key is registered for several.
//!
//! Validation does the cheap checks first — the form, the account's key rule, the committee
//! and its signer set, whether the sender can pay ([`FeeCheck`]) — and only then reads shares,
//! decodes a key and verifies.

use crate::{
	committee::{shares_read_bound, Committee},
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
	backend::Backend,
	statement::{AuthorizationStatement, Authorizer},
	AggregateSignature, MultiSignature, Scheme, SignatureWithKey, VerifyError,
};
use scale_info::TypeInfo;

/// How a transaction is authorized.
#[derive(Clone, Debug, PartialEq, Eq, Encode, Decode, DecodeWithMemTracking, TypeInfo, Default)]
pub enum Authorization {
	/// Not used by this transaction: bare transactions and ordinary signed extrinsics pass
	/// through (the latter unless their signer accepts only its registered key). Encodes as
	/// `0x00`. A wallet must still know the extension to put that byte in: polkadot.js leaves
	/// out extensions it does not know (pass `signedExtensions` to `ApiPromise.create`) and
	/// polkadot-api asks for its value (`customSignedExtensions`); see `docs/wire-format.md`
	/// and the JavaScript client, which does both.
	///
	/// ```
	/// use codec::Encode;
	/// assert_eq!(pallet_pq_verifier::Authorization::None.encode(), [0u8]);
	/// ```
	#[default]
	None,
	/// The public key travels with the signature; the account must be the key's derived
	/// account. Signed for [`Purpose::ExtensionKeyInline`](pq_crypto::Purpose::ExtensionKeyInline).
	KeyInline {
		/// The account the transaction is from.
		account: AccountId32,
		/// The signature and its key.
		signed: SignatureWithKey,
	},
	/// The key is the account's registered key. Signed for
	/// [`Purpose::ExtensionKeyRegistered`](pq_crypto::Purpose::ExtensionKeyRegistered).
	KeyRegistered {
		/// The account the transaction is from.
		account: AccountId32,
		/// The signature by the registered key.
		signature: MultiSignature,
	},
	/// A committee's members signed together; the transaction is from the committee's account
	/// ([`pq_crypto::MultiSigner::AggregateMlDsa87`]). Verified under the aggregate key of the
	/// signer set, for [`Purpose::ExtensionCommittee`](pq_crypto::Purpose::ExtensionCommittee).
	Committee(AggregateSignature),
}

/// Why [`AuthorizePq`] refused a transaction, beyond the standard `InvalidTransaction` reasons
/// (`BadProof`: the signature does not verify; `BadSigner`: wrong account or an origin that
/// was already authorized). Carried as `InvalidTransaction::Custom(code)`; the code is also the
/// reason's SCALE encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Encode, Decode)]
#[repr(u8)]
pub enum PqInvalidTransaction {
	/// The account has no registered key, but the transaction says the key is registered.
	NoRegisteredKey = 1,
	/// The signature is of another scheme than the key.
	SchemeMismatch = 2,
	/// The account accepts only its registered key ([`Authorization::KeyRegistered`]): it
	/// migrated and refuses every other key, in every form.
	OnlyRegisteredKey = 3,
	/// The Ed25519 key is not a valid curve point or is of small order. An Ed25519 signature's
	/// key is its account, so this is also the refusal of every classical signature for a
	/// post-quantum account, whose id is never a curve point (`pq_crypto::account`).
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
	/// The bytes are not an extrinsic of this runtime (refused by a runtime's extrinsic type
	/// that decodes every length-prefixed body, as `pq-runtime`'s does, instead of trapping).
	Undecodable = 9,
}

impl PqInvalidTransaction {
	/// The reason carried as `InvalidTransaction::Custom(code)`, for clients naming a refusal.
	pub fn from_code(code: u8) -> Option<Self> {
		// A fieldless enum's SCALE index is its discriminant.
		Self::decode(&mut &[code][..]).ok()
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

/// Whether an account can pay a transaction's fee, asked by [`AuthorizePq`] before anything
/// expensive. A runtime answers with its payment pallet, as `pq-runtime` does. It must never
/// refuse a sender the payment extension after [`AuthorizePq`] would accept — that would refuse
/// transactions that pay — so check the fee without the tip, a lower bound of what is charged.
pub trait FeeCheck<Call: Dispatchable> {
	/// `Ok` if `who` can pay the fee of `call` (without tip) at `info` and `len`; otherwise the
	/// refusal the payment extension would give, normally `InvalidTransaction::Payment`.
	fn can_pay(who: &AccountId32, call: &Call, info: &DispatchInfoOf<Call>, len: usize) -> Result<(), TransactionValidityError>;
}

/// No check: every transaction is verified whether or not its sender can pay.
impl<Call: Dispatchable> FeeCheck<Call> for () {
	fn can_pay(_: &AccountId32, _: &Call, _: &DispatchInfoOf<Call>, _: usize) -> Result<(), TransactionValidityError> {
		Ok(())
	}
}

/// How a transaction's signature is checked, as far as its weight goes: the form and the
/// scheme, and for a committee the most shares its signer set can make the chain read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SignatureCheck {
	/// An ordinary signed extrinsic: its key travels with it, decode + verify. It is checked
	/// before any extension runs, so [`AuthorizePq`] cannot charge it; a runtime's extrinsic
	/// type adds this to the dispatch info instead (as `pq-runtime`'s does), rather than a base
	/// weight that assumes the costliest scheme.
	Signed(Scheme),
	/// [`Authorization::KeyInline`].
	KeyInline(Scheme),
	/// [`Authorization::KeyRegistered`].
	KeyRegistered(Scheme),
	/// [`Authorization::Committee`] reading at most `share_reads` shares.
	Committee {
		/// The bound of [`shares_read_bound`].
		share_reads: u32,
	},
}

impl SignatureCheck {
	/// The check of `authorization`; `None` for [`Authorization::None`], which checks nothing.
	pub fn of(authorization: &Authorization) -> Option<Self> {
		Some(match authorization {
			Authorization::None => return None,
			Authorization::KeyInline { signed, .. } => Self::KeyInline(signed.scheme()),
			Authorization::KeyRegistered { signature, .. } => Self::KeyRegistered(signature.scheme()),
			Authorization::Committee(aggregate) =>
				Self::Committee { share_reads: shares_read_bound(&aggregate.signers) },
		})
	}

	/// Storage reads (the account's key rule or registered key, the genesis hash, the fee
	/// check's balance, a committee and its shares) + decode + verify, from the benchmarks of
	/// each scheme and form: the one mapping from a check to its weight, used by
	/// [`AuthorizePq`], the runtime's extrinsic type and the reports.
	pub fn weight<W: WeightInfo>(self) -> Weight {
		use Scheme::*;
		match self {
			Self::Signed(Ed25519) => W::verify_signed_ed25519(),
			Self::Signed(MlDsa44) => W::verify_signed_ml_dsa_44(),
			Self::Signed(MlDsa65) => W::verify_signed_ml_dsa_65(),
			Self::Signed(MlDsa87) => W::verify_signed_ml_dsa_87(),
			Self::KeyInline(Ed25519) => W::authorize_inline_ed25519(),
			Self::KeyInline(MlDsa44) => W::authorize_inline_ml_dsa_44(),
			Self::KeyInline(MlDsa65) => W::authorize_inline_ml_dsa_65(),
			Self::KeyInline(MlDsa87) => W::authorize_inline_ml_dsa_87(),
			Self::KeyRegistered(MlDsa44) => W::authorize_registered_ml_dsa_44(),
			Self::KeyRegistered(MlDsa65) => W::authorize_registered_ml_dsa_65(),
			Self::KeyRegistered(MlDsa87) => W::authorize_registered_ml_dsa_87(),
			// Committee read, at most this many share reads, `pk*` derivation, decode, verify.
			Self::Committee { share_reads } => W::authorize_committee(share_reads),
			// No key of these schemes can be registered, and no aggregate travels with its key:
			// refused after one storage read at most.
			Self::KeyRegistered(Ed25519 | AggregateMlDsa87) |
			Self::Signed(AggregateMlDsa87) |
			Self::KeyInline(AggregateMlDsa87) => W::authorize_none(),
		}
	}
}

/// The checks an ordinary signed extrinsic gets before its signature is verified: those of
/// [`AuthorizePq`]'s key-inline form, in its order — the key may sign for the account
/// ([`SignatureWithKey::bind`]: no hashing beyond the key's, no read), the account does not
/// accept only its registered key (one read), and it can pay ([`Config::FeeCheck`]).
///
/// An ordinary signature is verified when the extrinsic is checked, before any transaction
/// extension runs, so [`AuthorizePq`] cannot put these first; a runtime calls this from its
/// extrinsic type's `Checkable::check`, as `pq-runtime`'s does. Without it, an account that
/// cannot pay gets a full ML-DSA verification for free, and a classical signature for a
/// post-quantum account is refused only as a signature that does not verify.
pub fn check_signed_before_verification<T: Config>(
	who: &AccountId32,
	signed: &SignatureWithKey,
	call: &T::RuntimeCall,
	info: &DispatchInfoOf<T::RuntimeCall>,
	len: usize,
) -> Result<(), TransactionValidityError> {
	signed.bind(who).map_err(refusal)?;
	refuse_other_keys::<T>(who)?;
	T::FeeCheck::can_pay(who, call, info, len)
}

/// Refuses every key but the registered one for an account that accepts only that.
fn refuse_other_keys<T: Config>(who: &AccountId32) -> Result<(), TransactionValidityError> {
	if Pallet::<T>::only_registered_key(who) {
		return Err(PqInvalidTransaction::OnlyRegisteredKey.into());
	}
	Ok(())
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

	/// [`SignatureCheck::weight`]; without a signature, the read of the account's key rule.
	fn weight(&self, _call: &T::RuntimeCall) -> Weight {
		SignatureCheck::of(&self.0).map_or_else(T::WeightInfo::authorize_none, SignatureCheck::weight::<T::WeightInfo>)
	}

	fn validate(
		&self,
		mut origin: <T::RuntimeCall as Dispatchable>::RuntimeOrigin,
		call: &T::RuntimeCall,
		info: &DispatchInfoOf<T::RuntimeCall>,
		len: usize,
		_self_implicit: (),
		inherited_implication: &impl Encode,
		_source: TransactionSource,
	) -> Result<
		(ValidTransaction, (), <T::RuntimeCall as Dispatchable>::RuntimeOrigin),
		TransactionValidityError,
	> {
		let statement = |authorizer| AuthorizationStatement::new(Pallet::<T>::genesis_hash(), authorizer, inherited_implication);
		let can_pay = |who| T::FeeCheck::can_pay(who, call, info, len);
		match &self.0 {
			Authorization::None => {
				// An ordinary signed extrinsic: its signature was checked before extensions
				// run, by a key the account is (Ed25519) or is derived from (ML-DSA), never by
				// the registered key of a migrated account.
				if let Some(who) = origin.as_system_origin_signer() {
					refuse_other_keys::<T>(who)?;
				}
			},
			Authorization::KeyInline { account, signed } => {
				ensure_unauthorized(&origin)?;
				// Stateless: an ML-DSA key derives the account; an Ed25519 account is a curve
				// point, which no post-quantum account is.
				let digest = signed.bind(account).map_err(refusal)?;
				// The inline key derives the account, so it is never a migrated account's
				// registered key.
				refuse_other_keys::<T>(account)?;
				can_pay(account)?;
				let (signer, signature) = signed.clone().into_parts(account);
				let statement = statement(Authorizer::KeyInline(account));
				with_cache::<T::Backend, _>(T::KeyCacheBytes::get(), |cache| {
					cache.verify_digested(digest, &signer, &signature, &statement.message(), statement.purpose())
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
				if registered.key.scheme() != signature.scheme() {
					return Err(PqInvalidTransaction::SchemeMismatch.into());
				}
				can_pay(account)?;
				let statement = statement(Authorizer::KeyRegistered(account));
				with_cache::<T::Backend, _>(T::KeyCacheBytes::get(), |cache| {
					cache.verify(&registered.key, signature, &statement.message(), statement.purpose())
				})
				.map_err(refusal)?;
				origin.set_caller_from_signed(account.clone());
			},
			Authorization::Committee(aggregate) => {
				ensure_unauthorized(&origin)?;
				let committee = Committee::<T>::signed_by(&aggregate.committee, &aggregate.signers)?;
				let account = aggregate.committee.account_id();
				// A committee's account may have migrated to a single key, like any other.
				refuse_other_keys::<T>(&account)?;
				can_pay(&account)?;
				let statement = statement(Authorizer::Committee(&aggregate.committee, &aggregate.signers));
				let (message, purpose, signer_set) = (statement.message(), statement.purpose(), aggregate.signer_set());
				// A signer set whose signature verified before has its key at the node (through
				// `Native`): no share is read. Otherwise the key is derived from the shares, and
				// repeated signer sets hit the decoded-key caches (`Native`: the node's, which
				// also keeps each committee's matrix). Weights charge the derivation always.
				let verdict = match T::Backend::verify_known_signer_set(signer_set, &message, purpose, &aggregate.signature) {
					Some(verdict) => verdict,
					None => {
						let aggregate_key = committee.aggregate_key()?;
						with_cache::<T::Backend, _>(T::KeyCacheBytes::get(), |cache| {
							cache.verify_aggregate(signer_set, &aggregate_key, &message, purpose, &aggregate.signature)
						})
					},
				};
				verdict.map_err(refusal)?;
				origin.set_caller_from_signed(account);
			},
		}
		Ok((ValidTransaction::default(), (), origin))
	}

	impl_tx_ext_default!(T::RuntimeCall; prepare);
}
