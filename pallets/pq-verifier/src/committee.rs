//! Committees on chain: their record, and the aggregate key of a signer set read with as few
//! share reads as possible.
//!
//! A committee of `N` members stores every share (5,888 bytes each, about 750 KB for 128) and,
//! in its record, the sum of all of them. A signer set `P` needs `Σ_{i∈P} tᵢ`: for
//! `|P| ≤ N/2` that is the present members' shares added, otherwise the stored sum minus the
//! absent members' shares ([`derive_aggregate_key`]). Either way at most `min(|P|, N − |P|)`
//! shares are read, which [`shares_read_bound`] bounds from the signature alone, for the
//! transaction's weight.

use crate::{CommitteeShares, Committees, Config, PqInvalidTransaction};
use codec::{Decode, DecodeWithMemTracking, Encode, MaxEncodedLen};
use polkadot_sdk::sp_runtime::AccountId32;
use pq_crypto::{
	aggregate::{
		committee::{derive_aggregate_key, PackedShare},
		CommitteeId, SignerBitfield,
	},
	keys::MlDsa87Public,
};
use scale_info::TypeInfo;

/// A committee's record.
#[derive(Clone, Debug, PartialEq, Eq, Encode, Decode, DecodeWithMemTracking, MaxEncodedLen, TypeInfo)]
pub struct CommitteeInfo<Balance> {
	/// The members' shared public seed `ρ`.
	pub rho: [u8; 32],
	/// Number of members.
	pub size: u32,
	/// Fewest signers an aggregate signature must name.
	pub threshold: u32,
	/// The account that created the committee, holds its deposit and may dissolve it.
	pub owner: AccountId32,
	/// The deposit held from the owner.
	pub deposit: Balance,
	/// `Σ tᵢ` over every member, for signer sets with few absent members.
	pub share_sum: PackedShare,
}

/// The most shares deriving the key of `signers` can read: `min(|P|, capacity − |P|)`, where
/// the capacity (`8 × bitfield bytes`) bounds the committee size of a canonical bitfield.
pub fn shares_read_bound(signers: &SignerBitfield) -> u32 {
	let present = signers.count();
	present.min(signers.capacity().saturating_sub(present))
}

/// The aggregate key `pk*` of `signers` in `committee`, or why the signer set is refused.
pub fn aggregate_key<T: Config>(
	committee: &CommitteeId,
	signers: &SignerBitfield,
) -> Result<MlDsa87Public, PqInvalidTransaction> {
	let info = Committees::<T>::get(committee).ok_or(PqInvalidTransaction::UnknownCommittee)?;
	if !signers.is_canonical_for(info.size) {
		return Err(PqInvalidTransaction::InvalidSigners);
	}
	if signers.count() < info.threshold {
		return Err(PqInvalidTransaction::BelowThreshold);
	}
	// Shares are checked when the committee is created; storage that breaks that invariant is
	// treated as no committee rather than trusted.
	derive_aggregate_key(&info.rho, info.size, &info.share_sum, signers, |index| {
		CommitteeShares::<T>::get(committee, index)
	})
	.map_err(|_| PqInvalidTransaction::UnknownCommittee)
}

/// The account a committee controls.
pub fn committee_account(committee: &CommitteeId) -> AccountId32 {
	pq_crypto::MultiSigner::AggregateMlDsa87(committee.clone()).account_id()
}
