//! Keccak-f[1600] (FIPS 202 §3) and the two sponges FIPS 204 hashes with, SHAKE128 and
//! SHAKE256, for 64-bit machines without SIMD — portable builds and Wasm, where a verification
//! spends most of its time here (ExpandA alone squeezes five blocks per entry of `Â`).
//!
//! The permutation is written for a machine with 64-bit registers and nothing else: each round
//! computes the five θ parities, then builds every output plane from the five lanes ρ and π
//! bring into it and applies χ and ι at once, with no intermediate copy of the whole state
//! (which a literal θ, ρ, π, χ, ι sequence makes). All indices and rotations are constants.
//! Natively the state then lives in registers, read and written once a round; in Wasm, where
//! the compiler that turns Wasm into machine code spills what LLVM keeps in locals, each round
//! reads its lanes from linear memory as it uses them instead — twice, for the parities and
//! for the planes — and keeps θ's parities and column terms in memory too.

/// The round constants `RC` of ι (FIPS 202 Algorithm 5), one per round.
const ROUND_CONSTANTS: [u64; 24] = [
	0x0000_0000_0000_0001,
	0x0000_0000_0000_8082,
	0x8000_0000_0000_808a,
	0x8000_0000_8000_8000,
	0x0000_0000_0000_808b,
	0x0000_0000_8000_0001,
	0x8000_0000_8000_8081,
	0x8000_0000_0000_8009,
	0x0000_0000_0000_008a,
	0x0000_0000_0000_0088,
	0x0000_0000_8000_8009,
	0x0000_0000_8000_000a,
	0x0000_0000_8000_808b,
	0x8000_0000_0000_008b,
	0x8000_0000_0000_8089,
	0x8000_0000_0000_8003,
	0x8000_0000_0000_8002,
	0x8000_0000_0000_0080,
	0x0000_0000_0000_800a,
	0x8000_0000_8000_000a,
	0x8000_0000_8000_8081,
	0x8000_0000_0000_8080,
	0x0000_0000_8000_0001,
	0x8000_0000_8000_8008,
];

/// One plane `y` of a round's output: the lanes `(index, ρ offset)` that π moves to its
/// positions `x = 0..5` (lane `x + 5y` of the state), each with θ's column term added and
/// rotated by ρ, then χ across the plane and, on lane 0, ι's constant `rc`. `$load(i)` reads
/// lane `i` of the round's input, `$d(x)` θ's term of column `x`, `$store(i, lane)` writes
/// lane `i` of the round's output.
macro_rules! plane {
	($load:ident, $store:ident, $d:ident, $rc:expr, $y:literal, [$(($lane:literal, $rho:literal)),*]) => {{
		let b = [$(($load($lane) ^ $d($lane % 5)).rotate_left($rho)),*];
		$store(5 * $y, b[0] ^ (!b[1] & b[2]) ^ $rc);
		$store(5 * $y + 1, b[1] ^ (!b[2] & b[3]));
		$store(5 * $y + 2, b[2] ^ (!b[3] & b[4]));
		$store(5 * $y + 3, b[3] ^ (!b[4] & b[0]));
		$store(5 * $y + 4, b[4] ^ (!b[0] & b[1]));
	}};
}

/// θ's parity `C[x]` of column `x` (FIPS 202 Algorithm 1, step 1) of the lanes `load` reads.
#[inline(always)]
fn parity(load: impl Fn(usize) -> u64, x: usize) -> u64 {
	load(x) ^ load(x + 5) ^ load(x + 10) ^ load(x + 15) ^ load(x + 20)
}

/// θ's column terms `D[x] = C[x − 1] ⊕ ROT(C[x + 1], 1)` (FIPS 202 Algorithm 1, step 2) from
/// the column parities `c`.
#[inline(always)]
fn column_terms(c: [u64; 5]) -> [u64; 5] {
	core::array::from_fn(|x| c[(x + 4) % 5] ^ c[(x + 1) % 5].rotate_left(1))
}

/// A round's output planes (FIPS 202 §3.3, after θ's column terms): `$load` reads the round's
/// input lanes (lane `x + 5y` at index `x + 5y`), `$d` θ's column terms, `$store` writes the
/// output lanes.
macro_rules! planes {
	($load:ident, $store:ident, $d:ident, $round_constant:expr) => {{
		// π takes lane (x, y) to (y, 2x + 3y); ρ's offsets are those of FIPS 202 Table 2.
		plane!(
			$load,
			$store,
			$d,
			$round_constant,
			0,
			[(0, 0), (6, 44), (12, 43), (18, 21), (24, 14)]
		);
		plane!($load, $store, $d, 0, 1, [(3, 28), (9, 20), (10, 3), (16, 45), (22, 61)]);
		plane!($load, $store, $d, 0, 2, [(1, 1), (7, 6), (13, 25), (19, 8), (20, 18)]);
		plane!($load, $store, $d, 0, 3, [(4, 27), (5, 36), (11, 10), (17, 15), (23, 56)]);
		plane!($load, $store, $d, 0, 4, [(2, 62), (8, 55), (14, 39), (15, 41), (21, 2)]);
	}};
}

/// Keccak-f[1600] (FIPS 202 Algorithm 7 with 24 rounds).
pub fn keccak_f1600(state: &mut [u64; 25]) {
	#[cfg(not(target_family = "wasm"))]
	permute_in_registers(state);
	#[cfg(target_family = "wasm")]
	permute_in_memory(state);
}

/// The permutation for a machine whose compiler keeps the state in registers: two rounds per
/// iteration, so the state alternates between two sets of locals without a copy.
#[cfg(any(not(target_family = "wasm"), test))]
fn permute_in_registers(state: &mut [u64; 25]) {
	#[inline(always)]
	fn round(a: &[u64; 25], round_constant: u64) -> [u64; 25] {
		let mut e = [0u64; 25];
		let load = |lane: usize| a[lane];
		let d = column_terms(core::array::from_fn(|x| parity(load, x)));
		let column_term = |x: usize| d[x];
		let mut store = |lane: usize, value: u64| e[lane] = value;
		planes!(load, store, column_term, round_constant);
		e
	}
	let mut a = *state;
	for pair in ROUND_CONSTANTS.chunks_exact(2) {
		let e = round(&a, pair[0]);
		a = round(&e, pair[1]);
	}
	*state = a;
}

/// The permutation for Wasm: each round reads its input lanes from linear memory as it needs
/// them and writes each output plane back at once, with every value that lives across the
/// round in memory too. wasmtime's compiler (Cranelift, 16 registers on x86-64) keeps loads and
/// stores in program order but computes everything else just before its first use, so
/// whatever the Wasm loads early and uses late lives in a register or is spilled meanwhile;
/// and LLVM, given the lanes as plain values, reads all 25 into locals first and reassociates
/// θ's XORs into each output lane, computing the column terms anew where they are used.
/// Volatile accesses pin the order instead: each column parity is stored as soon as its five
/// lanes are read (a store uses its value, so the XORs happen there and the lanes die), θ's
/// column terms are stored once and read back by each plane, and each plane reads its five
/// lanes after the previous plane's stores. In the pure-Wasm runtime, fewer instructions per
/// permutation than letting LLVM keep the state in locals (docs/benchmarks.md).
#[cfg(any(target_family = "wasm", test))]
fn permute_in_memory(state: &mut [u64; 25]) {
	#[inline(always)]
	fn round(
		a: &[u64; 25],
		e: &mut [u64; 25],
		parities: &mut [u64; 5],
		terms: &mut [u64; 5],
		round_constant: u64,
	) {
		// SAFETY (every access below): pointers from references to the arrays, in bounds
		// (lane < 25, column < 5).
		let load = |lane: usize| unsafe { core::ptr::read_volatile(&a[lane]) };
		for (x, c) in parities.iter_mut().enumerate() {
			unsafe { core::ptr::write_volatile(c, parity(load, x)) };
		}
		let c = core::array::from_fn(|x| unsafe { core::ptr::read_volatile(&parities[x]) });
		for (term, d) in terms.iter_mut().zip(column_terms(c)) {
			unsafe { core::ptr::write_volatile(term, d) };
		}
		let column_term = |x: usize| unsafe { core::ptr::read_volatile(&terms[x]) };
		let mut store =
			|lane: usize, value: u64| unsafe { core::ptr::write_volatile(&mut e[lane], value) };
		planes!(load, store, column_term, round_constant);
	}
	let mut other = [0u64; 25];
	let (mut parities, mut terms) = ([0u64; 5], [0u64; 5]);
	for pair in ROUND_CONSTANTS.chunks_exact(2) {
		round(state, &mut other, &mut parities, &mut terms, pair[0]);
		round(&other, state, &mut parities, &mut terms, pair[1]);
	}
}

/// A SHAKE sponge of `RATE` bytes (168: SHAKE128, 136: SHAKE256) absorbing its input.
#[derive(Clone)]
pub struct Absorbing<const RATE: usize> {
	state: [u64; 25],
	/// Bytes of the current block absorbed so far (`< RATE`).
	position: usize,
}

/// The sponge after padding: its output, read in pieces of any length.
#[derive(Clone)]
pub struct Squeezing<const RATE: usize> {
	state: [u64; 25],
	/// The current block's output bytes, little-endian lanes.
	block: [u8; RATE],
	/// Bytes of `block` already read.
	position: usize,
}

/// SHAKE128's sponge: 168-byte blocks.
pub type Shake128 = Absorbing<168>;
/// SHAKE256's sponge: 136-byte blocks.
pub type Shake256 = Absorbing<136>;

impl<const RATE: usize> Default for Absorbing<RATE> {
	fn default() -> Self {
		Self::new()
	}
}

impl<const RATE: usize> Absorbing<RATE> {
	/// An empty sponge.
	pub const fn new() -> Self {
		Self { state: [0; 25], position: 0 }
	}

	/// Absorbs `input` after what came before: a lane at a time where the block position is
	/// lane-aligned (both rates are multiples of 8), else a byte.
	pub fn absorb(&mut self, mut input: &[u8]) {
		while !input.is_empty() {
			if let (0, Some((lane, rest))) = (self.position % 8, input.split_first_chunk::<8>()) {
				self.state[self.position / 8] ^= u64::from_le_bytes(*lane);
				self.position += 8;
				input = rest;
			} else {
				self.xor_byte(self.position, input[0]);
				self.position += 1;
				input = &input[1..];
			}
			if self.position == RATE {
				keccak_f1600(&mut self.state);
				self.position = 0;
			}
		}
	}

	/// Pads with SHAKE's domain bits and `pad10*1` (FIPS 202 §6.2, §5.1) and turns to output.
	pub fn finalize(mut self) -> Squeezing<RATE> {
		self.xor_byte(self.position, 0x1f);
		self.xor_byte(RATE - 1, 0x80);
		Squeezing { state: self.state, block: [0; RATE], position: RATE }
	}

	fn xor_byte(&mut self, position: usize, byte: u8) {
		self.state[position / 8] ^= u64::from(byte) << (8 * (position % 8));
	}
}

impl<const RATE: usize> Squeezing<RATE> {
	/// The next `out.len()` bytes of the output.
	pub fn read(&mut self, out: &mut [u8]) {
		for chunk in out.chunks_mut(RATE) {
			let mut written = 0;
			while written < chunk.len() {
				if self.position == RATE {
					self.next_block();
				}
				let take = (chunk.len() - written).min(RATE - self.position);
				chunk[written..][..take].copy_from_slice(&self.block[self.position..][..take]);
				self.position += take;
				written += take;
			}
		}
	}

	/// The next whole block of output, borrowed rather than copied out (ExpandA's rejection
	/// sampling reads its candidates here). Only between whole blocks: what was read before
	/// must end at a block's end, or the rest of that block would be skipped.
	pub fn read_block(&mut self) -> &[u8; RATE] {
		assert_eq!(self.position, RATE, "a read ended inside a block");
		self.next_block();
		self.position = RATE;
		&self.block
	}

	fn next_block(&mut self) {
		keccak_f1600(&mut self.state);
		for (bytes, lane) in self.block.chunks_exact_mut(8).zip(&self.state) {
			bytes.copy_from_slice(&lane.to_le_bytes());
		}
		self.position = 0;
	}
}

#[cfg(test)]
mod tests {
	use super::*;
	use sha3::digest::{ExtendableOutput, Update, XofReader};

	fn reference<D: Default + Update + ExtendableOutput>(parts: &[&[u8]], bytes: usize) -> Vec<u8> {
		let mut hasher = D::default();
		parts.iter().for_each(|part| hasher.update(part));
		let mut out = vec![0; bytes];
		hasher.finalize_xof().read(&mut out);
		out
	}

	fn ours<const RATE: usize>(parts: &[&[u8]], pieces: usize, bytes: usize) -> Vec<u8> {
		let mut sponge = Absorbing::<RATE>::new();
		parts.iter().for_each(|part| sponge.absorb(part));
		let mut reader = sponge.finalize();
		let mut out = vec![0; bytes];
		for chunk in out.chunks_mut(pieces) {
			reader.read(chunk);
		}
		out
	}

	/// Both permutations: the one this target runs and the other target's, so each is tested
	/// natively.
	type Permutation = fn(&mut [u64; 25]);
	const PERMUTATIONS: [(&str, Permutation); 2] =
		[("in registers", permute_in_registers), ("in memory", permute_in_memory)];

	/// FIPS 202's permutation on the all-zero state: the first lanes of the Keccak team's
	/// `KeccakF-1600-IntermediateValues.txt`.
	#[test]
	fn the_permutation_of_the_zero_state_is_the_known_answer() {
		for (name, permute) in PERMUTATIONS {
			let mut state = [0u64; 25];
			permute(&mut state);
			assert_eq!(state[0], 0xF1258F7940E1DDE7, "{name}");
			assert_eq!(state[1], 0x84D5CCF933C0478A, "{name}");
			assert_eq!(state[24], 0xEAF1FF7B5CECA249, "{name}");
		}
	}

	/// Every lane of the permutation is RustCrypto's, on states of every bit pattern.
	#[test]
	fn the_permutation_is_the_reference_one_on_many_states() {
		for (name, permute) in PERMUTATIONS {
			let mut state: [u64; 25] =
				core::array::from_fn(|lane| (lane as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
			for _ in 0..200 {
				let mut reference = state;
				keccak::f1600(&mut reference);
				permute(&mut state);
				assert_eq!(state, reference, "{name}");
				state[7] ^= state[0].rotate_left(13);
			}
		}
	}

	/// A pseudorandom partition of `input` into up to `parts` parts (some empty).
	fn partition(input: &[u8], parts: usize, seed: u64) -> Vec<&[u8]> {
		let mut rest = input;
		let mut state = seed;
		let mut out = Vec::new();
		for _ in 1..parts {
			state = state
				.wrapping_mul(6_364_136_223_846_793_005)
				.wrapping_add(1_442_695_040_888_963_407);
			let (part, remainder) = rest.split_at((state >> 33) as usize % (rest.len() + 1));
			out.push(part);
			rest = remainder;
		}
		out.push(rest);
		out
	}

	/// Both sponges are RustCrypto's SHAKE128 and SHAKE256: inputs of every length to two blocks
	/// and a lane more, split in two at every position (so a part starts in every lane and at
	/// every byte of one, and a block is completed by a single byte), and in three to five
	/// pseudorandom parts; outputs of seven blocks, read whole and in pieces of a byte, a lane
	/// and a byte, a block and one more.
	#[test]
	fn both_sponges_are_the_reference_shake_for_every_split_and_read_size() {
		fn check<const RATE: usize, D: Default + Update + ExtendableOutput>(name: &str) {
			let input: Vec<u8> = (0..2 * RATE as u32 + 9).map(|i| (i * 131 + 17) as u8).collect();
			let output = 7 * RATE;
			for length in 0..=input.len() {
				let input = &input[..length];
				let expected = reference::<D>(&[input], output);
				for split in 0..=length {
					let (first, second) = input.split_at(split);
					assert_eq!(
						ours::<RATE>(&[first, second], output, output),
						expected,
						"{name}, {length} bytes split at {split}"
					);
				}
				for parts in 3..=5 {
					let parts = partition(input, parts, length as u64 * 31 + parts as u64);
					assert_eq!(
						ours::<RATE>(&parts, output, output),
						expected,
						"{name}, {length} bytes in {parts:?}"
					);
				}
				for pieces in [1, 9, RATE, RATE + 1] {
					assert_eq!(
						ours::<RATE>(&[input], pieces, output),
						expected,
						"{name}, {length} bytes read by {pieces}"
					);
				}
			}
		}
		check::<168, sha3::Shake128>("SHAKE128");
		check::<136, sha3::Shake256>("SHAKE256");
	}

	/// Blocks borrowed from the sponge are its output, first and between whole blocks read.
	#[test]
	fn borrowed_blocks_are_the_reference_shake() {
		let input = b"rho, then the column and the row";
		let mut sponge = Shake128::new();
		sponge.absorb(input);
		let mut reader = sponge.finalize();
		let mut output = reader.read_block().to_vec();
		let mut two_blocks = [0; 2 * 168];
		reader.read(&mut two_blocks);
		output.extend_from_slice(&two_blocks);
		output.extend_from_slice(reader.read_block());
		output.extend_from_slice(reader.read_block());
		assert_eq!(output, reference::<sha3::Shake128>(&[input], 5 * 168));
	}
}
