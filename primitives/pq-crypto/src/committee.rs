//! What a chain needs of a committee: shares, proofs of possession, the committee id, and the
//! aggregate key `pk*` of a signer set.
//!
//! Deriving `pk*` is additions mod `q`, one `Power2Round` and one `pkEncode`: no NTT, no
//! sampling. The cost that matters is reading shares, so [`ShareSum`] supports both ways to
//! get `Σ_{i∈P} tᵢ`: adding the present members, or subtracting the absent ones from the sum of
//! all — whichever reads fewer shares.

use crate::{
	aggregate::{
		encoding::{pack_t, pk_encode, unpack_t, unpack_t_group, PACKED_T_BYTES, T_GROUP_BYTES},
		ring::{power2round, Poly, PolyVec, K, Q},
		CommitteeId, SignerBitfield,
	},
	backend::MlDsaVerifier,
	bytes::fixed_bytes,
	keys::MlDsa87Public,
	keys::MlDsa87Signature,
	params::MlDsa87,
	statement::MembershipStatement,
	Purpose,
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
///
/// Shares are added and subtracted without reducing: each coefficient is below `q < 2^23`, so
/// 256 of them sum below `2^31`, and the sum is reduced once, when it is read. Per coefficient,
/// a share then costs an unpacking, a comparison and an addition — what makes deriving a
/// signer set's key cheap in Wasm, where the chain does it before verifying.
#[derive(Clone, Debug, Default)]
pub struct ShareSum {
	/// The shares added (and the starting sum), unreduced.
	added: PolyVec<K>,
	/// The shares subtracted, unreduced.
	subtracted: PolyVec<K>,
	/// Shares in `added` or `subtracted` since the last reduction, at most [`Self::LAZY_SHARES`].
	pending: u32,
}

impl PartialEq for ShareSum {
	fn eq(&self, other: &Self) -> bool {
		self.reduced() == other.reduced()
	}
}

impl Eq for ShareSum {}

impl ShareSum {
	/// Shares accumulated before a reduction: `256·(q − 1) < 2^32`, and `added` starts below `q`.
	const LAZY_SHARES: u32 = 255;

	/// Starts from a packed sum (such as the stored sum of all shares).
	pub fn from_packed(packed: &PackedShare) -> Result<Self, ShareError> {
		let mut sum = Self::default();
		sum.add(packed)?;
		Ok(sum)
	}

	/// Adds a share. On [`ShareError::NotReduced`] the sum is left partly updated: discard it.
	pub fn add(&mut self, share: &PackedShare) -> Result<(), ShareError> {
		self.make_room();
		accumulate(&mut self.added, share)
	}

	/// Subtracts a share. On [`ShareError::NotReduced`] the sum is left partly updated: discard it.
	pub fn subtract(&mut self, share: &PackedShare) -> Result<(), ShareError> {
		self.make_room();
		accumulate(&mut self.subtracted, share)
	}

	/// Reduces the sum when one more share could overflow it.
	fn make_room(&mut self) {
		if self.pending == Self::LAZY_SHARES {
			self.added = self.reduced();
			self.subtracted = Default::default();
			self.pending = 0;
		}
		self.pending += 1;
	}

	/// `added − subtracted mod q`, each coefficient in `[0, q)`.
	fn reduced(&self) -> PolyVec<K> {
		core::array::from_fn(|row| {
			Poly(core::array::from_fn(|i| {
				let (added, subtracted) = (self.added[row].0[i] % Q, self.subtracted[row].0[i] % Q);
				if added >= subtracted {
					added - subtracted
				} else {
					added + Q - subtracted
				}
			}))
		})
	}

	/// The packed sum.
	pub fn pack(&self) -> PackedShare {
		PackedShare::pack(&self.reduced())
	}

	/// `pk* = pkEncode(ρ, Power2Round(Σ tᵢ).t1)`: an ordinary ML-DSA-87 public key.
	pub fn aggregate_key(&self, rho: &[u8; 32]) -> MlDsa87Public {
		pk_encode(rho, &t1_of(&self.reduced()))
	}
}

/// Adds `share`'s coefficients to `sums` without reducing, eight at a time from their packing:
/// one pass, no copies. Whether every coefficient is below `q` is checked once, after it.
fn accumulate(sums: &mut PolyVec<K>, share: &PackedShare) -> Result<(), ShareError> {
	let mut not_reduced = false;
	let groups = share.0.chunks_exact(T_GROUP_BYTES);
	for (sums, group) in sums.iter_mut().flat_map(|poly| poly.0.chunks_exact_mut(8)).zip(groups) {
		for (sum, c) in sums.iter_mut().zip(unpack_t_group(group)) {
			not_reduced |= c >= Q;
			*sum += c;
		}
	}
	if not_reduced {
		return Err(ShareError::NotReduced);
	}
	Ok(())
}

/// `Power2Round(t).t1` (FIPS 204 Algorithm 35), what a public key encodes of `t`.
pub fn t1_of(t: &PolyVec<K>) -> PolyVec<K> {
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

#[cfg(test)]
mod tests {
	use super::*;
	use crate::aggregate::ring::N;

	/// The largest coefficients, added and subtracted past the lazy limit, reduce to what
	/// reducing at every step gives.
	#[test]
	fn lazy_sums_equal_sums_reduced_at_every_step() {
		let t: PolyVec<K> = core::array::from_fn(|i| {
			Poly(core::array::from_fn(|j| Q - 1 - ((i * N + j) as u32 % 7)))
		});
		let share = PackedShare::pack(&t);
		let mut sum = ShareSum::default();
		for _ in 0..700 {
			sum.add(&share).unwrap();
		}
		for _ in 0..300 {
			sum.subtract(&share).unwrap();
		}
		let expected: PolyVec<K> =
			t.map(|poly| Poly(poly.0.map(|c| ((c as u64 * 400) % Q as u64) as u32)));
		assert_eq!(sum.pack(), PackedShare::pack(&expected));
	}
}
