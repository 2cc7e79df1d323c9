//! Keccak-f[1600] (FIPS 202 §3.3, Algorithm 7) on four independent states at once, and
//! SHAKE128 (FIPS 202 §6.2) of four short inputs: ExpandA's `k·ℓ` streams are independent, so
//! four run in about the time of one.
//!
//! Each word of the state holds the same lane of all four states (`[u64; 4]`), so every step of
//! the permutation is one 256-bit operation once compiled for AVX2. The code is plain Rust that
//! LLVM vectorizes: its caller ([`super::sampling`]) enables AVX2 with `#[target_feature]` and
//! everything here is inlined into it.

/// One lane of four states.
type Word = [u64; 4];

/// Rotation offsets of the ρ step, in the order the π step visits the lanes.
const RHO: [u32; 24] = [1, 3, 6, 10, 15, 21, 28, 36, 45, 55, 2, 14, 27, 41, 56, 8, 25, 43, 62, 18, 39, 61, 20, 44];
/// The lane the π step moves next.
const PI: [usize; 24] = [10, 7, 11, 17, 18, 3, 5, 16, 8, 21, 24, 4, 15, 23, 19, 13, 12, 2, 20, 14, 22, 9, 6, 1];
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

#[inline(always)]
fn xor(a: Word, b: Word) -> Word {
	core::array::from_fn(|i| a[i] ^ b[i])
}

#[inline(always)]
fn rotate_left(a: Word, n: u32) -> Word {
	a.map(|lane| lane.rotate_left(n))
}

/// Keccak-f[1600] on four states.
#[inline(always)]
fn keccak_f1600(state: &mut [Word; 25]) {
	for rc in RC {
		// θ
		let mut parity = [[0u64; 4]; 5];
		for (x, column) in parity.iter_mut().enumerate() {
			*column = xor(xor(xor(state[x], state[x + 5]), xor(state[x + 10], state[x + 15])), state[x + 20]);
		}
		for x in 0..5 {
			let d = xor(parity[(x + 4) % 5], rotate_left(parity[(x + 1) % 5], 1));
			for y in 0..5 {
				state[5 * y + x] = xor(state[5 * y + x], d);
			}
		}
		// ρ and π
		let mut last = state[1];
		for (&to, &rotation) in PI.iter().zip(&RHO) {
			let moved = state[to];
			state[to] = rotate_left(last, rotation);
			last = moved;
		}
		// χ
		for y in (0..25).step_by(5) {
			let row: [Word; 5] = core::array::from_fn(|x| state[y + x]);
			for x in 0..5 {
				let (next, after) = (row[(x + 1) % 5], row[(x + 2) % 5]);
				state[y + x] = core::array::from_fn(|i| row[x][i] ^ (!next[i] & after[i]));
			}
		}
		// ι
		state[0][0] ^= rc;
		state[0][1] ^= rc;
		state[0][2] ^= rc;
		state[0][3] ^= rc;
	}
}

/// SHAKE128 of four inputs, each shorter than [`RATE`], squeezed a block at a time.
pub struct Shake128x4 {
	state: [Word; 25],
}

impl Shake128x4 {
	/// Absorbs `inputs` (each under [`RATE`] bytes) with SHAKE's padding: `0x1F`, zeros, `0x80`.
	#[inline(always)]
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
		Self { state }
	}

	/// The next [`RATE`] bytes of each of the four outputs.
	#[inline(always)]
	pub fn squeeze_block(&mut self, out: &mut [[u8; RATE]; 4]) {
		keccak_f1600(&mut self.state);
		for (lane, block) in out.iter_mut().enumerate() {
			for (bytes, word) in block.chunks_exact_mut(8).zip(&self.state) {
				bytes.copy_from_slice(&word[lane].to_le_bytes());
			}
		}
	}
}
