//! Authorization: whether a signed transaction's [`TransactionSignature`] lets its address
//! act, in the order that makes a refusal cheap.
//!
//! Every form signs a [`TransactionStatement`]: the runtime's standard signed payload (call,
//! explicit and implicit extension data — nonce, era, tip, genesis hash, versions), after who
//! signed (the registered key's account; the committee and its exact signer set). The
//! extensions then give replay protection and bind the fee parameters as for any signed
//! extrinsic, and a signature authorizes one account only, even when one key is registered for
//! several.
//!
//! [`authorize`] does the cheap checks first — the form, the account's key rule, the committee
//! and its signer set, whether the sender can pay ([`FeeCheck`]) — and only then builds the
//! signed payload, reads shares, decodes a key and verifies.

use crate::{
	committee::{shares_read_bound, Committee},
	invalid_transaction::PqInvalidTransaction,
	key_cache::with_cache,
	Config, Keys, Pallet, WeightInfo,
};
use alloc::vec::Vec;
use polkadot_sdk::{
	frame_support::{traits::Get, weights::Weight},
	sp_runtime::{
		traits::{DispatchInfoOf, Dispatchable},
		transaction_validity::{InvalidTransaction, TransactionValidityError},
		AccountId32,
	},
};
use pq_crypto::{
	backend::Backend,
	statement::{Signatory, TransactionStatement},
	transaction::{bind, Form, Parts},
	Scheme, TransactionSignature, VerifyError,
};

fn refusal(error: VerifyError) -> TransactionValidityError {
	match error {
		VerifyError::BadSignature => InvalidTransaction::BadProof.into(),
		VerifyError::AccountMismatch => InvalidTransaction::BadSigner.into(),
		VerifyError::SchemeMismatch => PqInvalidTransaction::SchemeMismatch.into(),
		VerifyError::InvalidKey => PqInvalidTransaction::InvalidKey.into(),
		// Only an aggregate signature asks for an aggregate key, and the committee form
		// verifies it as one: this never happens, and would be a bad proof if it did.
		VerifyError::AggregateKeyRequired => InvalidTransaction::BadProof.into(),
	}
}

/// Whether an account can pay a transaction's fee, asked by [`authorize`] before anything
/// expensive. A runtime answers with its payment pallet, as `pq-runtime` does. It must never
/// refuse a sender the payment extension would accept — that would refuse transactions that
/// pay — so check the fee without the tip, a lower bound of what is charged.
pub trait FeeCheck<Call: Dispatchable> {
	/// `Ok` if `who` can pay the fee of `call` (without tip) at `info` and `len`; otherwise the
	/// refusal the payment extension would give, normally `InvalidTransaction::Payment`.
	fn can_pay(
		who: &AccountId32,
		call: &Call,
		info: &DispatchInfoOf<Call>,
		len: usize,
	) -> Result<(), TransactionValidityError>;
}

/// No check: every transaction is verified whether or not its sender can pay.
impl<Call: Dispatchable> FeeCheck<Call> for () {
	fn can_pay(
		_: &AccountId32,
		_: &Call,
		_: &DispatchInfoOf<Call>,
		_: usize,
	) -> Result<(), TransactionValidityError> {
		Ok(())
	}
}

/// How a transaction's signature is checked, as far as its weight goes: the form and the
/// scheme, and for a committee the most shares its signer set can make the chain read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SignatureCheck {
	/// The key travels with the signature: decode + verify.
	KeyInline(Scheme),
	/// The account's registered key: a read, decode + verify.
	KeyRegistered(Scheme),
	/// A committee reading at most `share_reads` shares.
	Committee {
		/// The bound of [`shares_read_bound`].
		share_reads: u32,
	},
	/// sr25519 or ECDSA: refused unverified.
	Classical,
}

impl SignatureCheck {
	/// The check of `signature`.
	pub fn of(signature: &TransactionSignature) -> Self {
		match signature.form() {
			Form::KeyInline(scheme) => Self::KeyInline(scheme),
			Form::KeyRegistered(scheme) => Self::KeyRegistered(scheme),
			Form::Committee(signers) => Self::Committee { share_reads: shares_read_bound(signers) },
			Form::Classical => Self::Classical,
		}
	}

	/// Storage reads (the account's key rule or registered key, the fee check's balance, a
	/// committee and its shares) + decode + verify, from the benchmarks of each scheme and
	/// form: the one mapping from a check to its weight, used by [`crate::Extrinsic`] and the
	/// reports.
	pub fn weight<W: WeightInfo>(self) -> Weight {
		use Scheme::*;
		match self {
			Self::KeyInline(Ed25519) => W::verify_signed_ed25519(),
			Self::KeyInline(MlDsa44) => W::verify_signed_ml_dsa_44(),
			Self::KeyInline(MlDsa65) => W::verify_signed_ml_dsa_65(),
			Self::KeyInline(MlDsa87) => W::verify_signed_ml_dsa_87(),
			Self::KeyRegistered(MlDsa44) => W::authorize_registered_ml_dsa_44(),
			Self::KeyRegistered(MlDsa65) => W::authorize_registered_ml_dsa_65(),
			Self::KeyRegistered(MlDsa87) => W::authorize_registered_ml_dsa_87(),
			// Committee read, at most this many share reads, `pk*` derivation, decode, verify.
			Self::Committee { share_reads } => W::authorize_committee(share_reads),
			// Refused before anything is read: charged as the cheapest signature, so a fee
			// estimate for a stock wallet's transaction is the one it would pay as Ed25519.
			Self::Classical => W::verify_signed_ed25519(),
			// No such signature exists: no variant carries a registered Ed25519 key or an
			// inline aggregate.
			Self::KeyRegistered(Ed25519 | AggregateMlDsa87) | Self::KeyInline(AggregateMlDsa87) => {
				W::authorize_none()
			},
		}
	}
}

/// Authorizes `who` to send the transaction `signature` signs: the checks that cost nothing or a
/// read first, then `can_pay`, and only then the signed payload (`signing_payload`, the
/// [`pq_crypto::statement::signing_payload`] of the runtime's standard signed payload, built
/// lazily: it encodes the call), the shares and the verification. `can_pay` is asked with the
/// weight to charge beyond the signature check's (zero, or an account derivation's length once
/// known); the weight of the derivation beyond what [`SignatureCheck::weight`] charges
/// ([`derivation_weight`]) is returned.
///
/// - key inline: the account does not accept only its registered key, and — after `can_pay`,
///   since deriving an ML-DSA key's account costs a hash and a Legendre symbol per candidate —
///   the key may sign for it ([`bind`]: an ML-DSA key derives it; an
///   Ed25519 account is its key, a curve point, which no post-quantum account is);
/// - registered: the account has a registered key of the signature's scheme;
/// - committee: the committee exists, the signer set is canonical and reaches its threshold,
///   `who` is its account, which does not accept only a registered key;
/// - sr25519 and ECDSA: refused ([`PqInvalidTransaction::ClassicalSignature`]).
pub fn authorize<T: Config>(
	who: &AccountId32,
	signature: &TransactionSignature,
	signing_payload: impl FnOnce() -> Result<Vec<u8>, TransactionValidityError>,
	can_pay: impl Fn(Weight) -> Result<(), TransactionValidityError>,
) -> Result<Weight, TransactionValidityError> {
	match signature.parts(who) {
		Parts::Classical => Err(PqInvalidTransaction::ClassicalSignature.into()),
		Parts::KeyInline(key, signature) => {
			// The inline key must be (or derive) the account, so it is never a migrated account's
			// registered key.
			refuse_other_keys::<T>(who)?;
			// Before the key is bound: an ML-DSA key's account derivation tries candidates until
			// one is no curve point, and junk key bytes needing many of them are found by hashing
			// alone — here they cost a node nothing unless their account is funded.
			can_pay(Weight::zero())?;
			let bound = bind(&key, who).map_err(refusal)?;
			let derivation = derivation_weight::<T>(bound.account_candidates);
			if derivation != Weight::zero() {
				// The fee with the derivation's length charged, before anything is verified.
				can_pay(derivation)?;
			}
			let payload = signing_payload()?;
			let statement =
				TransactionStatement { signatory: Signatory::Key, signing_payload: &payload };
			with_cache::<T::Backend, _>(T::KeyCacheBytes::get(), |cache| {
				cache.verify_digested(
					bound.digest,
					&key,
					&signature,
					&statement.message(),
					statement.purpose(),
				)
			})
			.map_err(refusal)?;
			Ok(derivation)
		},
		Parts::KeyRegistered(signature) => {
			let registered = Keys::<T>::get(who).ok_or(PqInvalidTransaction::NoRegisteredKey)?;
			if registered.key.scheme() != signature.scheme() {
				return Err(PqInvalidTransaction::SchemeMismatch.into());
			}
			can_pay(Weight::zero())?;
			let payload = signing_payload()?;
			let statement = TransactionStatement {
				signatory: Signatory::Registered(who),
				signing_payload: &payload,
			};
			with_cache::<T::Backend, _>(T::KeyCacheBytes::get(), |cache| {
				cache.verify(&registered.key, &signature, &statement.message(), statement.purpose())
			})
			.map_err(refusal)?;
			Ok(Weight::zero())
		},
		Parts::Committee(aggregate) => {
			let committee = Committee::<T>::signed_by(&aggregate.committee, &aggregate.signers)?;
			// A committee's account may have migrated to a single key, like any other.
			refuse_other_keys::<T>(who)?;
			// Before the account is derived, as for an inline key: garbage naming a committee
			// ground for a long derivation tries no candidate while the sender cannot pay. Naming
			// a funded sender that is not the committee's account still costs the committee's
			// candidates before `BadSigner`, bounded as for a ground inline key by what grinding
			// buys (about `2^k` tries for `k`; docs/security.md).
			can_pay(Weight::zero())?;
			let (account, account_candidates) = aggregate.committee.account_derivation();
			if account != *who {
				return Err(InvalidTransaction::BadSigner.into());
			}
			let derivation = derivation_weight::<T>(account_candidates);
			if derivation != Weight::zero() {
				// The fee with the derivation's length charged, as for an inline key.
				can_pay(derivation)?;
			}
			let payload = signing_payload()?;
			let statement = TransactionStatement {
				signatory: Signatory::Committee(&aggregate.committee, &aggregate.signers),
				signing_payload: &payload,
			};
			let (message, purpose, signer_set) =
				(statement.message(), statement.purpose(), aggregate.signer_set());
			// A signer set whose signature verified before has its key at the node (through
			// `Host`): no share is read. Otherwise the key is derived from the shares, and
			// repeated signer sets hit the decoded-key caches (`Host`: the node's, which
			// also keeps each committee's matrix). Weights charge the derivation always.
			let verdict = match T::Backend::verify_known_signer_set(
				signer_set,
				&message,
				purpose,
				&aggregate.signature,
			) {
				Some(verdict) => verdict,
				None => {
					let aggregate_key = committee.aggregate_key()?;
					with_cache::<T::Backend, _>(T::KeyCacheBytes::get(), |cache| {
						cache.verify_aggregate(
							signer_set,
							&aggregate_key,
							&message,
							purpose,
							&aggregate.signature,
						)
					})
				},
			};
			verdict.map_err(refusal)?;
			Ok(derivation)
		},
	}
}

/// The weight of an account derivation that tried `candidates` candidates, beyond the one each
/// signature check's benchmark derived ([`SignatureCheck::weight`] charges that one): an
/// account whose derivation needs more is charged for each (`account_candidates`), so a key or
/// committee ground for a long derivation pays for it. A check derives once, when it binds the
/// account (the checked extrinsic's weight takes the count from there); only a fee quote over
/// the unchecked extrinsic derives again, to charge the same.
pub fn derivation_weight<T: Config>(candidates: u32) -> Weight {
	candidates_beyond_the_first::<T::WeightInfo>(candidates)
}

/// [`derivation_weight`] by the weights `W`: `account_candidates` for each candidate beyond the
/// first, which the benchmarks' keys and committees derive at.
pub(crate) fn candidates_beyond_the_first<W: WeightInfo>(candidates: u32) -> Weight {
	match candidates.saturating_sub(1) {
		0 => Weight::zero(),
		beyond_the_first => W::account_candidates(beyond_the_first),
	}
}

/// Refuses every key but the registered one for an account that accepts only that.
fn refuse_other_keys<T: Config>(who: &AccountId32) -> Result<(), TransactionValidityError> {
	if Pallet::<T>::only_registered_key(who) {
		return Err(PqInvalidTransaction::OnlyRegisteredKey.into());
	}
	Ok(())
}
