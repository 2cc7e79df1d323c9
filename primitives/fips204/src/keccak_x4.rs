//! Keccak-f[1600] (FIPS 202 §3.3, Algorithm 7) on four independent states at once, and
//! SHAKE128 (FIPS 202 §6.2) of four short inputs: ExpandA's `k·ℓ` streams are independent, so
//! four run in about the time of one.
//!
//! Each 256-bit word of the state holds the same lane of all four states, so every step of the
//! permutation is one AVX2 instruction on all four (rotations are two shifts and an or). Where
//! the CPU has AVX-512VL the same code is compiled a second time with its rotations and
//! three-input logic ([`Permutation`]).

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

/// Which instructions run the permutation, chosen from the CPU's features by
/// [`Permutation::detect`]: AVX-512VL, where the CPU has it, keeps the same four-state layout
/// but has a rotate instruction, three-input logic (χ is one instruction per word, θ's
/// five-row parities two per column) and 32 vector registers, enough to keep the state in
/// registers through a round.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Permutation {
	/// Set only by [`Permutation::detect`] on a CPU with AVX-512F and AVX-512VL.
	avx512: bool,
}

impl Permutation {
	/// AVX2 only: what every caller of this module has.
	pub const AVX2: Self = Self { avx512: false };

	/// The fastest permutation this CPU runs. Without `std` there is no detection of AVX-512
	/// (its register state must be enabled by the OS), and AVX2 runs.
	pub fn detect() -> Self {
		#[cfg(feature = "std")]
		if std::is_x86_feature_detected!("avx512f") && std::is_x86_feature_detected!("avx512vl") {
			return Self { avx512: true };
		}
		Self::AVX2
	}

	/// Keccak-f[1600] on the four states.
	#[target_feature(enable = "avx2")]
	#[inline]
	fn apply(self, state: &mut [Word; 25]) {
		if self.avx512 {
			// SAFETY: `avx512` is set only where the CPU has AVX-512F and AVX-512VL.
			unsafe { keccak_f1600_avx512(state) }
		} else {
			keccak_f1600_avx2(state)
		}
	}
}

#[target_feature(enable = "avx2")]
#[inline]
fn xor(a: Word, b: Word) -> Word {
	_mm256_xor_si256(a, b)
}

#[target_feature(enable = "avx2")]
#[inline]
fn xor3(a: Word, b: Word, c: Word) -> Word {
	xor(xor(a, b), c)
}

/// χ's `a ⊕ (¬b ∧ c)`.
#[target_feature(enable = "avx2")]
#[inline]
fn chi(a: Word, b: Word, c: Word) -> Word {
	xor(a, _mm256_andnot_si256(b, c))
}

/// Rotation left by `LEFT` bits (`RIGHT = 64 − LEFT`).
#[target_feature(enable = "avx2")]
#[inline]
fn rotate_left<const LEFT: i32, const RIGHT: i32>(a: Word) -> Word {
	_mm256_or_si256(_mm256_slli_epi64::<LEFT>(a), _mm256_srli_epi64::<RIGHT>(a))
}

/// [`xor3`] in one instruction: the truth table of `a ⊕ b ⊕ c`.
#[target_feature(enable = "avx512f,avx512vl")]
#[inline]
fn xor3_avx512(a: Word, b: Word, c: Word) -> Word {
	_mm256_ternarylogic_epi64::<0x96>(a, b, c)
}

/// [`chi`] in one instruction: the truth table of `a ⊕ (¬b ∧ c)`.
#[target_feature(enable = "avx512f,avx512vl")]
#[inline]
fn chi_avx512(a: Word, b: Word, c: Word) -> Word {
	_mm256_ternarylogic_epi64::<0xd2>(a, b, c)
}

/// [`rotate_left`] in one instruction.
#[target_feature(enable = "avx512f,avx512vl")]
#[inline]
fn rotate_left_avx512<const LEFT: i32, const RIGHT: i32>(a: Word) -> Word {
	_mm256_rol_epi64::<LEFT>(a)
}

/// The ρ and π steps: from lane 1, each lane moves to the next position of π's cycle, rotated
/// by its ρ offset. Written out, so every shift is an immediate and the state stays in
/// registers.
macro_rules! rho_pi {
	($state:ident, $rotate_left:ident) => {
		rho_pi!($state, $rotate_left;
			(10, 1), (7, 3), (11, 6), (17, 10), (18, 15), (3, 21), (5, 28), (16, 36),
			(8, 45), (21, 55), (24, 2), (4, 14), (15, 27), (23, 41), (19, 56), (13, 8),
			(12, 25), (2, 43), (20, 62), (14, 18), (22, 39), (9, 61), (6, 20), (1, 44)
		)
	};
	($state:ident, $rotate_left:ident; $(($to:literal, $rotation:literal)),* $(,)?) => {
		let mut last = $state[1];
		$(
			let moved = $state[$to];
			$state[$to] = $rotate_left::<$rotation, { 64 - $rotation }>(last);
			last = moved;
		)*
		let _ = last;
	};
}

/// Keccak-f[1600] on four states, compiled for `$features` with its word operations.
macro_rules! keccak_f1600 {
	($name:ident, $features:literal, $xor3:ident, $rotate_left:ident, $chi:ident) => {
		#[target_feature(enable = $features)]
		fn $name(state: &mut [Word; 25]) {
			for rc in RC {
				// θ
				let mut parity = [_mm256_setzero_si256(); 5];
				for (x, column) in parity.iter_mut().enumerate() {
					*column = $xor3(
						$xor3(state[x], state[x + 5], state[x + 10]),
						state[x + 15],
						state[x + 20],
					);
				}
				for x in 0..5 {
					let d = xor(parity[(x + 4) % 5], $rotate_left::<1, 63>(parity[(x + 1) % 5]));
					for y in 0..5 {
						state[5 * y + x] = xor(state[5 * y + x], d);
					}
				}
				rho_pi!(state, $rotate_left);
				// χ
				for y in (0..25).step_by(5) {
					let row: [Word; 5] = core::array::from_fn(|x| state[y + x]);
					for x in 0..5 {
						state[y + x] = $chi(row[x], row[(x + 1) % 5], row[(x + 2) % 5]);
					}
				}
				// ι
				state[0] = xor(state[0], _mm256_set1_epi64x(rc as i64));
			}
		}
	};
}

keccak_f1600!(keccak_f1600_avx2, "avx2", xor3, rotate_left, chi);
keccak_f1600!(
	keccak_f1600_avx512,
	"avx2,avx512f,avx512vl",
	xor3_avx512,
	rotate_left_avx512,
	chi_avx512
);

/// SHAKE128 of four inputs, each shorter than [`RATE`], squeezed a block at a time.
pub struct Shake128x4 {
	state: [Word; 25],
	permutation: Permutation,
}

impl Shake128x4 {
	/// Absorbs `inputs` (each under [`RATE`] bytes) with SHAKE's padding: `0x1F`, zeros, `0x80`;
	/// `permutation` runs every squeeze.
	#[target_feature(enable = "avx2")]
	#[inline]
	pub fn absorb(permutation: Permutation, inputs: [&[u8]; 4]) -> Self {
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
		Self {
			state: unsafe { core::mem::transmute::<[[u64; 4]; 25], [Word; 25]>(state) },
			permutation,
		}
	}

	/// The next [`RATE`] bytes of each of the four outputs, written to the start of each of
	/// `out` (each at least [`RATE`] bytes).
	#[target_feature(enable = "avx2")]
	#[inline]
	pub fn squeeze_block(&mut self, out: [&mut [u8]; 4]) {
		self.permutation.apply(&mut self.state);
		// SAFETY: as in `absorb`.
		let state = unsafe { core::mem::transmute::<[Word; 25], [[u64; 4]; 25]>(self.state) };
		for (lane, block) in out.into_iter().enumerate() {
			for (bytes, word) in block[..RATE].chunks_exact_mut(8).zip(&state) {
				bytes.copy_from_slice(&word[lane].to_le_bytes());
			}
		}
	}
}

#[cfg(test)]
mod tests {
	use super::{Permutation, Shake128x4, RATE};
	use sha3::digest::{ExtendableOutput, Update, XofReader};

	/// Four SHAKE128 outputs of `blocks` blocks, squeezed four at a time with `permutation`.
	fn four_way(permutation: Permutation, inputs: [&[u8]; 4], blocks: usize) -> [Vec<u8>; 4] {
		let mut out: [Vec<u8>; 4] = core::array::from_fn(|_| vec![0; blocks * RATE]);
		// SAFETY: the callers run only where the CPU has AVX2.
		unsafe {
			let mut xof = Shake128x4::absorb(permutation, inputs);
			for block in 0..blocks {
				xof.squeeze_block(out.each_mut().map(|stream| &mut stream[block * RATE..]));
			}
		}
		out
	}

	fn one_way(input: &[u8], bytes: usize) -> Vec<u8> {
		let mut xof = sha3::Shake128::default();
		xof.update(input);
		let mut out = vec![0; bytes];
		xof.finalize_xof().read(&mut out);
		out
	}

	/// Each lane is SHAKE128 of its own input (lengths 0, 34, 135 and 167: empty, ExpandA's
	/// seeds, and up to the last byte padding may use), on both permutations.
	#[test]
	fn each_lane_is_shake128_of_its_input_on_both_permutations() {
		if !std::is_x86_feature_detected!("avx2") {
			return eprintln!("skipped: this CPU has no AVX2");
		}
		let bytes: Vec<u8> = (0..RATE as u32).map(|i| (i * 37 + 11) as u8).collect();
		let inputs = [&bytes[..0], &bytes[..34], &bytes[..135], &bytes[..RATE - 1]];
		let mut permutations = vec![Permutation::AVX2];
		match Permutation::detect() {
			Permutation::AVX2 => {
				eprintln!("AVX-512 permutation not run: this CPU has no AVX-512VL")
			},
			avx512 => permutations.push(avx512),
		}
		for permutation in permutations {
			let lanes = four_way(permutation, inputs, 3);
			for (lane, input) in lanes.iter().zip(inputs) {
				assert_eq!(
					*lane,
					one_way(input, 3 * RATE),
					"{permutation:?}, {} bytes in",
					input.len()
				);
			}
		}
	}

	/// AVX-512 runs where the CPU has it (the machine of docs/benchmarks.md's timings), AVX2
	/// elsewhere (and under valgrind, which hides AVX-512: the instruction counts).
	#[cfg(feature = "std")] // Without std, AVX-512 is never detected.
	#[test]
	fn the_avx512_permutation_runs_where_the_cpu_has_avx512vl() {
		let avx512 =
			std::is_x86_feature_detected!("avx512f") && std::is_x86_feature_detected!("avx512vl");
		assert_eq!(Permutation::detect() != Permutation::AVX2, avx512);
	}
}
