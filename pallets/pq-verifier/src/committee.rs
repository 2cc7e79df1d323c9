//! Committees on chain: their record, and the aggregate key of a signer set read with as few
//! share reads as possible.
//!
//! A committee of `N` members stores every share (5,888 bytes each, about 750 KB for 128) and,
//! in its record, the sum of all of them. A signer set `P` needs `Σ_{i∈P} tᵢ`: for
//! `|P| ≤ N/2` that is the present members' shares added, otherwise the stored sum minus the
//! absent members' shares ([`derive_aggregate_key`]). Either way at most `min(|P|, N − |P|)`
//! shares are read, which [`shares_read_bound`] bounds from the signature alone, for the
//! transaction's weight.

use crate::{
	invalid_transaction::PqInvalidTransaction, BalanceOf, CommitteeShares, Committees, Config,
};
use codec::{Decode, DecodeWithMemTracking, Encode, MaxEncodedLen};
use polkadot_sdk::sp_runtime::AccountId32;
use pq_crypto::{
	aggregate::{CommitteeId, SignerBitfield},
	committee::{derive_aggregate_key, PackedShare},
	keys::MlDsa87Public,
};
use scale_info::TypeInfo;

/// A committee's record.
#[derive(
	Clone, Debug, PartialEq, Eq, Encode, Decode, DecodeWithMemTracking, MaxEncodedLen, TypeInfo,
)]
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

/// A committee and a signer set of it that passed the cheap checks — the committee exists, the
/// bitfield is canonical for it, enough members signed — before any share is read.
pub struct Committee<'a, T: Config> {
	id: &'a CommitteeId,
	info: CommitteeInfo<BalanceOf<T>>,
	signers: &'a SignerBitfield,
}

impl<'a, T: Config> Committee<'a, T> {
	/// Reads committee `id`'s record and checks `signers` against it.
	pub fn signed_by(
		id: &'a CommitteeId,
		signers: &'a SignerBitfield,
	) -> Result<Self, PqInvalidTransaction> {
		let info = Committees::<T>::get(id).ok_or(PqInvalidTransaction::UnknownCommittee)?;
		if !signers.is_canonical_for(info.size) {
			return Err(PqInvalidTransaction::InvalidSigners);
		}
		if signers.count() < info.threshold {
			return Err(PqInvalidTransaction::BelowThreshold);
		}
		Ok(Self { id, info, signers })
	}

	/// The aggregate key `pk*` of the signer set: at most [`shares_read_bound`] share reads.
	pub fn aggregate_key(&self) -> Result<MlDsa87Public, PqInvalidTransaction> {
		let Self { id, info, signers } = self;
		// Shares are checked when the committee is created; storage that breaks that invariant
		// is treated as no committee rather than trusted.
		derive_aggregate_key(&info.rho, info.size, &info.share_sum, signers, |index| {
			CommitteeShares::<T>::get(id, index)
		})
		.map_err(|_| PqInvalidTransaction::UnknownCommittee)
	}
}
