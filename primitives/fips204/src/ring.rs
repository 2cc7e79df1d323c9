//! Arithmetic in `R_q = Z_q[X]/(X^256 + 1)`: the number-theoretic transform (FIPS 204 §7.5,
//! Algorithms 41 and 42) and the rounding functions (§7.4, Algorithms 35–40), for every level
//! (the rounding functions take the level's `γ2`).
//!
//! Portable scalar code, the same native and in Wasm. The hot functions are always inlined, so
//! a caller compiled for AVX2 (`#[target_feature]`, see [`super::Engine`]) gets them
//! vectorized by the compiler.

/// The modulus `q = 2^23 − 2^13 + 1`.
pub const Q: u32 = 8_380_417;
/// Dropped bits of `t` (`d`).
pub const D: u32 = 13;
/// Coefficients per polynomial.
pub const N: usize = 256;

/// A polynomial with coefficients in `[0, q)`, in the normal or the NTT domain. Aligned for
/// 256-bit loads ([`super::avx2`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(32))]
pub struct Poly(pub [u32; N]);

impl Default for Poly {
	fn default() -> Self {
		Poly([0; N])
	}
}

/// The portable engine's arithmetic: the functions below.
#[derive(Clone, Copy, Debug)]
pub(super) struct Portable;

impl super::Arithmetic for Portable {
	#[inline(always)]
	fn ntt(self, poly: &mut Poly) {
		poly.ntt_in_place()
	}

	#[inline(always)]
	fn inverse_ntt(self, poly: &mut Poly) {
		poly.inverse_ntt_in_place()
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
		inner_product_minus(a_hat, b_hat, c_hat, d_hat, out)
	}

	#[inline(always)]
	fn use_hints(self, hint: &[bool; N], r: &Poly, gamma2: u32, w1: &mut Poly) {
		use_hints(hint, r, gamma2, w1)
	}
}

/// A vector of `M` polynomials.
pub type PolyVec<const M: usize> = [Poly; M];

/// `Σ â_i ∘ b̂_i − ĉ ∘ d̂` in the NTT domain, the row of Algorithm 8's `w′Approx` (before
/// `NTT⁻¹`): each product is below `q²` < 2^46, so up to 15 products and the offset `q²` sum
/// below 2^50 and one reduction per coefficient at the end suffices. Written into `out`.
#[inline(always)]
pub fn inner_product_minus(
	a_hat: &[Poly],
	b_hat: &[Poly],
	c_hat: &Poly,
	d_hat: &Poly,
	out: &mut Poly,
) {
	debug_assert!(a_hat.len() == b_hat.len() && a_hat.len() < 16);
	const R_SHOUP: u32 = shoup(R);
	for (i, out) in out.0.iter_mut().enumerate() {
		let mut sum = (Q as u64 * Q as u64) - c_hat.0[i] as u64 * d_hat.0[i] as u64;
		for (a, b) in a_hat.iter().zip(b_hat) {
			sum += a.0[i] as u64 * b.0[i] as u64;
		}
		*out = mul_constant(R, R_SHOUP, redc(sum));
	}
}

/// `−q⁻¹ mod 2^32`, for [`redc`].
pub(super) const MINUS_Q_INVERSE: u32 = 4_236_238_847;
const _: () = assert!(Q.wrapping_mul(MINUS_Q_INVERSE) == u32::MAX);
/// `2^32 mod q`: multiplying by it undoes [`redc`]'s `2^−32`.
pub(super) const R: u32 = ((1u64 << 32) % Q as u64) as u32;

/// Montgomery's REDC: `t·2^−32 mod q` in `[0, q)` for any `t < 2^52`, with 32×32-bit
/// multiplications only (a 64-bit `t mod q` needs a 64×64-bit high product, which Wasm lacks).
#[inline(always)]
const fn redc(t: u64) -> u32 {
	let m = (t as u32).wrapping_mul(MINUS_Q_INVERSE);
	// t + m·q < 2^52 + 2^55, and a multiple of 2^32: the quotient is below 2q.
	let r = ((t + m as u64 * Q as u64) >> 32) as u32;
	if r >= Q {
		r - Q
	} else {
		r
	}
}

/// `ζ^BitRev8(i) mod q` for `ζ = 1753`, the table of Algorithms 41 and 42 (FIPS 204 Appendix B).
pub(super) const ZETAS: [u32; N] = zetas();

const fn pow_mod(base: u64, mut exponent: u32) -> u64 {
	let (mut result, mut base) = (1u64, base % Q as u64);
	while exponent > 0 {
		if exponent & 1 == 1 {
			result = result * base % Q as u64;
		}
		base = base * base % Q as u64;
		exponent >>= 1;
	}
	result
}

const fn zetas() -> [u32; N] {
	let mut table = [0u32; N];
	let mut i = 0;
	while i < N {
		table[i] = pow_mod(1753, (i as u8).reverse_bits() as u32) as u32;
		i += 1;
	}
	table
}

const fn mul(a: u32, b: u32) -> u32 {
	(a as u64 * b as u64 % Q as u64) as u32
}

/// `⌊w·2^32/q⌋` of a constant `w`: its Shoup companion, for [`mul_constant`].
pub(super) const fn shoup(w: u32) -> u32 {
	(((w as u64) << 32) / Q as u64) as u32
}

/// `w·a mod q` for a constant `w < q` with companion `w_shoup = shoup(w)`, and any `a < 2^32`:
/// the quotient estimate `⌊w_shoup·a/2^32⌋` is off by at most one, so one conditional
/// subtraction reduces. Two multiplications, no division: the NTT's hot path.
#[inline(always)]
const fn mul_constant(w: u32, w_shoup: u32, a: u32) -> u32 {
	let r = mul_constant_lazy(w, w_shoup, a);
	if r >= Q {
		r - Q
	} else {
		r
	}
}

/// [`mul_constant`] without its subtraction: `w·a mod q` plus `q` or not, in `[0, 2q)` — what
/// the NTTs' butterflies need, whose sums are reduced once at the end.
#[inline(always)]
const fn mul_constant_lazy(w: u32, w_shoup: u32, a: u32) -> u32 {
	let quotient = ((w_shoup as u64 * a as u64) >> 32) as u32;
	w.wrapping_mul(a).wrapping_sub(quotient.wrapping_mul(Q))
}

/// `a mod q` for any `a < 2^32`: [`mul_constant`] by one.
#[inline(always)]
const fn reduce_u32(a: u32) -> u32 {
	const ONE_SHOUP: u32 = shoup(1);
	mul_constant(1, ONE_SHOUP, a)
}

/// Shoup companions of [`ZETAS`] (`NTT`) and of their negations (`NTT⁻¹`).
pub(super) const ZETAS_SHOUP: [u32; N] = companions(false);
pub(super) const NEG_ZETAS_SHOUP: [u32; N] = companions(true);

const fn companions(negated: bool) -> [u32; N] {
	let mut table = [0u32; N];
	let mut i = 0;
	while i < N {
		table[i] = shoup(if negated { Q - ZETAS[i] } else { ZETAS[i] });
		i += 1;
	}
	table
}

#[inline(always)]
const fn add(a: u32, b: u32) -> u32 {
	let sum = a + b;
	if sum >= Q {
		sum - Q
	} else {
		sum
	}
}

#[inline(always)]
const fn sub(a: u32, b: u32) -> u32 {
	if a >= b {
		a - b
	} else {
		a + Q - b
	}
}

/// `r mod q` for any integer.
pub fn reduce(r: i64) -> u32 {
	r.rem_euclid(Q as i64) as u32
}

/// `r mod± q`: the representative in `[−(q−1)/2, (q−1)/2]`.
#[inline(always)]
pub fn centered(r: u32) -> i32 {
	if r > (Q - 1) / 2 {
		r as i32 - Q as i32
	} else {
		r as i32
	}
}

impl Poly {
	/// The polynomial with coefficients `mod q` of the given integers.
	#[inline(always)]
	pub fn from_signed(coefficients: &[i32; N]) -> Self {
		// A 32-bit remainder: the 64-bit one of `reduce` is a slow division in Wasm.
		Poly(core::array::from_fn(|i| {
			let r = coefficients[i] % Q as i32;
			(if r < 0 { r + Q as i32 } else { r }) as u32
		}))
	}

	/// The coefficients as integers `mod± q`.
	pub fn to_signed(&self) -> [i32; N] {
		core::array::from_fn(|i| centered(self.0[i]))
	}

	/// `‖self‖∞` over the centered representatives: `|c mod± q| = min(c, q − c)`, a form
	/// without branches that the compiler vectorizes.
	#[inline(always)]
	pub fn infinity_norm(&self) -> u32 {
		self.0.iter().fold(0, |norm, &c| norm.max(c.min(Q - c)))
	}

	/// Coefficient-wise sum.
	pub fn add(&self, other: &Poly) -> Poly {
		Poly(core::array::from_fn(|i| add(self.0[i], other.0[i])))
	}

	/// Coefficient-wise difference.
	pub fn sub(&self, other: &Poly) -> Poly {
		Poly(core::array::from_fn(|i| sub(self.0[i], other.0[i])))
	}

	/// Coefficient-wise product: multiplication in the NTT domain (Algorithm 45).
	pub fn pointwise(&self, other: &Poly) -> Poly {
		Poly(core::array::from_fn(|i| mul(self.0[i], other.0[i])))
	}

	/// Algorithm 41 `NTT`.
	#[inline(always)]
	pub fn ntt(&self) -> Poly {
		let mut w = *self;
		w.ntt_in_place();
		w
	}

	/// Algorithm 41 `NTT`, in place; coefficients in `[0, q)` in and out.
	///
	/// Reduced lazily (Harvey's butterfly): `t = ζ·b` is left in `[0, 2q)` and the butterfly's
	/// outputs `a + t` and `a − t + 2q` unreduced, so each of the eight layers raises the
	/// coefficients' bound by `2q`, to `17q < 2^32`, and each coefficient is reduced once at the
	/// end — not three conditional subtractions per butterfly (in Wasm, a third of its
	/// instructions).
	#[inline(always)]
	pub fn ntt_in_place(&mut self) {
		debug_assert!(self.0.iter().all(|&c| c < Q), "the lazy bounds start at q");
		let (mut m, mut len) = (0, 128);
		while len >= 1 {
			// Each block's halves as slices: no bounds check per butterfly (a compare and a
			// branch each in Wasm).
			for block in self.0.chunks_exact_mut(2 * len) {
				m += 1;
				let (zeta, zeta_shoup) = (ZETAS[m], ZETAS_SHOUP[m]);
				let (low, high) = block.split_at_mut(len);
				for (a, b) in low.iter_mut().zip(high) {
					let t = mul_constant_lazy(zeta, zeta_shoup, *b);
					*b = *a + 2 * Q - t;
					*a += t;
				}
			}
			len /= 2;
		}
		for c in self.0.iter_mut() {
			*c = reduce_u32(*c);
		}
	}

	/// Algorithm 42 `NTT⁻¹`.
	#[inline(always)]
	pub fn inverse_ntt(&self) -> Poly {
		let mut w = *self;
		w.inverse_ntt_in_place();
		w
	}

	/// Algorithm 42 `NTT⁻¹`, in place; coefficients in `[0, q)` in and out.
	///
	/// Reduced lazily, as [`Self::ntt_in_place`]: at the layer of half-blocks of `len`
	/// coefficients, every coefficient is below `len·q`; the sum `a + b` is left unreduced
	/// (below `2·len·q`), the difference taken as `a − b + len·q` and its product with `ζ`
	/// left in `[0, 2q)`. After the last layer the bound is `256q < 2^32`, and the scaling by
	/// `256⁻¹` reduces each coefficient.
	#[inline(always)]
	pub fn inverse_ntt_in_place(&mut self) {
		// 256⁻¹ mod q.
		const F: u32 = 8_347_681;
		debug_assert!(self.0.iter().all(|&c| c < Q), "the lazy bounds start at q");
		let (mut m, mut len) = (N, 1);
		while len < N {
			let bound = len as u32 * Q;
			for block in self.0.chunks_exact_mut(2 * len) {
				m -= 1;
				let (zeta, zeta_shoup) = (Q - ZETAS[m], NEG_ZETAS_SHOUP[m]);
				let (low, high) = block.split_at_mut(len);
				for (a, b) in low.iter_mut().zip(high) {
					let t = *a;
					*a = t + *b;
					*b = mul_constant_lazy(zeta, zeta_shoup, t + bound - *b);
				}
			}
			len *= 2;
		}
		const F_SHOUP: u32 = shoup(F);
		for c in self.0.iter_mut() {
			*c = mul_constant(F, F_SHOUP, *c);
		}
	}
}

/// Algorithm 35 `Power2Round`: `r = r1·2^d + r0` with `r0 ∈ (−2^(d−1), 2^(d−1)]`.
pub fn power2round(r: u32) -> (u32, i32) {
	let r0 = {
		let low = (r & ((1 << D) - 1)) as i32;
		if low > 1 << (D - 1) {
			low - (1 << D)
		} else {
			low
		}
	};
	(((r as i32 - r0) >> D) as u32, r0)
}

/// `γ2` of ML-DSA-44 (FIPS 204 Table 1): `(q − 1)/88`, so `r1` takes 44 values. (The rounding
/// below is written for the two values of `γ2`; the parameter sets name them.)
pub const GAMMA2_BY_88: u32 = (Q - 1) / 88;
/// `γ2` of ML-DSA-65 and ML-DSA-87: `(q − 1)/32`, so `r1` takes 16 values.
pub const GAMMA2_BY_32: u32 = (Q - 1) / 32;

/// Algorithm 36 `Decompose`: `r = r1·2γ2 + r0`, with the wrap-around at `q − 1`, for `r < q`
/// and the two values of `γ2` in FIPS 204 Table 1.
///
/// Without a division (`r mod 2γ2` and `(r − r0)/2γ2` as written are a hardware division each
/// in Wasm wherever `γ2` is not a constant; with `UseHint`'s `m` and its step modulo `m`, four
/// a coefficient): the reference
/// implementation's form (pq-crystals `rounding.c`, as the AVX2 engine computes it eight at a
/// time) — `r1 = ⌈r/128⌉` times a fixed-point `128/(2γ2)`, rounded, with the top value (only
/// at `r − r0 = q − 1`) folded to 0; `r0 = r − 2γ2·r1`, centered. A test compares it with the
/// algorithm as written on every `r < q`.
#[inline(always)]
pub fn decompose(r: u32, gamma2: u32) -> (u32, i32) {
	debug_assert!(r < Q && (gamma2 == GAMMA2_BY_32 || gamma2 == GAMMA2_BY_88));
	let r_by_128 = (r + 127) >> 7;
	let r1 = if gamma2 == GAMMA2_BY_32 {
		((r_by_128 * 1025 + (1 << 21)) >> 22) & 15
	} else {
		let r1 = (r_by_128 * 11_275 + (1 << 23)) >> 24;
		if r1 == 44 {
			0
		} else {
			r1
		}
	};
	let r0 = r as i32 - (r1 * 2 * gamma2) as i32;
	(r1, if r0 > (Q as i32 - 1) / 2 { r0 - Q as i32 } else { r0 })
}

/// Algorithm 37 `HighBits`.
pub fn high_bits(r: u32, gamma2: u32) -> u32 {
	decompose(r, gamma2).0
}

/// Algorithm 39 `MakeHint`: whether adding `z` changes the high bits of `r`.
pub fn make_hint(z: u32, r: u32, gamma2: u32) -> bool {
	high_bits(r, gamma2) != high_bits(add(r, z), gamma2)
}

/// Algorithm 40 `UseHint`: `r1` one step up (`r0 > 0`) or down with the hint, modulo
/// `m = (q − 1)/(2γ2)`, for the two values of `γ2` in FIPS 204 Table 1 (as [`decompose`]; `m`
/// chosen, not divided out, and the steps wrapped by comparison: `r1 < m`).
#[inline(always)]
pub fn use_hint(hint: bool, r: u32, gamma2: u32) -> u32 {
	let m = if gamma2 == GAMMA2_BY_32 { 16 } else { 44 };
	let (r1, r0) = decompose(r, gamma2);
	match (hint, r0 > 0) {
		(false, _) => r1,
		(true, true) if r1 == m - 1 => 0,
		(true, true) => r1 + 1,
		(true, false) if r1 == 0 => m - 1,
		(true, false) => r1 - 1,
	}
}

/// [`use_hint`] of every coefficient of `r`, with the hints of its row of `h`, into `w1`.
#[inline(always)]
pub fn use_hints(hint: &[bool; N], r: &Poly, gamma2: u32, w1: &mut Poly) {
	for ((high_bits, &coefficient), &hinted) in w1.0.iter_mut().zip(&r.0).zip(hint) {
		*high_bits = use_hint(hinted, coefficient, gamma2);
	}
}

#[cfg(test)]
pub(super) mod tests {
	use super::*;

	#[test]
	fn ntt_round_trips_and_multiplies_negacyclically() {
		let mut a = Poly::default();
		let mut b = Poly::default();
		for i in 0..N {
			a.0[i] = (i as u32 * 7919 + 13) % Q;
			b.0[i] = (i as u32 * 104_729 + 5) % Q;
		}
		assert_eq!(a.ntt().inverse_ntt(), a);
		// X^255 · X = X^256 = −1.
		let mut x255 = Poly::default();
		x255.0[255] = 1;
		let mut x = Poly::default();
		x.0[1] = 1;
		let product = x255.ntt().pointwise(&x.ntt()).inverse_ntt();
		let mut minus_one = Poly::default();
		minus_one.0[0] = Q - 1;
		assert_eq!(product, minus_one);
		// Against schoolbook multiplication.
		let mut schoolbook = [0i64; N];
		for i in 0..N {
			for j in 0..N {
				let term = a.0[i] as i64 * b.0[j] as i64 % Q as i64;
				if i + j < N {
					schoolbook[i + j] += term;
				} else {
					schoolbook[i + j - N] -= term;
				}
			}
		}
		let expected = Poly(schoolbook.map(reduce));
		assert_eq!(a.ntt().pointwise(&b.ntt()).inverse_ntt(), expected);
	}

	/// Algorithms 41 and 42 with every sum and product reduced `mod q` in 64 bits: the
	/// reference the lazily reduced NTTs are checked against.
	fn fully_reduced_ntts(poly: &Poly) -> (Poly, Poly) {
		let q = Q as u64;
		let mut forward = poly.0.map(u64::from);
		let (mut m, mut len) = (0, 128);
		while len >= 1 {
			for start in (0..N).step_by(2 * len) {
				m += 1;
				for j in start..start + len {
					let t = ZETAS[m] as u64 * forward[j + len] % q;
					forward[j + len] = (forward[j] + q - t) % q;
					forward[j] = (forward[j] + t) % q;
				}
			}
			len /= 2;
		}
		let mut inverse = poly.0.map(u64::from);
		let (mut m, mut len) = (N, 1);
		while len < N {
			for start in (0..N).step_by(2 * len) {
				m -= 1;
				for j in start..start + len {
					let t = inverse[j];
					inverse[j] = (t + inverse[j + len]) % q;
					inverse[j + len] = (q - ZETAS[m] as u64) * ((t + q - inverse[j + len]) % q) % q;
				}
			}
			len *= 2;
		}
		let scaled = inverse.map(|c| (c * 8_347_681 % q) as u32);
		(Poly(forward.map(|c| c as u32)), Poly(scaled))
	}

	/// The lazily reduced NTTs give the fully reduced ones' coefficients, in `[0, q)`, on the
	/// largest input (every coefficient `q − 1`), other constant ones and pseudorandom
	/// polynomials: an unreduced sum past `2^32` would wrap and differ (or, in a build with
	/// overflow checks, panic).
	#[test]
	fn lazily_reduced_ntts_equal_fully_reduced_ones_at_their_bounds() {
		let mut next = xorshift(0x4e54_5420_6c61_7a79);
		let mut inputs = vec![Poly([Q - 1; N]), Poly([0; N]), Poly([1; N])];
		inputs.push(Poly(core::array::from_fn(|i| if i % 2 == 0 { Q - 1 } else { 0 })));
		inputs.extend((0..64).map(|_| Poly(core::array::from_fn(|_| (next() % Q as u64) as u32))));
		for input in inputs {
			let (forward, inverse) = fully_reduced_ntts(&input);
			assert_eq!(input.ntt(), forward, "NTT of {:?}", &input.0[..4]);
			assert_eq!(input.inverse_ntt(), inverse, "NTT⁻¹ of {:?}", &input.0[..4]);
		}
	}

	/// A reproducible stream of test inputs from `seed` (Marsaglia's xorshift64).
	pub(crate) fn xorshift(mut state: u64) -> impl FnMut() -> u64 {
		move || {
			state ^= state << 13;
			state ^= state >> 7;
			state ^= state << 17;
			state
		}
	}

	/// Both values of `γ2` in FIPS 204 Table 1: ML-DSA-44's and ML-DSA-65/87's.
	pub(crate) const GAMMA2S: [u32; 2] = [GAMMA2_BY_88, GAMMA2_BY_32];

	#[test]
	fn redc_then_times_r_is_the_remainder_mod_q() {
		let r_shoup = shoup(R);
		let largest = 16 * (Q as u64 - 1) * (Q as u64 - 1) + Q as u64 * Q as u64;
		let mut next = xorshift(0x9e37_79b9_7f4a_7c15);
		let samples = (0..100_000).map(move |_| next() % largest);
		let edges = [
			0,
			1,
			Q as u64 - 1,
			Q as u64,
			Q as u64 * Q as u64,
			(1 << 32) - 1,
			1 << 32,
			largest,
			(1 << 52) - 1,
		];
		for t in edges.into_iter().chain(samples) {
			assert_eq!(mul_constant(R, r_shoup, redc(t)), (t % Q as u64) as u32, "t = {t}");
		}
	}

	#[test]
	fn from_signed_reduces_every_i32_mod_q() {
		let q = Q as i32;
		let mut next = xorshift(0x9e37_79b9);
		let mut values = [0i32; N];
		let edges =
			[i32::MIN, i32::MAX, 0, 1, -1, q, -q, q - 1, 1 - q, 2 * q, -2 * q, 256 * q, -256 * q];
		values[..edges.len()].copy_from_slice(&edges);
		for value in &mut values[edges.len()..] {
			*value = next() as i32;
		}
		let poly = Poly::from_signed(&values);
		for (value, reduced) in values.iter().zip(poly.0) {
			assert_eq!(reduced, reduce(*value as i64), "{value}");
		}
	}

	#[test]
	fn rounding_recombines() {
		for gamma2 in GAMMA2S {
			for r in (0..Q).step_by(997).chain([0, 1, Q - 1, Q - 2, gamma2, 2 * gamma2]) {
				let (r1, r0) = power2round(r);
				assert_eq!(reduce(((r1 as i64) << D) + r0 as i64), r);
				assert!(r0 > -(1 << (D - 1)) && r0 <= 1 << (D - 1));
				let (h1, h0) = decompose(r, gamma2);
				assert_eq!(reduce(h1 as i64 * 2 * gamma2 as i64 + h0 as i64), r);
				assert!(h1 < (Q - 1) / (2 * gamma2), "r1 of {r} for γ2 = {gamma2}");
			}
		}
	}

	/// Algorithms 36 and 40 as FIPS 204 writes them, with divisions.
	fn use_hint_as_written(hint: bool, r: u32, gamma2: u32) -> (u32, i32, u32) {
		let two_gamma2 = 2 * gamma2 as i32;
		let mut r0 = (r % (2 * gamma2)) as i32;
		if r0 > gamma2 as i32 {
			r0 -= two_gamma2;
		}
		let (r1, r0) = if r as i32 - r0 == Q as i32 - 1 {
			(0, r0 - 1)
		} else {
			(((r as i32 - r0) / two_gamma2) as u32, r0)
		};
		let m = (Q - 1) / (2 * gamma2);
		let with_hint = match (hint, r0 > 0) {
			(false, _) => r1,
			(true, true) => (r1 + 1) % m,
			(true, false) => (r1 + m - 1) % m,
		};
		(r1, r0, with_hint)
	}

	#[test]
	fn decompose_and_use_hint_are_the_algorithms_as_written_for_every_r() {
		for gamma2 in GAMMA2S {
			for r in 0..Q {
				let (r1, r0, with_hint) = use_hint_as_written(true, r, gamma2);
				assert_eq!(decompose(r, gamma2), (r1, r0), "r = {r}, γ2 = {gamma2}");
				assert_eq!(use_hint(true, r, gamma2), with_hint, "r = {r}, γ2 = {gamma2}");
				assert_eq!(use_hint(false, r, gamma2), r1, "r = {r}, γ2 = {gamma2}");
			}
		}
	}

	#[test]
	fn a_hint_recovers_the_high_bits_of_the_sum() {
		for gamma2 in GAMMA2S {
			for (i, r) in (0..Q).step_by(7_919).enumerate() {
				let z = reduce((i as i64 * 4_099) % (gamma2 as i64) - gamma2 as i64 / 2);
				assert_eq!(
					use_hint(make_hint(z, r, gamma2), r, gamma2),
					high_bits(add(r, z), gamma2)
				);
			}
		}
	}
}
