//! [`AccountSigner`] and [`AccountSignature`]: every scheme behind one pair of types.

use crate::{
	aggregate::{AggregateSignature, CommitteeId},
	keys::*,
	params::{self, match_ml_dsa, MlDsaParams},
	Scheme,
};
use codec::{Decode, DecodeWithMemTracking, Encode, MaxEncodedLen};
use polkadot_sdk::sp_runtime::{traits::IdentifyAccount, AccountId32};
use scale_info::TypeInfo;

/// A public key of any scheme, or for aggregates the committee it stands for.
#[allow(clippy::large_enum_variant)] // A fixed-size wire type: inline bytes, no allocation per decode.
#[derive(
	Clone, Debug, PartialEq, Eq, Encode, Decode, DecodeWithMemTracking, MaxEncodedLen, TypeInfo,
)]
pub enum AccountSigner {
	/// An Ed25519 key.
	Ed25519(Ed25519Public),
	/// An ML-DSA-44 key.
	MlDsa44(MlDsa44Public),
	/// An ML-DSA-65 key.
	MlDsa65(MlDsa65Public),
	/// An ML-DSA-87 key.
	MlDsa87(MlDsa87Public),
	/// A committee whose members sign together with aggregate ML-DSA-87.
	AggregateMlDsa87(CommitteeId),
}

/// A signature of any scheme.
#[allow(clippy::large_enum_variant)] // A fixed-size wire type: inline bytes, no allocation per decode.
#[derive(
	Clone, Debug, PartialEq, Eq, Encode, Decode, DecodeWithMemTracking, MaxEncodedLen, TypeInfo,
)]
pub enum AccountSignature {
	/// An Ed25519 signature.
	Ed25519(Ed25519Signature),
	/// An ML-DSA-44 signature.
	MlDsa44(MlDsa44Signature),
	/// An ML-DSA-65 signature.
	MlDsa65(MlDsa65Signature),
	/// An ML-DSA-87 signature.
	MlDsa87(MlDsa87Signature),
	/// An aggregate ML-DSA-87 signature of a committee.
	AggregateMlDsa87(AggregateSignature),
}

impl AccountSigner {
	/// The scheme of this key.
	pub fn scheme(&self) -> Scheme {
		match_ml_dsa!(self, {
			AccountSigner::MlDsa(_) as P => P::SCHEME,
			AccountSigner::Ed25519(_) => Scheme::Ed25519,
			AccountSigner::AggregateMlDsa87(_) => Scheme::AggregateMlDsa87,
		})
	}

	/// The key's encoding (for a committee, its id), without the scheme.
	pub fn key_bytes(&self) -> &[u8] {
		match_ml_dsa!(self, {
			AccountSigner::MlDsa(key) as _P => key.as_ref(),
			AccountSigner::Ed25519(key) => key.as_ref(),
			AccountSigner::AggregateMlDsa87(committee) => committee.as_ref(),
		})
	}

	/// The 32-byte account id this key controls.
	///
	/// - **Ed25519**: the key itself, exactly as `sp_runtime::MultiSigner::Ed25519`, so existing
	///   Ed25519 accounts, wallets and dev accounts keep their addresses.
	/// - **ML-DSA**: derived from `tag ‖ key` ([`crate::account`]). Keys of 1.3–2.6 KB cannot
	///   be account ids, so they are hashed, like Substrate hashes ECDSA keys; the per-scheme
	///   tag makes the same bytes under two schemes two different accounts.
	/// - **Committee**: derived from `tag ‖ committee id`, disjoint from all the above.
	///
	/// A derived id is never an Ed25519 or Ristretto255 point, so no classical signature can
	/// authorize it. Deriving it tries candidates ([`Self::account_derivation`] counts them),
	/// so the decoded-key caches index keys by the derivation's seed instead
	/// ([`crate::verify::KeyDigest`]).
	pub fn account_id(&self) -> AccountId32 {
		self.account_derivation().0
	}

	/// [`Self::account_id`], and how many derivation candidates it tried
	/// ([`crate::account::derive_counted`]): none for an Ed25519 key, which is its account.
	pub fn account_derivation(&self) -> (AccountId32, u32) {
		match_ml_dsa!(self, {
			AccountSigner::MlDsa(key) as P => crate::account::derive_counted(P::ACCOUNT_TAG, key.as_ref()),
			AccountSigner::Ed25519(key) => (AccountId32::new(key.0), 0),
			AccountSigner::AggregateMlDsa87(committee) => committee.account_derivation(),
		})
	}
}

impl AccountSigner {
	/// The seed of this key's account derivation, `blake2_256(tag ‖ key)`
	/// ([`crate::account::version_1`]); an Ed25519 key itself. One hash: the decoded-key caches'
	/// index ([`crate::verify::KeyDigest`]).
	pub fn derivation_seed(&self) -> [u8; 32] {
		match_ml_dsa!(self, {
			AccountSigner::MlDsa(key) as P => crate::account::version_1(P::ACCOUNT_TAG, key.as_ref()),
			AccountSigner::Ed25519(key) => key.0,
			AccountSigner::AggregateMlDsa87(committee) => {
				crate::account::version_1(params::COMMITTEE_ACCOUNT_TAG, &committee.0)
			},
		})
	}

	/// The account id this key controlled before version 2 of the derivation (its
	/// [`Self::derivation_seed`]), for migrating chains that have such accounts: the same as
	/// [`Self::account_id`] for Ed25519.
	pub fn version_1_account_id(&self) -> AccountId32 {
		AccountId32::new(self.derivation_seed())
	}
}

impl IdentifyAccount for AccountSigner {
	type AccountId = AccountId32;

	fn into_account(self) -> AccountId32 {
		self.account_id()
	}
}

impl AccountSignature {
	/// The scheme of this signature.
	pub fn scheme(&self) -> Scheme {
		match_ml_dsa!(self, {
			AccountSignature::MlDsa(_) as P => P::SCHEME,
			AccountSignature::Ed25519(_) => Scheme::Ed25519,
			AccountSignature::AggregateMlDsa87(_) => Scheme::AggregateMlDsa87,
		})
	}
}
