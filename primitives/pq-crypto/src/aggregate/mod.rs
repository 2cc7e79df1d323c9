//! Aggregate ML-DSA-87 signatures: one FIPS 204 signature for a committee.
//!
//! ## Overview
//!
//! Members of a committee share the public seed `ρ` (so one matrix `A = ExpandA(ρ)`) and each
//! publishes its **share**, the full vector `tᵢ = A·s1ᵢ + s2ᵢ`. For a signer set `P`, the
//! aggregate key `pk* = pkEncode(ρ, Power2Round(Σ_{i∈P} tᵢ).t1)` is an ordinary ML-DSA-87
//! public key, and the members' jointly computed `σ*` is an ordinary ML-DSA-87 signature
//! under it. Verifying an aggregate is therefore *one* FIPS 204 verification, whatever the
//! number of signers; any backend does it.
//!
//! This module holds the wire form — [`AggregateSignature`], [`CommitteeId`],
//! [`SignerBitfield`] — and [`ring`], [`encoding`]: ML-DSA-87's parameters and the bit packing
//! of shares and aggregate keys, beyond [`fips204`]; the signer's own sampling, arithmetic and
//! packing are `pq_signer::aggregator`'s (which uses these, hence public). Built on them:
//!
//! - [`crate::committee`]: shares, their proofs of possession, committee ids and `pk*`
//!   derivation — what a chain needs, `no_std`;
//! - [`AggregateSignature::verify`] (in [`crate::verify`]): one ML-DSA-87 verification under `pk*`;
//! - the node's verifier with a committee's `Â` expanded once, behind its aggregate host
//!   function, is in [`crate::host`];
//! - the aggregator, every member of a committee in one process signing in two rounds — for
//!   tools, tests and benchmarks — is `pq_signer::aggregator`.
//!
//! ## Terminology
//!
//! - **Share**: `tᵢ` packed at 23 bits per coefficient
//!   ([`PackedShare`](crate::committee::PackedShare), 5,888 bytes). Summing `t1ᵢ` instead would be wrong: `Power2Round` does not commute with sums.
//! - **Share key**: `pkEncode(ρ, Power2Round(tᵢ).t1)`, the ML-DSA-87 key a member proves
//!   possession with.
//! - **Signer set**: a [`SignerBitfield`] over the member list, `⌈N/8⌉` bytes for `N` members.
//!
//! ## Assumptions
//!
//! This is research cryptography without independent review. The chain side — one standard
//! verification under a key derived from proven shares — is standard; the signing protocol is
//! not: a member's mask must never be reused under a different challenge (that reveals its
//! `s1`), and members skip FIPS 204's per-signature rejection sampling, whose absence may leak
//! information about `s1ᵢ` over many signatures (an open question). Rogue keys are prevented by
//! refusing any share without a valid proof of possession.

pub mod encoding;
pub mod ring;

use crate::{bytes::fixed_bytes, keys::MlDsa87Signature};
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

impl CommitteeId {
	/// The account the committee controls ([`crate::AccountSigner::account_id`]).
	pub fn account_id(&self) -> polkadot_sdk::sp_runtime::AccountId32 {
		crate::params::committee_account_id(&self.0)
	}

	/// [`Self::account_id`], and how many derivation candidates it tried
	/// ([`crate::account::derive_counted`]).
	pub fn account_derivation(&self) -> (polkadot_sdk::sp_runtime::AccountId32, u32) {
		crate::account::derive_counted(crate::params::COMMITTEE_ACCOUNT_TAG, &self.0)
	}
}

/// Which members of a committee signed: bit `i % 8` of byte `i / 8` is member `i`.
///
/// Encoded as a length-prefixed byte string of at most [`MAX_BITFIELD_BYTES`] bytes, so for
/// `N` members it costs `⌈N/8⌉ + 1` bytes on the wire.
#[derive(
	Clone,
	Debug,
	Default,
	PartialEq,
	Eq,
	Encode,
	Decode,
	DecodeWithMemTracking,
	MaxEncodedLen,
	TypeInfo,
)]
pub struct SignerBitfield(BoundedVec<u8, ConstU32<MAX_BITFIELD_BYTES>>);

impl SignerBitfield {
	/// The bitfield of a committee of `size` members with exactly `members` set: `⌈size/8⌉`
	/// bytes, its canonical length. `None` if `size` exceeds [`MAX_COMMITTEE_SIZE`] or a member
	/// index is not below `size`.
	pub fn new(size: u32, members: impl IntoIterator<Item = u32>) -> Option<Self> {
		if size > MAX_COMMITTEE_SIZE {
			return None;
		}
		let mut bytes = alloc::vec![0u8; size.div_ceil(8) as usize];
		for member in members {
			if member >= size {
				return None;
			}
			bytes[(member / 8) as usize] |= 1 << (member % 8);
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

	/// Whether this is the canonical bitfield of a committee of `size` members: `⌈size/8⌉`
	/// bytes and no bit beyond the last member. One signer set has one encoding, so an
	/// aggregate transaction cannot be re-encoded under another hash, and a transaction's
	/// weight can bound the shares read from the bitfield's length alone.
	pub fn is_canonical_for(&self, size: u32) -> bool {
		self.0.len() == size.div_ceil(8) as usize && self.members().all(|index| index < size)
	}

	/// The largest committee this bitfield can be canonical for: `8 × its length`.
	pub fn capacity(&self) -> u32 {
		self.0.len() as u32 * 8
	}
}

/// A committee's signer set: the committee and who signed. With committee ids bound to their
/// shares and never re-created (the pallet keeps dissolved ids), a signer set has one
/// aggregate key for as long as its committee exists — what lets a node that verified a
/// signature under it skip deriving it again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SignerSet<'a> {
	/// The committee.
	pub committee: &'a CommitteeId,
	/// Who signed.
	pub signers: &'a SignerBitfield,
}

impl SignerBitfield {
	/// The bitfield's bytes.
	pub fn as_bytes(&self) -> &[u8] {
		&self.0
	}
}

impl AggregateSignature {
	/// The signer set that made this signature.
	pub fn signer_set(&self) -> SignerSet<'_> {
		SignerSet { committee: &self.committee, signers: &self.signers }
	}
}

/// An aggregate ML-DSA-87 signature: the committee, who signed, and one 4,627-byte signature.
#[derive(
	Clone, Debug, PartialEq, Eq, Encode, Decode, DecodeWithMemTracking, MaxEncodedLen, TypeInfo,
)]
pub struct AggregateSignature {
	/// The committee whose members signed.
	pub committee: CommitteeId,
	/// The members who signed; it determines the aggregate key.
	pub signers: SignerBitfield,
	/// `σ* = (c̃, z*, h)`, an ordinary FIPS 204 ML-DSA-87 signature under `pk*`.
	pub signature: MlDsa87Signature,
}
