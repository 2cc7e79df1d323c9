//! What a chain needs of a committee: shares, proofs of possession, the committee id, and the
//! aggregate key `pk*` of a signer set.
//!
//! Deriving `pk*` is additions mod `q`, one `Power2Round` and one `pkEncode`: no NTT, no
//! sampling. The cost that matters is reading shares, so [`ShareSum`] supports both ways to
//! get `Σ_{i∈P} tᵢ`: adding the present members, or subtracting the absent ones from the sum of
//! all — whichever reads fewer shares.

use super::{
	encoding::{pack_t, pk_encode, unpack_t, unpack_t_group, PACKED_T_BYTES, T_GROUP_BYTES},
	ring::{power2round, Poly, PolyVec, K, Q},
	CommitteeId, SignerBitfield,
};
use crate::{
	backend::MlDsaVerifier, bytes::fixed_bytes, keys::MlDsa87Public, keys::MlDsa87Signature,
	params::MlDsa87, statement::MembershipStatement, Purpose,
};
use codec::Encode;
use polkadot_sdk::sp_io::hashing::blake2_256;

fixed_bytes!(
	/// A member's share `tᵢ = A·s1ᵢ + s2ᵢ mod q`, 23 bits per coefficient (5,888 bytes). Also
	/// the encoding of a sum of shares.
	PackedShare, PACKED_T_BYTES
);

/// Domain tag of [`committee_id`].
const COMMITTEE_ID_TAG: &[u8] = b"pq-verifier/committee/v1";

/// Why a share was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShareError {
	/// A coefficient is not below `q`: not the packing of a vector mod `q`.
	NotReduced,
	/// The proof of possession does not verify under the share key.
	InvalidProof,
	/// A member's share is not available.
	MissingShare,
}

impl PackedShare {
	/// Packs a vector with coefficients in `[0, q)`.
	pub fn pack(t: &PolyVec<K>) -> Self {
		Self::from_slice(&pack_t(t)).expect("pack_t writes PACKED_T_BYTES bytes")
	}

	/// Whether every coefficient is below `q`: the packing of a vector mod `q`.
	pub fn is_reduced(&self) -> bool {
		unpack_t(&self.0).all(|c| c < Q)
	}

	/// The member's share key `pkEncode(ρ, Power2Round(tᵢ).t1)`, under which it proves
	/// possession.
	pub fn share_key(&self, rho: &[u8; 32]) -> Result<MlDsa87Public, ShareError> {
		let mut sum = ShareSum::default();
		sum.add(self)?;
		Ok(sum.aggregate_key(rho))
	}
}

/// A running sum of shares mod `q`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ShareSum(PolyVec<K>);

impl ShareSum {
	/// Starts from a packed sum (such as the stored sum of all shares).
	pub fn from_packed(packed: &PackedShare) -> Result<Self, ShareError> {
		let mut sum = Self::default();
		sum.add(packed)?;
		Ok(sum)
	}

	/// Adds a share. On [`ShareError::NotReduced`] the sum is left partly updated: discard it.
	pub fn add(&mut self, share: &PackedShare) -> Result<(), ShareError> {
		self.combine(share, |sum, c| if sum + c >= Q { sum + c - Q } else { sum + c })
	}

	/// Subtracts a share. On [`ShareError::NotReduced`] the sum is left partly updated: discard it.
	pub fn subtract(&mut self, share: &PackedShare) -> Result<(), ShareError> {
		self.combine(share, |sum, c| if sum >= c { sum - c } else { sum + Q - c })
	}

	/// One pass over the packed coefficients, eight at a time, so a share costs one unpacking
	/// and no copies.
	fn combine(&mut self, share: &PackedShare, op: impl Fn(u32, u32) -> u32) -> Result<(), ShareError> {
		let groups = share.0.chunks_exact(T_GROUP_BYTES);
		let sums = self.0.iter_mut().flat_map(|poly| poly.0.chunks_exact_mut(8));
		for (sums, group) in sums.zip(groups) {
			for (sum, c) in sums.iter_mut().zip(unpack_t_group(group)) {
				if c >= Q {
					return Err(ShareError::NotReduced);
				}
				*sum = op(*sum, c);
			}
		}
		Ok(())
	}

	/// The packed sum.
	pub fn pack(&self) -> PackedShare {
		PackedShare::pack(&self.0)
	}

	/// `pk* = pkEncode(ρ, Power2Round(Σ tᵢ).t1)`: an ordinary ML-DSA-87 public key.
	pub fn aggregate_key(&self, rho: &[u8; 32]) -> MlDsa87Public {
		pk_encode(rho, &t1_of(&self.0))
	}
}

/// `Power2Round(t).t1` (FIPS 204 Algorithm 35), what a public key encodes of `t`.
pub(crate) fn t1_of(t: &PolyVec<K>) -> PolyVec<K> {
	t.map(|poly| Poly(poly.0.map(|c| power2round(c).0)))
}

/// `pk*` of `signers` in a committee of `size` members whose shares sum to `share_sum`,
/// fetching shares through `share`: the present members' added when at most half signed,
/// otherwise `share_sum` minus the absent members'. So at most `min(|P|, N − |P|)` shares are
/// fetched, and a full signer set needs none. `signers` must fit the committee (see
/// [`SignerBitfield::is_canonical_for`]).
pub fn derive_aggregate_key(
	rho: &[u8; 32],
	size: u32,
	share_sum: &PackedShare,
	signers: &SignerBitfield,
	mut share: impl FnMut(u32) -> Option<PackedShare>,
) -> Result<MlDsa87Public, ShareError> {
	let present = signers.count();
	let sum = if present <= size.saturating_sub(present) {
		let mut sum = ShareSum::default();
		for index in signers.members() {
			sum.add(&share(index).ok_or(ShareError::MissingShare)?)?;
		}
		sum
	} else {
		let mut sum = ShareSum::from_packed(share_sum)?;
		for index in (0..size).filter(|index| !signers.contains(*index)) {
			sum.subtract(&share(index).ok_or(ShareError::MissingShare)?)?;
		}
		sum
	};
	Ok(sum.aggregate_key(rho))
}

/// A committee's id: `blake2_256(tag ‖ ρ ‖ threshold ‖ shares)`. Every part of the definition
/// is bound, so two committees with the same id have the same members, order and threshold.
pub fn committee_id<'a>(
	rho: &[u8; 32],
	threshold: u32,
	shares: impl IntoIterator<Item = &'a PackedShare>,
) -> CommitteeId {
	let mut preimage = alloc::vec::Vec::from(COMMITTEE_ID_TAG);
	preimage.extend_from_slice(rho);
	preimage.extend_from_slice(&threshold.to_le_bytes());
	for share in shares {
		preimage.extend_from_slice(share.as_ref());
	}
	CommitteeId(blake2_256(&preimage))
}

/// Checks a member's share and its proof of possession over `statement` (which names the
/// committee, the member's seat, the creator and the chain): one ML-DSA-87 verification under
/// the share key.
pub fn verify_membership<B: MlDsaVerifier<MlDsa87>, Hash: Encode>(
	rho: &[u8; 32],
	share: &PackedShare,
	statement: &MembershipStatement<'_, Hash>,
	proof: &MlDsa87Signature,
) -> Result<(), ShareError> {
	let share_key = share.share_key(rho)?;
	B::verify(&share_key, &statement.encode(), Purpose::CommitteeShare.context(), proof)
		.then_some(())
		.ok_or(ShareError::InvalidProof)
}
