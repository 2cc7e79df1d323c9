//! Keccak-f[1600] (FIPS 202 §3.3, Algorithm 7) on four independent states at once, and
//! SHAKE128 (FIPS 202 §6.2) of four short inputs: ExpandA's `k·ℓ` streams are independent, so
//! four run in about the time of one.
//!
//! Each 256-bit word of the state holds the same lane of all four states, so every step of the
//! permutation is one AVX2 instruction on all four (rotations are two shifts and an or).

use core::arch::x86_64::*;

/// One lane of four states.
type Word = __m256i;

/// Round constants of the ι step (FIPS 202 Algorithm 6).
const RC: [u64; 24] = [
	0x0000000000000001,
	0x0000000000008082,
	0x800000000000808a,
	0x8000000080008000,
	0x000000000000808b,
	0x0000000080000001,
	0x8000000080008081,
	0x8000000000008009,
	0x000000000000008a,
	0x0000000000000088,
	0x0000000080008009,
	0x000000008000000a,
	0x000000008000808b,
	0x800000000000008b,
	0x8000000000008089,
	0x8000000000008003,
	0x8000000000008002,
	0x8000000000000080,
	0x000000000000800a,
	0x800000008000000a,
	0x8000000080008081,
	0x8000000000008080,
	0x0000000080000001,
	0x8000000080008008,
];

/// SHAKE128's rate: bytes absorbed or squeezed per permutation.
pub const RATE: usize = 168;

#[target_feature(enable = "avx2")]
#[inline]
fn xor(a: Word, b: Word) -> Word {
	_mm256_xor_si256(a, b)
}

/// Rotation left by `LEFT` bits (`RIGHT = 64 − LEFT`).
#[target_feature(enable = "avx2")]
#[inline]
fn rotate_left<const LEFT: i32, const RIGHT: i32>(a: Word) -> Word {
	_mm256_or_si256(_mm256_slli_epi64::<LEFT>(a), _mm256_srli_epi64::<RIGHT>(a))
}

/// The ρ and π steps: from lane 1, each lane moves to the next position of π's cycle, rotated
/// by its ρ offset. Written out, so every shift is an immediate and the state stays in
/// registers.
macro_rules! rho_pi {
	($state:ident; $(($to:literal, $rotation:literal)),* $(,)?) => {
		let mut last = $state[1];
		$(
			let moved = $state[$to];
			$state[$to] = rotate_left::<$rotation, { 64 - $rotation }>(last);
			last = moved;
		)*
		let _ = last;
	};
}

/// Keccak-f[1600] on four states.
#[target_feature(enable = "avx2")]
#[inline]
fn keccak_f1600(state: &mut [Word; 25]) {
	for rc in RC {
		// θ
		let mut parity = [_mm256_setzero_si256(); 5];
		for (x, column) in parity.iter_mut().enumerate() {
			*column = xor(xor(xor(state[x], state[x + 5]), xor(state[x + 10], state[x + 15])), state[x + 20]);
		}
		for x in 0..5 {
			let d = xor(parity[(x + 4) % 5], rotate_left::<1, 63>(parity[(x + 1) % 5]));
			for y in 0..5 {
				state[5 * y + x] = xor(state[5 * y + x], d);
			}
		}
		#[rustfmt::skip]
		rho_pi!(state;
			(10, 1), (7, 3), (11, 6), (17, 10), (18, 15), (3, 21), (5, 28), (16, 36),
			(8, 45), (21, 55), (24, 2), (4, 14), (15, 27), (23, 41), (19, 56), (13, 8),
			(12, 25), (2, 43), (20, 62), (14, 18), (22, 39), (9, 61), (6, 20), (1, 44),
		);
		// χ
		for y in (0..25).step_by(5) {
			let row: [Word; 5] = core::array::from_fn(|x| state[y + x]);
			for x in 0..5 {
				let (next, after) = (row[(x + 1) % 5], row[(x + 2) % 5]);
				state[y + x] = xor(row[x], _mm256_andnot_si256(next, after));
			}
		}
		// ι
		state[0] = xor(state[0], _mm256_set1_epi64x(rc as i64));
	}
}

/// SHAKE128 of four inputs, each shorter than [`RATE`], squeezed a block at a time.
pub struct Shake128x4 {
	state: [Word; 25],
}

impl Shake128x4 {
	/// Absorbs `inputs` (each under [`RATE`] bytes) with SHAKE's padding: `0x1F`, zeros, `0x80`.
	#[target_feature(enable = "avx2")]
	#[inline]
	pub fn absorb(inputs: [&[u8]; 4]) -> Self {
		let mut state = [[0u64; 4]; 25];
		for (lane, input) in inputs.iter().enumerate() {
			let mut block = [0u8; RATE];
			block[..input.len()].copy_from_slice(input);
			block[input.len()] ^= 0x1f;
			block[RATE - 1] ^= 0x80;
			for (word, bytes) in state.iter_mut().zip(block.chunks_exact(8)) {
				word[lane] = u64::from_le_bytes(bytes.try_into().expect("8 bytes"));
			}
		}
		// SAFETY: `[u64; 4]` and `__m256i` are 32 bytes each, and any bits are valid for both.
		Self { state: unsafe { core::mem::transmute::<[[u64; 4]; 25], [Word; 25]>(state) } }
	}

	/// The next [`RATE`] bytes of each of the four outputs, written to the start of each of
	/// `out` (each at least [`RATE`] bytes).
	#[target_feature(enable = "avx2")]
	#[inline]
	pub fn squeeze_block(&mut self, out: [&mut [u8]; 4]) {
		keccak_f1600(&mut self.state);
		// SAFETY: as in `absorb`.
		let state = unsafe { core::mem::transmute::<[Word; 25], [[u64; 4]; 25]>(self.state) };
		for (lane, block) in out.into_iter().enumerate() {
			for (bytes, word) in block[..RATE].chunks_exact_mut(8).zip(&state) {
				bytes.copy_from_slice(&word[lane].to_le_bytes());
			}
		}
	}
}
