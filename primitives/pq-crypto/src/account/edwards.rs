//! Whether 32 bytes decode as a point of edwards25519, under the most permissive decoder.
//!
//! An Ed25519 public key is the encoding of a point: the low 255 bits are `y`, the top bit
//! the sign of `x`. A decoder recovers `x` from `x² = u/v`, `u = y² − 1`, `v = d·y² + 1`, so
//! the bytes decode exactly when `u/v` is a square mod `p = 2^255 − 19` (zero included). The
//! most permissive decoders — `curve25519-dalek`'s `decompress`, and so `ed25519-dalek` and
//! `ed25519-zebra` (ZIP 215), which sp-io's Ed25519 host function uses — accept every such
//! encoding: `y ≥ p` is read mod `p`, and `x = 0` with the sign bit set is accepted. Stricter
//! decoders accept a subset. So bytes for which [`decodes_as_point`] is false are refused as an
//! Ed25519 key by every decoder.
//!
//! This is written here, not taken from `curve25519-dalek`, so that the tests can check the
//! account ids of [`super`] with that library (and `ed25519-zebra`) as decoders independent of
//! the rule that made them. It handles public data only and need not be constant-time; `u/v`
//! is a square exactly when the Legendre symbol of `u·v` is not −1 (`v` is never 0, since
//! `−1/d` is not a square), computed with the binary Jacobi algorithm: shifts and
//! subtractions, no exponentiation, cheap in Wasm.

/// A 256-bit number, four 64-bit limbs, least significant first.
type U256 = [u64; 4];

/// `p = 2^255 − 19`.
const P: U256 = [0xffff_ffff_ffff_ffed, u64::MAX, u64::MAX, 0x7fff_ffff_ffff_ffff];
/// `p − 1`, added to subtract one mod `p`.
const P_MINUS_ONE: U256 = [0xffff_ffff_ffff_ffec, u64::MAX, u64::MAX, 0x7fff_ffff_ffff_ffff];
/// `d = −121665/121666 mod p`, the curve constant (RFC 8032, section 5.1).
const D: U256 =
	[0x75eb_4dca_1359_78a3, 0x0070_0a4d_4141_d8ab, 0x8cc7_4079_7779_e898, 0x5203_6cee_2b6f_fe73];
const ONE: U256 = [1, 0, 0, 0];

/// Whether `bytes` is the encoding of an edwards25519 point under the permissive rule above.
pub fn decodes_as_point(bytes: &[u8; 32]) -> bool {
	let y = reduce(from_bytes_without_sign(bytes));
	let y_squared = multiply(&y, &y);
	let u = add(&y_squared, &P_MINUS_ONE);
	let v = add(&multiply(&D, &y_squared), &ONE);
	legendre(multiply(&u, &v)) != -1
}

/// The low 255 bits of `bytes`, little-endian: the `y` of an encoding, not yet reduced.
fn from_bytes_without_sign(bytes: &[u8; 32]) -> U256 {
	let mut limbs: U256 = core::array::from_fn(|i| {
		u64::from_le_bytes(bytes[8 * i..8 * i + 8].try_into().expect("8 of 32 bytes"))
	});
	limbs[3] &= 0x7fff_ffff_ffff_ffff;
	limbs
}

/// `a mod p` for any 256-bit `a` (below `3p`, so at most two subtractions).
fn reduce(mut a: U256) -> U256 {
	while !less_than(&a, &P) {
		a = subtract(&a, &P);
	}
	a
}

/// `a·b mod p`: the 512-bit product, folded with `2^256 ≡ 38 (mod p)`.
fn multiply(a: &U256, b: &U256) -> U256 {
	let mut wide = [0u64; 8];
	for i in 0..4 {
		let mut carry = 0u128;
		for j in 0..4 {
			let sum = wide[i + j] as u128 + a[i] as u128 * b[j] as u128 + carry;
			wide[i + j] = sum as u64;
			carry = sum >> 64;
		}
		wide[i + 4] = carry as u64;
	}
	let mut folded = [0u64; 4];
	let mut carry = 0u128;
	for i in 0..4 {
		let sum = wide[i] as u128 + wide[i + 4] as u128 * 38 + carry;
		folded[i] = sum as u64;
		carry = sum >> 64;
	}
	// What carried out is worth `carry · 2^256 ≡ 38·carry`: fold it in too, which carries out
	// again only when `folded` was within `38·carry` of `2^256` (then it is small after).
	while carry != 0 {
		let mut extra = carry * 38;
		for limb in folded.iter_mut() {
			let sum = *limb as u128 + extra;
			*limb = sum as u64;
			extra = sum >> 64;
		}
		carry = extra;
	}
	reduce(folded)
}

/// `a + b` for `a, b < p` (or any pair whose sum fits 256 bits), not reduced.
fn add(a: &U256, b: &U256) -> U256 {
	let mut sum = [0u64; 4];
	let mut carry = false;
	for i in 0..4 {
		let (partial, first) = a[i].overflowing_add(b[i]);
		let (total, second) = partial.overflowing_add(carry as u64);
		sum[i] = total;
		carry = first || second;
	}
	debug_assert!(!carry, "operands below p sum to below 2^256");
	sum
}

/// `a − b` for `a ≥ b`.
fn subtract(a: &U256, b: &U256) -> U256 {
	let mut difference = [0u64; 4];
	let mut borrow = false;
	for i in 0..4 {
		let (partial, first) = a[i].overflowing_sub(b[i]);
		let (total, second) = partial.overflowing_sub(borrow as u64);
		difference[i] = total;
		borrow = first || second;
	}
	difference
}

fn less_than(a: &U256, b: &U256) -> bool {
	a.iter().rev().cmp(b.iter().rev()).is_lt()
}

fn is_zero(a: &U256) -> bool {
	a.iter().all(|&limb| limb == 0)
}

/// `a >> shift` for `shift < 256`.
fn shift_right(a: &U256, shift: u32) -> U256 {
	let (limbs, bits) = ((shift / 64) as usize, shift % 64);
	core::array::from_fn(|i| {
		let low = a.get(i + limbs).copied().unwrap_or(0);
		let high = a.get(i + limbs + 1).copied().unwrap_or(0);
		if bits == 0 {
			low
		} else {
			(low >> bits) | (high << (64 - bits))
		}
	})
}

fn trailing_zeros(a: &U256) -> u32 {
	let mut zeros = 0;
	for &limb in a {
		if limb != 0 {
			return zeros + limb.trailing_zeros();
		}
		zeros += 64;
	}
	zeros
}

/// The Legendre symbol `(a/p)`: 1 for a non-zero square mod `p`, −1 for a non-square, 0 for
/// a multiple of `p`. The binary Jacobi algorithm: with `n` odd, halving `a` flips the sign
/// when `n ≡ 3, 5 (mod 8)`; swapping two odd numbers flips it when both are `≡ 3 (mod 4)`
/// (quadratic reciprocity); subtracting `n` from `a ≥ n` leaves it unchanged.
fn legendre(mut a: U256) -> i8 {
	let mut n = P;
	let mut symbol = 1;
	while !is_zero(&a) {
		let twos = trailing_zeros(&a);
		a = shift_right(&a, twos);
		if twos % 2 == 1 && matches!(n[0] % 8, 3 | 5) {
			symbol = -symbol;
		}
		if less_than(&a, &n) {
			core::mem::swap(&mut a, &mut n);
			if a[0] % 4 == 3 && n[0] % 4 == 3 {
				symbol = -symbol;
			}
		}
		a = subtract(&a, &n);
	}
	if n == ONE {
		symbol
	} else {
		0
	}
}

#[cfg(test)]
mod tests {
	use super::*;

	fn from_u64(value: u64) -> U256 {
		[value, 0, 0, 0]
	}

	#[test]
	fn d_is_minus_121665_over_121666() {
		let product = multiply(&D, &from_u64(121_666));
		assert_eq!(reduce(add(&product, &from_u64(121_665))), [0; 4]);
	}

	#[test]
	fn legendre_agrees_with_eulers_criterion_on_small_numbers() {
		// Squares are squares (p ≡ 5 mod 8: −1 is a square, 2 is not).
		for x in 1..200u64 {
			assert_eq!(legendre(multiply(&from_u64(x), &from_u64(x))), 1, "{x}²");
		}
		assert_eq!(legendre(P_MINUS_ONE), 1, "−1 is a square mod p, since p ≡ 1 (mod 4)");
		assert_eq!(legendre(from_u64(2)), -1, "2 is not a square mod p, since p ≡ 5 (mod 8)");
		assert_eq!(legendre([0; 4]), 0);
		assert_eq!(legendre(P), 0);
	}
}
