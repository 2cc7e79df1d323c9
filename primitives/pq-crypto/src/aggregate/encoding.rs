//! The bit packing committees need beyond verification, for ML-DSA-87: the share encoding and
//! Algorithm 22 `pkEncode` (a signer set's aggregate key). What verification needs is
//! [`fips204::encoding`]; what only signing needs is `pq_signer::aggregator::encoding`.

use super::ring::{PolyVec, K, N};
use crate::keys::MlDsa87Public;
use alloc::vec::Vec;
use fips204::encoding::pack;

/// Bits of a coefficient in `[0, q)`: a share packs the full `t`, not `t1`.
pub const T_BITS: usize = 23;
/// Bytes of a packed `t` (k polynomials of 256 coefficients, 23 bits each).
pub const PACKED_T_BYTES: usize = K * N * T_BITS / 8;

fn coefficients<const M: usize>(v: &PolyVec<M>) -> impl Iterator<Item = u32> + '_ {
	v.iter().flat_map(|poly| poly.0.iter().copied())
}

/// Packs `t` (coefficients in `[0, q)`) into [`PACKED_T_BYTES`] bytes.
pub fn pack_t(t: &PolyVec<K>) -> Vec<u8> {
	let mut out = Vec::with_capacity(PACKED_T_BYTES);
	pack(coefficients(t), T_BITS, &mut out);
	out
}

/// Bytes of eight packed 23-bit coefficients.
pub const T_GROUP_BYTES: usize = T_BITS;

/// Eight coefficients of [`pack_t`]'s encoding from their 23 bytes (Algorithm 18
/// `SimpleBitUnpack`, eight at a time). Coefficient `i` starts at bit `23·i`, so one 32-bit
/// little-endian load at its first byte holds it whole (a shift below 8 plus 23 bits): no
/// 128-bit arithmetic, which Wasm would emulate. They are 23-bit and may be `≥ q` if not
/// checked.
pub fn unpack_t_group(group: &[u8]) -> [u32; 8] {
	const MASK: u32 = (1 << T_BITS) - 1;
	// The group and one byte of padding, so the last load stays inside.
	let mut bytes = [0u8; T_GROUP_BYTES + 1];
	bytes[..T_GROUP_BYTES].copy_from_slice(&group[..T_GROUP_BYTES]);
	core::array::from_fn(|i| {
		let (byte, shift) = (i * T_BITS / 8, i * T_BITS % 8);
		let word =
			u32::from_le_bytes([bytes[byte], bytes[byte + 1], bytes[byte + 2], bytes[byte + 3]]);
		(word >> shift) & MASK
	})
}

/// Every coefficient of [`pack_t`]'s encoding, polynomial by polynomial.
pub fn unpack_t(bytes: &[u8; PACKED_T_BYTES]) -> impl Iterator<Item = u32> + '_ {
	bytes.chunks_exact(T_GROUP_BYTES).flat_map(unpack_t_group)
}

/// Algorithm 22 `pkEncode(ρ, t1)`: 32 + 8·320 = 2,592 bytes.
pub fn pk_encode(rho: &[u8; 32], t1: &PolyVec<K>) -> MlDsa87Public {
	let mut out = Vec::with_capacity(MlDsa87Public::LEN);
	out.extend_from_slice(rho);
	pack(coefficients(t1), 10, &mut out);
	MlDsa87Public::from_slice(&out).expect("pkEncode writes an ML-DSA-87 public key's bytes")
}

#[cfg(test)]
mod tests {
	use super::*;
	use crate::aggregate::ring::{Poly, Q};

	#[test]
	fn t_packs_into_5888_bytes_and_back() {
		let t: PolyVec<K> = core::array::from_fn(|i| {
			Poly(core::array::from_fn(|j| ((i * N + j) as u32 * 40_503) % Q))
		});
		let packed = pack_t(&t);
		assert_eq!(packed.len(), 5888);
		let unpacked: Vec<u32> = unpack_t(&packed.try_into().unwrap()).collect();
		assert_eq!(unpacked, coefficients(&t).collect::<Vec<_>>());
	}
}
