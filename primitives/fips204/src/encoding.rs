//! Bit packing (FIPS 204 §7.1–7.2): what verification decodes and encodes.

use super::{
	ring::{Poly, N, Q},
	Parameters, MAX_K, MAX_L, MAX_W1_BYTES,
};
use alloc::vec::Vec;

/// Algorithm 16 `SimpleBitPack` of every value (each must fit `bits` bits), appended to `out`.
pub fn pack(values: impl Iterator<Item = u32>, bits: usize, out: &mut Vec<u8>) {
	let (mut buffer, mut held) = (0u64, 0usize);
	for value in values {
		buffer |= (value as u64) << held;
		held += bits;
		while held >= 8 {
			out.push(buffer as u8);
			buffer >>= 8;
			held -= 8;
		}
	}
	debug_assert_eq!(held, 0, "whole polynomials always fill whole bytes");
}

/// Coefficient `index` of a polynomial packed at `bits` (at most 25) bits per coefficient,
/// little-endian (Algorithm 18 `SimpleBitUnpack`).
pub fn unpack_bits(packed: &[u8], index: usize, bits: usize) -> u32 {
	let first_bit = index * bits;
	let rest = &packed[first_bit / 8..];
	// Four bytes at once where there are four (a copy of a variable length would be a call to
	// `memcpy` in Wasm, per coefficient); byte by byte at the end of the string.
	let word = match rest.first_chunk::<4>() {
		Some(bytes) => u32::from_le_bytes(*bytes),
		None => rest.iter().rev().fold(0, |word, &byte| word << 8 | byte as u32),
	};
	(word >> (first_bit % 8)) & ((1 << bits) - 1)
}

/// Bytes of one packed polynomial of `t1` (10 bits per coefficient).
pub const T1_POLY_BYTES: usize = N * 10 / 8;

/// Algorithm 28 `w1Encode`: `w1 ∈ [0, (q − 1)/(2γ2))` at [`Parameters::w1_bits`] bits (4 or
/// 6), into `out`; returns the encoding, its polynomials' ([`w1_encode_poly`]) in order.
///
/// # Panics
/// If `w1` holds more polynomials than `k`, whose encoding would not fit `out`.
pub fn w1_encode<'a>(
	parameters: &Parameters,
	w1: &[Poly],
	out: &'a mut [u8; MAX_W1_BYTES],
) -> &'a [u8] {
	let poly_bytes = parameters.w1_poly_bytes();
	assert!(w1.len() <= parameters.k, "k polynomials");
	let encoded = &mut out[..w1.len() * poly_bytes];
	for (poly, bytes) in w1.iter().zip(encoded.chunks_exact_mut(poly_bytes)) {
		w1_encode_poly(parameters, poly, bytes);
	}
	encoded
}

/// One polynomial of Algorithm 28 `w1Encode` into `out`, its [`Parameters::w1_poly_bytes`]
/// bytes: a polynomial's 256 coefficients fill whole bytes, so verification encodes each row of
/// `w1` as it makes it and keeps none (ML-DSA-87's `w1` whole is 8 KiB of stack). Eight
/// coefficients fill `bits` whole bytes, so they are packed eight at a time into a word and its
/// bytes stored (a byte at a time onto a `Vec`, each with its capacity check, was 70
/// instructions a coefficient in Wasm).
///
/// # Panics
/// If `out` is not [`Parameters::w1_poly_bytes`] long.
pub fn w1_encode_poly(parameters: &Parameters, w1: &Poly, out: &mut [u8]) {
	let bits = parameters.w1_bits();
	assert!(bits <= 8 && out.len() == parameters.w1_poly_bytes(), "eight coefficients a word");
	for (group, bytes) in w1.0.chunks_exact(8).zip(out.chunks_exact_mut(bits)) {
		let word = group
			.iter()
			.enumerate()
			.fold(0u64, |word, (i, &coefficient)| word | (coefficient as u64) << (i * bits));
		for (i, byte) in bytes.iter_mut().enumerate() {
			*byte = (word >> (8 * i)) as u8;
		}
	}
}

/// A signature `(c̃, z, h)` as Algorithm 27 `sigDecode` returns it. Only the first `ℓ`
/// polynomials of `z` and `k` rows of `h` belong to it.
pub struct DecodedSignature<'a> {
	/// The commitment hash `c̃`, `λ/4` bytes.
	pub c_tilde: &'a [u8],
	/// The response `z`, coefficients `mod q`.
	pub z: [Poly; MAX_L],
	/// The hint `h`.
	pub hint: [[bool; N]; MAX_K],
}

/// No signature yet: the place [`DecodedSignature::decode`] decodes one into.
impl Default for DecodedSignature<'_> {
	fn default() -> Self {
		Self { c_tilde: &[], z: [Poly::default(); MAX_L], hint: [[false; N]; MAX_K] }
	}
}

/// Algorithm 19 `BitUnpack(·, γ1 − 1, γ1)` of one coefficient: `z = γ1 − value mod q` for a
/// `value < 2γ1`. `z ∈ (−γ1, γ1]` and `γ1 < q`, so no division (a 64-bit one is slow in Wasm).
#[inline(always)]
fn z_coefficient(value: u32, gamma1: u32) -> u32 {
	if value <= gamma1 {
		gamma1 - value
	} else {
		Q + gamma1 - value
	}
}

impl<'a> DecodedSignature<'a> {
	/// Algorithm 27 `sigDecode` of `signature` into this one, in place: `false` where
	/// Algorithm 21 `HintBitUnpack` returns `⊥` (hint counts out of order or above `ω`, indices
	/// not strictly increasing within a polynomial, or nonzero padding) or `signature` is not
	/// the level's length, and then what this holds is no signature. In place because a decoded
	/// signature is up to 9 KB, and in Wasm, where every runtime call starts from fresh memory,
	/// each copy of it (a returned value moved into its caller's frame) lands in new pages,
	/// each a page fault.
	pub fn decode(&mut self, parameters: &Parameters, signature: &'a [u8]) -> bool {
		let &Parameters { k, l, gamma1, omega, .. } = parameters;
		if signature.len() != parameters.signature_bytes() {
			return false;
		}
		let z_bits = parameters.z_bits();
		let z_poly_bytes = N * z_bits / 8;
		let (c_tilde, rest) = signature.split_at(parameters.c_tilde_bytes());
		self.c_tilde = c_tilde;
		let (packed_z, hints) = rest.split_at(l * z_poly_bytes);
		for (poly, packed) in self.z.iter_mut().zip(packed_z.chunks_exact(z_poly_bytes)) {
			for (i, coefficient) in poly.0.iter_mut().enumerate() {
				*coefficient = z_coefficient(unpack_bits(packed, i, z_bits), gamma1);
			}
		}
		let mut index = 0usize;
		for (row, hint_row) in self.hint.iter_mut().enumerate().take(k) {
			hint_row.fill(false);
			let end = hints[omega + row] as usize;
			if end < index || end > omega {
				return false;
			}
			let first = index;
			while index < end {
				if index > first && hints[index - 1] >= hints[index] {
					return false;
				}
				hint_row[hints[index] as usize] = true;
				index += 1;
			}
		}
		hints[index..omega].iter().all(|&byte| byte == 0)
	}
}

#[cfg(test)]
mod tests {
	use super::*;
	use crate::{ring::tests::xorshift, MlDsa44, MlDsa65, MlDsa87, ParameterSet};

	/// `w1Encode` is Algorithm 16 `SimpleBitPack` bit by bit (coefficient `i`'s bit `j` at bit
	/// `i·bits + j` of the string, little-endian in each byte) at every level, on `k`
	/// pseudorandom polynomials of `w1`'s range, and the largest coefficients: ML-DSA-44's 6
	/// bits and the other levels' 4.
	#[test]
	fn w1_encodes_as_simple_bit_pack_at_every_level() {
		fn check<P: ParameterSet>() {
			let parameters = P::PARAMETERS;
			let (bits, range) = (parameters.w1_bits(), (Q - 1) / (2 * parameters.gamma2));
			let mut next = xorshift(bits as u64 * 7919 + P::K as u64);
			let random =
				(0..P::K).map(|_| Poly(core::array::from_fn(|_| (next() % range as u64) as u32)));
			for w1 in [random.collect::<Vec<_>>(), vec![Poly([range - 1; N]); P::K]] {
				let mut expected = vec![0u8; P::K * N * bits / 8];
				for (i, &coefficient) in w1.iter().flat_map(|poly| poly.0.iter()).enumerate() {
					for bit in 0..bits {
						if coefficient >> bit & 1 == 1 {
							expected[(i * bits + bit) / 8] |= 1 << ((i * bits + bit) % 8);
						}
					}
				}
				let mut out = [0u8; MAX_W1_BYTES];
				assert_eq!(w1_encode(&parameters, &w1, &mut out), expected, "{bits} bits");
			}
		}
		check::<MlDsa44>();
		check::<MlDsa65>();
		check::<MlDsa87>();
		assert_eq!(MAX_W1_BYTES, MlDsa87::PARAMETERS.w1_bytes());
	}

	#[test]
	fn bits_unpack_across_byte_boundaries() {
		// Coefficients 0..8 at 10 bits: 0x3ff, 1, 2, …
		let values = [0x3ff, 1, 2, 3, 0x200, 5, 6, 0x155];
		let mut packed = [0u8; 10];
		for (i, value) in values.iter().enumerate() {
			for bit in 0..10 {
				if value >> bit & 1 == 1 {
					packed[(i * 10 + bit) / 8] |= 1 << ((i * 10 + bit) % 8);
				}
			}
		}
		for (i, value) in values.iter().enumerate() {
			assert_eq!(unpack_bits(&packed, i, 10), *value);
		}
		let mut repacked = Vec::new();
		pack(values.iter().copied(), 10, &mut repacked);
		assert_eq!(repacked, packed);
	}

	/// Every coefficient of every width FIPS 204 packs, against reading bit by bit: the
	/// four-byte reads and the byte-by-byte tail at the end of the string.
	#[test]
	fn bits_unpack_as_read_bit_by_bit_at_every_width() {
		let mut next = crate::ring::tests::xorshift(0x2545_f491_4f6c_dd1d);
		let random: Vec<u8> = (0..N * 25 / 8).map(|_| next() as u8).collect();
		for bits in [4, 6, 10, 13, 18, 20, 25] {
			let packed = &random[..N * bits / 8];
			for i in 0..N {
				let expected = (0..bits).fold(0u32, |value, bit| {
					let position = i * bits + bit;
					value | ((packed[position / 8] >> (position % 8) & 1) as u32) << bit
				});
				assert_eq!(unpack_bits(packed, i, bits), expected, "{bits} bits, coefficient {i}");
			}
		}
	}

	/// `z = γ1 − value mod q` for every value `BitUnpack` can give, at both `γ1` of FIPS 204.
	#[test]
	fn z_coefficients_are_gamma1_minus_the_value_mod_q() {
		for gamma1 in [1u32 << 17, 1 << 19] {
			for value in 0..2 * gamma1 {
				let expected = (gamma1 as i64 - value as i64).rem_euclid(Q as i64) as u32;
				assert_eq!(z_coefficient(value, gamma1), expected, "γ1 = {gamma1}, value {value}");
			}
		}
	}
}
