//! Aggregate ML-DSA-87 signatures: one FIPS 204 signature for a committee.
//!
//! Members of a committee share the public seed `ρ` and publish full `t` vectors; for a signer
//! set `P`, the aggregate key `pk* = pkEncode(ρ, Power2Round(Σ_{i∈P} tᵢ).t1)` is an ordinary
//! ML-DSA-87 public key, and the members' jointly computed `σ*` is an ordinary ML-DSA-87
//! signature under it. On chain, verifying an aggregate is therefore *one* ML-DSA-87
//! verification, whatever the committee size. This module holds what travels on the wire
//! (committee reference, signer bitfield, signature) and the verification against a given
//! `pk*`; deriving `pk*` from the committee's shares belongs to the committee logic.

use crate::{
	backend::MlDsaVerifier,
	keys::{MlDsa87Public, MlDsa87Signature},
	params::MlDsa87,
	bytes::fixed_bytes,
	Purpose,
};
use codec::{Decode, DecodeWithMemTracking, Encode, MaxEncodedLen};
use polkadot_sdk::sp_core::{bounded::BoundedVec, ConstU32};
use scale_info::TypeInfo;

/// The largest committee an aggregate signature can name.
pub const MAX_COMMITTEE_SIZE: u32 = 128;

/// Bytes of a signer bitfield for the largest committee.
pub const MAX_BITFIELD_BYTES: u32 = MAX_COMMITTEE_SIZE.div_ceil(8);

fixed_bytes!(
	/// Identifies a committee on chain (a hash of its definition).
	CommitteeId, 32
);

/// Which members of a committee signed: bit `i % 8` of byte `i / 8` is member `i`.
///
/// Encoded as a length-prefixed byte string of at most [`MAX_BITFIELD_BYTES`] bytes, so for
/// `N` members it costs `⌈N/8⌉ + 1` bytes on the wire.
#[derive(
	Clone, Debug, Default, PartialEq, Eq, Encode, Decode, DecodeWithMemTracking, MaxEncodedLen, TypeInfo,
)]
pub struct SignerBitfield(BoundedVec<u8, ConstU32<MAX_BITFIELD_BYTES>>);

impl SignerBitfield {
	/// The bitfield with exactly `members` set; `None` if a member index is not below
	/// [`MAX_COMMITTEE_SIZE`].
	pub fn from_members(members: impl IntoIterator<Item = u32>) -> Option<Self> {
		let mut bytes = alloc::vec::Vec::new();
		for member in members {
			if member >= MAX_COMMITTEE_SIZE {
				return None;
			}
			let byte = (member / 8) as usize;
			if bytes.len() <= byte {
				bytes.resize(byte + 1, 0u8);
			}
			bytes[byte] |= 1 << (member % 8);
		}
		BoundedVec::try_from(bytes).ok().map(Self)
	}

	/// Whether member `index` signed.
	pub fn contains(&self, index: u32) -> bool {
		self.0
			.get((index / 8) as usize)
			.is_some_and(|byte| byte & (1 << (index % 8)) != 0)
	}

	/// How many members signed.
	pub fn count(&self) -> u32 {
		self.0.iter().map(|byte| byte.count_ones()).sum()
	}

	/// The indices of the members that signed, in increasing order.
	pub fn members(&self) -> impl Iterator<Item = u32> + '_ {
		(0..self.0.len() as u32 * 8).filter(|index| self.contains(*index))
	}

	/// Whether every set bit names a member of a committee of `size` members.
	pub fn fits(&self, size: u32) -> bool {
		self.members().all(|index| index < size)
	}
}

/// An aggregate ML-DSA-87 signature: the committee, who signed, and one 4,627-byte signature.
#[derive(Clone, Debug, PartialEq, Eq, Encode, Decode, DecodeWithMemTracking, MaxEncodedLen, TypeInfo)]
pub struct AggregateSignature {
	/// The committee whose members signed.
	pub committee: CommitteeId,
	/// The members who signed; it determines the aggregate key.
	pub signers: SignerBitfield,
	/// `σ* = (c̃, z*, h)`, an ordinary FIPS 204 ML-DSA-87 signature under `pk*`.
	pub signature: MlDsa87Signature,
}

impl AggregateSignature {
	/// Verifies against the aggregate key `pk*` derived for [`Self::signers`]: exactly one FIPS
	/// 204 ML-DSA-87 verification.
	pub fn verify<B: MlDsaVerifier<MlDsa87>>(
		&self,
		aggregate_key: &MlDsa87Public,
		message: &[u8],
		purpose: Purpose,
	) -> bool {
		B::verify(aggregate_key, message, purpose.context(), &self.signature)
	}

	/// As [`Self::verify`], with an already decoded aggregate key.
	pub fn verify_decoded<B: MlDsaVerifier<MlDsa87>>(
		&self,
		aggregate_key: &B::DecodedKey,
		message: &[u8],
		purpose: Purpose,
	) -> bool {
		B::verify_decoded(aggregate_key, message, purpose.context(), &self.signature)
	}
}
