//! The ring's hot loops written for AVX2: `NTT` and `NTT⁻¹` (Algorithms 41 and 42), the
//! products of Algorithm 8's `w′Approx` and `UseHint` (Algorithm 40), eight coefficients per
//! instruction.
//!
//! Every result equals the portable code's in [`super::ring`] exactly: coefficients stay in
//! `[0, q)` (Shoup's multiplication by a constant, conditional subtractions through unsigned
//! minimum), and the butterflies run in the same order with the same constants. The last three
//! layers pair coefficients within eight-coefficient rows, so each block of 64 coefficients is
//! transposed, worked on column by column, and transposed back. Tests compare both on the same
//! inputs; the ACVP suites run on both engines.

use super::{
	ring::{Poly, GAMMA2_BY_32, GAMMA2_BY_88, N, NEG_ZETAS_SHOUP, Q, ZETAS, ZETAS_SHOUP},
	Arithmetic,
};
use core::arch::x86_64::*;

/// Proof that this CPU supports AVX2: built only by [`Avx2::detect`], required by every
/// function here, so none runs on a CPU without it.
#[derive(Clone, Copy, Debug)]
pub struct Avx2(());

impl Avx2 {
	/// The token, if this CPU supports AVX2.
	pub fn detect() -> Option<Self> {
		libcrux_platform::simd256_support().then_some(Self(()))
	}
}

impl Arithmetic for Avx2 {
	#[inline(always)]
	fn ntt(self, poly: &mut Poly) {
		// SAFETY: `self` exists only where the CPU supports AVX2.
		unsafe { ntt(poly) }
	}

	#[inline(always)]
	fn inverse_ntt(self, poly: &mut Poly) {
		// SAFETY: as above.
		unsafe { inverse_ntt(poly) }
	}

	#[inline(always)]
	fn inner_product_minus(
		self,
		a_hat: &[Poly],
		b_hat: &[Poly],
		c_hat: &Poly,
		d_hat: &Poly,
		out: &mut Poly,
	) {
		// SAFETY: as above.
		unsafe { inner_product_minus(a_hat, b_hat, c_hat, d_hat, out) }
	}

	#[inline(always)]
	fn use_hints(self, hint: &[bool; N], r: &Poly, gamma2: u32, w1: &mut Poly) {
		// SAFETY: as above.
		unsafe { use_hints(hint, r, gamma2, w1) }
	}
}

/// Eight coefficients.
type Lanes = __m256i;
/// A polynomial as 32 vectors: vector `i` holds coefficients `8i..8i + 8`.
type Vectors = [Lanes; N / 8];

fn vectors(poly: &mut Poly) -> &mut Vectors {
	const _: () = assert!(core::mem::align_of::<Poly>() >= core::mem::align_of::<Vectors>());
	// SAFETY: `Poly` is 1024 bytes aligned to 32 (asserted), the size and alignment of
	// `Vectors`, and every bit pattern is a valid `u32` and `__m256i`.
	unsafe { &mut *(poly.0.as_mut_ptr() as *mut Vectors) }
}

fn vectors_of(poly: &Poly) -> &Vectors {
	// SAFETY: as in [`vectors`].
	unsafe { &*(poly.0.as_ptr() as *const Vectors) }
}

#[inline(always)]
fn splat(value: u32) -> Lanes {
	// SAFETY: AVX is implied by AVX2, which every caller enables.
	unsafe { _mm256_set1_epi32(value as i32) }
}

/// A constant per lane and its Shoup companions, for [`mul_constant`].
#[derive(Clone, Copy)]
struct Constant {
	value: Lanes,
	shoup: Lanes,
}

impl Constant {
	#[inline(always)]
	fn splat(value: u32, shoup: u32) -> Self {
		Self { value: splat(value), shoup: splat(shoup) }
	}

	#[inline(always)]
	fn lanes(value: &[u32; 8], shoup: &[u32; 8]) -> Self {
		// SAFETY: both point to 32 readable bytes; `loadu` accepts any alignment.
		unsafe {
			Self {
				value: _mm256_loadu_si256(value.as_ptr() as *const Lanes),
				shoup: _mm256_loadu_si256(shoup.as_ptr() as *const Lanes),
			}
		}
	}
}

/// `a + b mod q` of `a, b < q`: the sum, or the sum minus `q` where that is smaller
/// (unsigned, so it is smaller exactly when it did not wrap).
#[target_feature(enable = "avx2")]
#[inline]
fn add(a: Lanes, b: Lanes) -> Lanes {
	let sum = _mm256_add_epi32(a, b);
	_mm256_min_epu32(sum, _mm256_sub_epi32(sum, splat(Q)))
}

/// `a − b mod q` of `a, b < q`.
#[target_feature(enable = "avx2")]
#[inline]
fn sub(a: Lanes, b: Lanes) -> Lanes {
	let difference = _mm256_sub_epi32(a, b);
	_mm256_min_epu32(difference, _mm256_add_epi32(difference, splat(Q)))
}

/// `w·a mod q` per lane, [`super::ring`]'s `mul_constant`: the quotient is the high half of
/// `w_shoup·a`, from the even and the odd lanes' 64-bit products.
#[target_feature(enable = "avx2")]
#[inline]
fn mul_constant(w: Constant, a: Lanes) -> Lanes {
	let even = _mm256_mul_epu32(w.shoup, a);
	let odd = _mm256_mul_epu32(_mm256_srli_epi64::<32>(w.shoup), _mm256_srli_epi64::<32>(a));
	let quotient = _mm256_blend_epi32::<0b1010_1010>(_mm256_srli_epi64::<32>(even), odd);
	let r =
		_mm256_sub_epi32(_mm256_mullo_epi32(w.value, a), _mm256_mullo_epi32(quotient, splat(Q)));
	_mm256_min_epu32(r, _mm256_sub_epi32(r, splat(Q)))
}

/// Algorithm 41's butterfly: `(a, b) ← (a + ζb, a − ζb)`.
#[target_feature(enable = "avx2")]
#[inline]
fn forward_butterfly(a: &mut Lanes, b: &mut Lanes, zeta: Constant) {
	let t = mul_constant(zeta, *b);
	*b = sub(*a, t);
	*a = add(*a, t);
}

/// Algorithm 42's butterfly: `(a, b) ← (a + b, −ζ(a − b))`, `zeta` holding `−ζ`.
#[target_feature(enable = "avx2")]
#[inline]
fn inverse_butterfly(a: &mut Lanes, b: &mut Lanes, minus_zeta: Constant) {
	let t = *a;
	*a = add(t, *b);
	*b = mul_constant(minus_zeta, sub(t, *b));
}

/// Transposes eight rows of eight lanes (its own inverse).
#[target_feature(enable = "avx2")]
#[inline]
fn transpose(rows: &mut [Lanes]) {
	let r = |i: usize| rows[i];
	let pairs_low = [0, 2, 4, 6].map(|i| _mm256_unpacklo_epi32(r(i), r(i + 1)));
	let pairs_high = [0, 2, 4, 6].map(|i| _mm256_unpackhi_epi32(r(i), r(i + 1)));
	// Column c of rows 0–3 (first half) and 4–7 (second half of each 128-bit lane pair).
	let quads = [
		_mm256_unpacklo_epi64(pairs_low[0], pairs_low[1]),
		_mm256_unpackhi_epi64(pairs_low[0], pairs_low[1]),
		_mm256_unpacklo_epi64(pairs_high[0], pairs_high[1]),
		_mm256_unpackhi_epi64(pairs_high[0], pairs_high[1]),
		_mm256_unpacklo_epi64(pairs_low[2], pairs_low[3]),
		_mm256_unpackhi_epi64(pairs_low[2], pairs_low[3]),
		_mm256_unpacklo_epi64(pairs_high[2], pairs_high[3]),
		_mm256_unpackhi_epi64(pairs_high[2], pairs_high[3]),
	];
	for c in 0..4 {
		rows[c] = _mm256_permute2x128_si256::<0x20>(quads[c], quads[c + 4]);
		rows[c + 4] = _mm256_permute2x128_si256::<0x31>(quads[c], quads[c + 4]);
	}
}

/// The per-lane constants of the last three layers of block `g` (64 coefficients), as
/// [`transposed_layers`] uses them: lane `r` serves row `r`, so it takes the constant of the
/// butterfly group that row's coefficients fall in. Slot 0: the layer of length 4; slots 1–2:
/// length 2, columns 0–1 then 4–5; slots 3–6: length 1, columns 0, 2, 4, 6.
struct LaneConstants {
	value: [[[u32; 8]; 7]; 4],
	shoup: [[[u32; 8]; 7]; 4],
}

/// The index `m` into `ZETAS` of slot `slot`, block `g`, lane `r`, in Algorithm 41 (`forward`)
/// or 42.
const fn lane_zeta_index(forward: bool, g: usize, slot: usize, r: usize) -> usize {
	let (offset, group) = match slot {
		0 => (32, 8 * g + r),
		1 | 2 => (64, 16 * g + 2 * r + (slot - 1)),
		_ => (128, 32 * g + 4 * r + (slot - 3)),
	};
	if forward {
		offset + group
	} else {
		2 * offset - 1 - group
	}
}

const fn lane_constants(forward: bool) -> LaneConstants {
	let mut table = LaneConstants { value: [[[0; 8]; 7]; 4], shoup: [[[0; 8]; 7]; 4] };
	let (mut g, mut slot, mut r) = (0, 0, 0);
	while g < 4 {
		while slot < 7 {
			while r < 8 {
				let m = lane_zeta_index(forward, g, slot, r);
				(table.value[g][slot][r], table.shoup[g][slot][r]) = if forward {
					(ZETAS[m], ZETAS_SHOUP[m])
				} else {
					(Q - ZETAS[m], NEG_ZETAS_SHOUP[m])
				};
				r += 1;
			}
			(slot, r) = (slot + 1, 0);
		}
		(g, slot) = (g + 1, 0);
	}
	table
}

const FORWARD_LANES: LaneConstants = lane_constants(true);
const INVERSE_LANES: LaneConstants = lane_constants(false);

/// The layers of lengths 4, 2 and 1 on transposed block `g`, where column `c` holds coefficient
/// `c` of every row: forward (4, 2, 1, Algorithm 41) or inverse (1, 2, 4, Algorithm 42).
#[target_feature(enable = "avx2")]
#[inline]
fn transposed_layers(columns: &mut [Lanes], g: usize, forward: bool) {
	let table = if forward { &FORWARD_LANES } else { &INVERSE_LANES };
	let constant = |slot: usize| Constant::lanes(&table.value[g][slot], &table.shoup[g][slot]);
	// (length, first columns of each pair, slot of each pair's constant)
	let layers: [(usize, [usize; 4], [usize; 4]); 3] = [
		(4, [0, 1, 2, 3], [0; 4]),
		(2, [0, 1, 4, 5], [1, 1, 2, 2]),
		(1, [0, 2, 4, 6], [3, 4, 5, 6]),
	];
	for step in 0..3 {
		let (length, firsts, slots) = layers[if forward { step } else { 2 - step }];
		for (first, slot) in firsts.into_iter().zip(slots) {
			let (low, high) = columns.split_at_mut(first + length);
			if forward {
				forward_butterfly(&mut low[first], &mut high[0], constant(slot));
			} else {
				inverse_butterfly(&mut low[first], &mut high[0], constant(slot));
			}
		}
	}
}

/// Algorithm 41 `NTT`, in place.
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
unsafe fn ntt(poly: &mut Poly) {
	let v = vectors(poly);
	// Lengths 128 down to 8: whole vectors, one constant per butterfly group.
	let (mut m, mut length) = (0, N / 8 / 2);
	while length >= 1 {
		for start in (0..N / 8).step_by(2 * length) {
			m += 1;
			let zeta = Constant::splat(ZETAS[m], ZETAS_SHOUP[m]);
			let (low, high) = v[start..].split_at_mut(length);
			for (a, b) in low.iter_mut().zip(&mut high[..length]) {
				forward_butterfly(a, b, zeta);
			}
		}
		length /= 2;
	}
	for (g, block) in v.chunks_exact_mut(8).enumerate() {
		transpose(block);
		transposed_layers(block, g, true);
		transpose(block);
	}
}

/// Algorithm 42 `NTT⁻¹`, in place.
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
unsafe fn inverse_ntt(poly: &mut Poly) {
	/// `256⁻¹ mod q`, as in [`super::ring`].
	const F: u32 = 8_347_681;
	let v = vectors(poly);
	for (g, block) in v.chunks_exact_mut(8).enumerate() {
		transpose(block);
		transposed_layers(block, g, false);
		transpose(block);
	}
	// Lengths 8 up to 128; Algorithm 42 counts `m` down from 256, and the layers of lengths
	// 1, 2 and 4 took 128 + 64 + 32 of its constants.
	let (mut m, mut length) = (32, 1);
	while length < N / 8 {
		for start in (0..N / 8).step_by(2 * length) {
			m -= 1;
			let minus_zeta = Constant::splat(Q - ZETAS[m], NEG_ZETAS_SHOUP[m]);
			let (low, high) = v[start..].split_at_mut(length);
			for (a, b) in low.iter_mut().zip(&mut high[..length]) {
				inverse_butterfly(a, b, minus_zeta);
			}
		}
		length *= 2;
	}
	let f = Constant::splat(F, super::ring::shoup(F));
	for lanes in v.iter_mut() {
		*lanes = mul_constant(f, *lanes);
	}
}

/// [`super::ring::inner_product_minus`]: the 64-bit sums of the even and the odd lanes, each
/// below `2^50`, reduced by Montgomery's REDC (to `sum·2^−32 mod q`, below `2q`) and a
/// multiplication by `2^32 mod q`.
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
unsafe fn inner_product_minus(
	a_hat: &[Poly],
	b_hat: &[Poly],
	c_hat: &Poly,
	d_hat: &Poly,
	out: &mut Poly,
) {
	debug_assert!(a_hat.len() == b_hat.len() && a_hat.len() < 16);
	use super::ring::{MINUS_Q_INVERSE, R};
	let q_squared = _mm256_set1_epi64x(Q as i64 * Q as i64);
	let odd = |lanes: Lanes| _mm256_srli_epi64::<32>(lanes);
	let redc = |sum: Lanes| {
		let m = _mm256_mul_epu32(sum, splat(MINUS_Q_INVERSE));
		_mm256_add_epi64(sum, _mm256_mul_epu32(m, splat(Q)))
	};
	let r = Constant::splat(R, super::ring::shoup(R));
	let (c, d) = (vectors_of(c_hat), vectors_of(d_hat));
	for (i, out) in vectors(out).iter_mut().enumerate() {
		let mut even_sum = _mm256_sub_epi64(q_squared, _mm256_mul_epu32(c[i], d[i]));
		let mut odd_sum = _mm256_sub_epi64(q_squared, _mm256_mul_epu32(odd(c[i]), odd(d[i])));
		for (a, b) in a_hat.iter().zip(b_hat) {
			let (a, b) = (vectors_of(a)[i], vectors_of(b)[i]);
			even_sum = _mm256_add_epi64(even_sum, _mm256_mul_epu32(a, b));
			odd_sum = _mm256_add_epi64(odd_sum, _mm256_mul_epu32(odd(a), odd(b)));
		}
		// REDC leaves each result in the high half of its 64-bit lane.
		let reduced = _mm256_blend_epi32::<0b1010_1010>(odd(redc(even_sum)), redc(odd_sum));
		let reduced = _mm256_min_epu32(reduced, _mm256_sub_epi32(reduced, splat(Q)));
		*out = mul_constant(r, reduced);
	}
}

/// `UseHint` (Algorithm 40) of eight coefficients, by the branch-free `Decompose` of the
/// reference implementation (pq-crystals `rounding.c`) for the two values of `γ2` in FIPS 204
/// Table 1: `r1 = ⌈r/128⌉` scaled by a fixed-point `1/(2γ2/128)`, folded to 0 at the top
/// (`r − r0 = q − 1`); `r0 = r − 2γ2·r1`, centered. A test compares it with [`super::ring`]'s
/// scalar form of the same on every `r < q`, and another that with the algorithms as written.
#[target_feature(enable = "avx2")]
#[inline]
fn use_hint(hint: Lanes, r: Lanes, gamma2: u32) -> Lanes {
	let constant = |value: i32| _mm256_set1_epi32(value);
	let high = _mm256_srli_epi32::<7>(_mm256_add_epi32(r, constant(127)));
	let (high, modulus) = if gamma2 == GAMMA2_BY_32 {
		let high = _mm256_srli_epi32::<22>(_mm256_add_epi32(
			_mm256_mullo_epi32(high, constant(1025)),
			constant(1 << 21),
		));
		(_mm256_and_si256(high, constant(15)), 16)
	} else {
		debug_assert_eq!(gamma2, GAMMA2_BY_88);
		let high = _mm256_srli_epi32::<24>(_mm256_add_epi32(
			_mm256_mullo_epi32(high, constant(11_275)),
			constant(1 << 23),
		));
		// 44 (only at r − r0 = q − 1) becomes 0.
		(
			_mm256_xor_si256(
				high,
				_mm256_and_si256(
					_mm256_srai_epi32::<31>(_mm256_sub_epi32(constant(43), high)),
					high,
				),
			),
			44,
		)
	};
	let low = _mm256_sub_epi32(r, _mm256_mullo_epi32(high, constant(2 * gamma2 as i32)));
	let low = _mm256_sub_epi32(
		low,
		_mm256_and_si256(
			_mm256_srai_epi32::<31>(_mm256_sub_epi32(constant((Q as i32 - 1) / 2), low)),
			constant(Q as i32),
		),
	);
	// With the hint, one step up (r0 > 0) or down, modulo m = (q − 1)/(2γ2).
	let up_or_down = _mm256_sub_epi32(
		_mm256_and_si256(_mm256_cmpgt_epi32(low, _mm256_setzero_si256()), constant(2)),
		constant(1),
	);
	let stepped = _mm256_add_epi32(
		high,
		_mm256_and_si256(up_or_down, _mm256_cmpgt_epi32(hint, _mm256_setzero_si256())),
	);
	let wrapped_below =
		_mm256_and_si256(_mm256_cmpgt_epi32(_mm256_setzero_si256(), stepped), constant(modulus));
	let stepped = _mm256_add_epi32(stepped, wrapped_below);
	let wrapped_above =
		_mm256_and_si256(_mm256_cmpeq_epi32(stepped, constant(modulus)), constant(modulus));
	_mm256_sub_epi32(stepped, wrapped_above)
}

/// [`use_hint`] of a polynomial with one row of hints, into `w1`.
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
unsafe fn use_hints(hint: &[bool; N], r: &Poly, gamma2: u32, w1: &mut Poly) {
	for ((out, r), hints) in vectors(w1).iter_mut().zip(vectors_of(r)).zip(hint.chunks_exact(8)) {
		// SAFETY: `hints` is 8 readable bytes, each 0 or 1 (`bool`).
		let hints =
			_mm256_cvtepu8_epi32(unsafe { _mm_loadl_epi64(hints.as_ptr() as *const __m128i) });
		*out = use_hint(hints, *r, gamma2);
	}
}

#[cfg(test)]
mod tests {
	use super::*;
	use crate::ring;

	/// Polynomials with coefficients spread over `[0, q)`, the edges included.
	fn samples() -> impl Iterator<Item = Poly> {
		let mut random = ring::tests::xorshift(0x2545_f491_4f6c_dd1d);
		let mut next = move || (random() % Q as u64) as u32;
		let random: [Poly; 6] = core::array::from_fn(|_| Poly(core::array::from_fn(|_| next())));
		[
			Poly([0; N]),
			Poly([Q - 1; N]),
			Poly(core::array::from_fn(|i| if i % 2 == 0 { Q - 1 } else { 0 })),
		]
		.into_iter()
		.chain(random)
	}

	// Without AVX2 there is nothing to compare (and the CPU is checked to lack it).
	#[test]
	fn avx2_ntt_and_inverse_equal_the_portable_ones() {
		let Some(avx2) = Avx2::detect() else {
			return assert!(!std::is_x86_feature_detected!("avx2"));
		};
		for poly in samples() {
			let mut vectorized = poly;
			avx2.ntt(&mut vectorized);
			assert_eq!(vectorized, poly.ntt());
			avx2.inverse_ntt(&mut vectorized);
			assert_eq!(vectorized, poly.ntt().inverse_ntt());
			assert_eq!(vectorized, poly);
			let mut inverse = poly;
			avx2.inverse_ntt(&mut inverse);
			assert_eq!(inverse, poly.inverse_ntt());
		}
	}

	#[test]
	fn avx2_use_hint_equals_the_portable_one_on_every_coefficient() {
		let Some(_) = Avx2::detect() else {
			return assert!(!std::is_x86_feature_detected!("avx2"));
		};
		for gamma2 in ring::tests::GAMMA2S {
			for first in (0..Q).step_by(8) {
				let r: [u32; 8] = core::array::from_fn(|i| (first + i as u32).min(Q - 1));
				for hint in [false, true] {
					// SAFETY: the CPU supports AVX2 (detected above).
					let vectorized: [u32; 8] = unsafe {
						core::mem::transmute::<__m256i, [u32; 8]>(use_hint(
							splat(hint as u32),
							core::mem::transmute::<[u32; 8], __m256i>(r),
							gamma2,
						))
					};
					assert_eq!(
						vectorized,
						r.map(|r| ring::use_hint(hint, r, gamma2)),
						"r = {first}.., hint {hint}, γ2 = {gamma2}"
					);
				}
			}
		}
	}

	#[test]
	fn avx2_inner_product_equals_the_portable_one() {
		let Some(avx2) = Avx2::detect() else {
			return assert!(!std::is_x86_feature_detected!("avx2"));
		};
		let polys: Vec<Poly> = samples().collect();
		for columns in [4, 5, 7, 15] {
			let a: Vec<Poly> = (0..columns).map(|i| polys[i % polys.len()]).collect();
			let b: Vec<Poly> = (0..columns).map(|i| polys[(i * 5 + 1) % polys.len()]).collect();
			for (c, d) in [(&polys[0], &polys[1]), (&polys[1], &polys[1]), (&polys[4], &polys[7])] {
				let (mut vectorized, mut portable) = (Poly::default(), Poly::default());
				avx2.inner_product_minus(&a, &b, c, d, &mut vectorized);
				ring::inner_product_minus(&a, &b, c, d, &mut portable);
				assert_eq!(vectorized, portable, "{columns} columns");
			}
		}
	}
}
