//! The transaction signature: a runtime's extrinsic `Signature` type, carrying the form and the
//! scheme, so that every transaction is an ordinary signed (v4) extrinsic stock clients decode
//! from the metadata alone.
//!
//! A stock client reads a signed extrinsic as `address ‖ signature ‖ extensions ‖ call`, with the
//! signature's type from the metadata. The form — key inline, registered key, committee — lives
//! in this type's variant, not in a transaction extension, which polkadot.js would read as zero
//! bytes if it did not know it. The classical variants keep `sp_runtime::MultiSignature`'s
//! indices (0 Ed25519, 1 sr25519, 2 ECDSA), so a stock wallet's signature decodes; sr25519 and
//! ECDSA are then refused by name ([`Form::Classical`]), never verified.
//!
//! | index | variant | form | carries |
//! |---|---|---|---|
//! | 0 | [`Ed25519`](TransactionSignature::Ed25519) | key inline (the account is the key) | 64 B |
//! | 1 | [`Sr25519`](TransactionSignature::Sr25519) | refused | 64 B |
//! | 2 | [`Ecdsa`](TransactionSignature::Ecdsa) | refused | 65 B |
//! | 3–5 | [`MlDsa44`](TransactionSignature::MlDsa44) … `MlDsa87` | key inline | key ‖ signature |
//! | 6–8 | [`MlDsa44Registered`](TransactionSignature::MlDsa44Registered) … | registered key | signature |
//! | 9 | [`Committee`](TransactionSignature::Committee) | committee | committee ‖ signers ‖ signature |
//!
//! What each form signs is [`crate::statement::TransactionStatement`].

use crate::{
	account::edwards,
	aggregate::{AggregateSignature, SignerBitfield},
	keys::*,
	params::{match_ml_dsa, MlDsaParams},
	signer::{AccountSignature, AccountSigner},
	statement::Signatory,
	verify::KeyDigest,
	Scheme, VerifyError,
};
use alloc::boxed::Box;
use codec::{Decode, DecodeWithMemTracking, Encode, MaxEncodedLen};
use polkadot_sdk::sp_runtime::AccountId32;
use scale_info::TypeInfo;

/// A transaction's signature, its form and its scheme; see the module docs for the wire layout.
///
/// The post-quantum variants hold their bytes in boxes. A box encodes and decodes as what it
/// holds and the metadata describes it by the same type: the wire format and the metadata's
/// types are the same (only the fields' type names read `Box<…>`). Inline, every value of this
/// type was as large as its largest variant, 7,219 bytes: an extrinsic is moved by value
/// through decoding, checking and applying, so every transaction, Ed25519 included, copied
/// 7 kB per move with Wasm's `memcpy`, a loop (docs/benchmarks.md, "Boxed signatures").
#[derive(
	Clone, Debug, PartialEq, Eq, Encode, Decode, DecodeWithMemTracking, MaxEncodedLen, TypeInfo,
)]
pub enum TransactionSignature {
	/// Ed25519 over the standard signed payload: the account is the key.
	#[codec(index = 0)]
	Ed25519(Ed25519Signature),
	/// sr25519, as stock wallets sign: decoded, refused ([`Form::Classical`]).
	#[codec(index = 1)]
	Sr25519(Sr25519Signature),
	/// ECDSA, as stock wallets sign: decoded, refused ([`Form::Classical`]).
	#[codec(index = 2)]
	Ecdsa(EcdsaSignature),
	/// An ML-DSA-44 key and its signature; the account is the key's derived account.
	#[codec(index = 3)]
	MlDsa44(Box<MlDsa44Public>, Box<MlDsa44Signature>),
	/// An ML-DSA-65 key and its signature; the account is the key's derived account.
	#[codec(index = 4)]
	MlDsa65(Box<MlDsa65Public>, Box<MlDsa65Signature>),
	/// An ML-DSA-87 key and its signature; the account is the key's derived account.
	#[codec(index = 5)]
	MlDsa87(Box<MlDsa87Public>, Box<MlDsa87Signature>),
	/// A signature by the account's registered ML-DSA-44 key.
	#[codec(index = 6)]
	MlDsa44Registered(Box<MlDsa44Signature>),
	/// A signature by the account's registered ML-DSA-65 key.
	#[codec(index = 7)]
	MlDsa65Registered(Box<MlDsa65Signature>),
	/// A signature by the account's registered ML-DSA-87 key.
	#[codec(index = 8)]
	MlDsa87Registered(Box<MlDsa87Signature>),
	/// A committee's aggregate ML-DSA-87 signature; the account is the committee's.
	#[codec(index = 9)]
	Committee(Box<AggregateSignature>),
}

/// How a [`TransactionSignature`] proves who sent the transaction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form<'a> {
	/// The key travels with the signature (Ed25519: the account is the key).
	KeyInline(Scheme),
	/// The account's registered key signed; only the signature travels.
	KeyRegistered(Scheme),
	/// These members of a committee signed together.
	Committee(&'a SignerBitfield),
	/// sr25519 or ECDSA: keys a discrete logarithm breaks, never accepted.
	Classical,
}

impl TransactionSignature {
	/// The form and scheme, read without verifying anything.
	pub fn form(&self) -> Form<'_> {
		match_ml_dsa!(self, {
			Self::MlDsa(..) as P => Form::KeyInline(P::SCHEME),
			Self::Ed25519(_) => Form::KeyInline(Scheme::Ed25519),
			Self::Sr25519(_) | Self::Ecdsa(_) => Form::Classical,
			Self::MlDsa44Registered(_) => Form::KeyRegistered(Scheme::MlDsa44),
			Self::MlDsa65Registered(_) => Form::KeyRegistered(Scheme::MlDsa65),
			Self::MlDsa87Registered(_) => Form::KeyRegistered(Scheme::MlDsa87),
			Self::Committee(aggregate) => Form::Committee(&aggregate.signers),
		})
	}

	/// A key and its signature in the key-inline form, for `account` (an Ed25519 key is the
	/// account itself).
	pub fn key_inline(key: AccountSigner, signature: AccountSignature) -> Option<Self> {
		Some(match (key, signature) {
			(AccountSigner::Ed25519(_), AccountSignature::Ed25519(signature)) => {
				Self::Ed25519(signature)
			},
			(AccountSigner::MlDsa44(key), AccountSignature::MlDsa44(signature)) => {
				Self::MlDsa44(Box::new(key), Box::new(signature))
			},
			(AccountSigner::MlDsa65(key), AccountSignature::MlDsa65(signature)) => {
				Self::MlDsa65(Box::new(key), Box::new(signature))
			},
			(AccountSigner::MlDsa87(key), AccountSignature::MlDsa87(signature)) => {
				Self::MlDsa87(Box::new(key), Box::new(signature))
			},
			_ => return None,
		})
	}

	/// A registered key's signature in the registered form; `None` for schemes no account can
	/// register (Ed25519, aggregates).
	pub fn key_registered(signature: AccountSignature) -> Option<Self> {
		Some(match signature {
			AccountSignature::MlDsa44(signature) => Self::MlDsa44Registered(Box::new(signature)),
			AccountSignature::MlDsa65(signature) => Self::MlDsa65Registered(Box::new(signature)),
			AccountSignature::MlDsa87(signature) => Self::MlDsa87Registered(Box::new(signature)),
			AccountSignature::Ed25519(_) | AccountSignature::AggregateMlDsa87(_) => return None,
		})
	}

	/// The signature taken apart by form, for `account` (an Ed25519 key is the account).
	pub fn parts(&self, account: &AccountId32) -> Parts<'_> {
		match self {
			Self::Ed25519(signature) => Parts::KeyInline(
				ed25519_signer(account),
				AccountSignature::Ed25519(signature.clone()),
			),
			Self::MlDsa44(key, signature) => Parts::KeyInline(
				AccountSigner::MlDsa44((**key).clone()),
				AccountSignature::MlDsa44((**signature).clone()),
			),
			Self::MlDsa65(key, signature) => Parts::KeyInline(
				AccountSigner::MlDsa65((**key).clone()),
				AccountSignature::MlDsa65((**signature).clone()),
			),
			Self::MlDsa87(key, signature) => Parts::KeyInline(
				AccountSigner::MlDsa87((**key).clone()),
				AccountSignature::MlDsa87((**signature).clone()),
			),
			Self::MlDsa44Registered(signature) => {
				Parts::KeyRegistered(AccountSignature::MlDsa44((**signature).clone()))
			},
			Self::MlDsa65Registered(signature) => {
				Parts::KeyRegistered(AccountSignature::MlDsa65((**signature).clone()))
			},
			Self::MlDsa87Registered(signature) => {
				Parts::KeyRegistered(AccountSignature::MlDsa87((**signature).clone()))
			},
			Self::Committee(aggregate) => Parts::Committee(aggregate),
			Self::Sr25519(_) | Self::Ecdsa(_) => Parts::Classical,
		}
	}

	/// How many account-derivation candidates checking this signature tries: an inline ML-DSA
	/// key's ([`AccountSigner::account_derivation`]) or the committee's; none for the other forms
	/// (an Ed25519 key is its account, a registered key is looked up by account).
	pub fn account_candidates(&self) -> u32 {
		match_ml_dsa!(self, {
			Self::MlDsa(key, _) as P => crate::account::derive_counted(P::ACCOUNT_TAG, &key.0).1,
			Self::Committee(aggregate) => aggregate.committee.account_derivation().1,
			Self::Ed25519(_)
			| Self::MlDsa44Registered(_)
			| Self::MlDsa65Registered(_)
			| Self::MlDsa87Registered(_)
			| Self::Sr25519(_)
			| Self::Ecdsa(_) => 0,
		})
	}

	/// Who signed for `account`, as the signed message names it ([`Signatory`]); `None` for the
	/// refused classical forms.
	pub fn signatory<'a>(&'a self, account: &'a AccountId32) -> Option<Signatory<'a>> {
		Some(match self {
			Self::Ed25519(_) | Self::MlDsa44(..) | Self::MlDsa65(..) | Self::MlDsa87(..) => {
				Signatory::Key
			},
			Self::MlDsa44Registered(_)
			| Self::MlDsa65Registered(_)
			| Self::MlDsa87Registered(_) => Signatory::Registered(account),
			Self::Committee(aggregate) => {
				Signatory::Committee(&aggregate.committee, &aggregate.signers)
			},
			Self::Sr25519(_) | Self::Ecdsa(_) => return None,
		})
	}
}

/// A [`TransactionSignature`] taken apart by form ([`TransactionSignature::parts`]).
#[allow(
	clippy::large_enum_variant,
	reason = "held on the stack for one check: boxing the key inline would allocate per check"
)]
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Parts<'a> {
	/// The key (for Ed25519, the account itself) and its signature.
	KeyInline(AccountSigner, AccountSignature),
	/// A signature by the account's registered key.
	KeyRegistered(AccountSignature),
	/// A committee's aggregate signature.
	Committee(&'a AggregateSignature),
	/// sr25519 or ECDSA: never accepted.
	Classical,
}

/// The stateless check of the key-inline form, done once the account is known to pay: whether
/// `key` may sign for `account`, and if so its digest and derivation count ([`Bound`]). An ML-DSA key must
/// derive the account ([`VerifyError::AccountMismatch`]); an Ed25519 key is its account, which
/// must be an edwards25519 encoding ([`VerifyError::InvalidKey`]) — which no post-quantum
/// account id is ([`crate::account`]), so a classical signature never reaches verification
/// for one.
pub fn bind(key: &AccountSigner, account: &AccountId32) -> Result<Bound, VerifyError> {
	if matches!(key, AccountSigner::Ed25519(_)) && !edwards::decodes_as_point(account.as_ref()) {
		return Err(VerifyError::InvalidKey);
	}
	let digest = KeyDigest::of(key);
	let (derived, account_candidates) = digest.account_derivation();
	if derived != *account {
		return Err(VerifyError::AccountMismatch);
	}
	Ok(Bound { digest, account_candidates })
}

/// A key [`bind`] bound to an account.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bound {
	/// The key's digest, for the decoded-key caches.
	pub digest: KeyDigest,
	/// How many account-derivation candidates binding it tried (none for Ed25519, whose
	/// account is the key): what the binding cost, and what a transaction is charged for
	/// beyond the one its benchmark's key needed.
	pub account_candidates: u32,
}

/// An Ed25519 account's key: the account id itself.
fn ed25519_signer(account: &AccountId32) -> AccountSigner {
	AccountSigner::Ed25519(Ed25519Public(*<AccountId32 as AsRef<[u8; 32]>>::as_ref(account)))
}

#[cfg(test)]
mod tests {
	use super::*;

	/// A value of an enum is as large as its largest variant, and an extrinsic is moved by value
	/// through decoding, checking and applying: an inline ML-DSA-87 key and signature made every
	/// transaction's signature 7,219 bytes, copied at each move. Boxed, it is the size of stock
	/// `sp_runtime::MultiSignature` (ECDSA's 65 bytes and the tag) padded to a pointer's
	/// alignment.
	#[test]
	fn a_transaction_signature_is_as_small_as_a_stock_one() {
		use core::mem::{align_of, size_of};
		let stock = size_of::<polkadot_sdk::sp_runtime::MultiSignature>();
		assert_eq!(
			size_of::<TransactionSignature>(),
			stock.next_multiple_of(align_of::<Box<MlDsa87Signature>>())
		);
	}

	/// The classical variants are where `sp_runtime::MultiSignature` puts them, so a stock
	/// wallet's signature decodes as what it is.
	#[test]
	fn classical_variants_keep_the_stock_indices() {
		use polkadot_sdk::sp_runtime::MultiSignature as Stock;
		let stock = [
			Stock::Ed25519(polkadot_sdk::sp_core::ed25519::Signature::from_raw([7; 64])),
			Stock::Sr25519(polkadot_sdk::sp_core::sr25519::Signature::from_raw([7; 64])),
			Stock::Ecdsa(polkadot_sdk::sp_core::ecdsa::Signature::from_raw([7; 65])),
		];
		let ours = [
			TransactionSignature::Ed25519(Ed25519Signature([7; 64])),
			TransactionSignature::Sr25519(Sr25519Signature([7; 64])),
			TransactionSignature::Ecdsa(EcdsaSignature([7; 65])),
		];
		for (stock, ours) in stock.iter().zip(ours) {
			assert_eq!(TransactionSignature::decode(&mut &stock.encode()[..]).unwrap(), ours);
		}
	}
}
