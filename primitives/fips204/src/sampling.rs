//! Pseudorandom sampling (FIPS 204 §7.3) and the hash `H` (SHAKE256, §3.7).

use super::{
	keccak::{Shake128, Shake256, Squeezing},
	ring::{Poly, N, Q},
	Engine,
};
use alloc::boxed::Box;
use core::mem::MaybeUninit;

/// SHAKE256's output after absorbing, read in pieces of any length.
pub type Shake256Reader = Squeezing<136>;

/// `H(parts…)`: SHAKE256 over the concatenation, as a reader of any output length.
pub fn h(parts: &[&[u8]]) -> Shake256Reader {
	let mut hasher = Shake256::new();
	for part in parts {
		hasher.absorb(part);
	}
	hasher.finalize()
}

/// `H(parts…, LEN)`.
pub fn h_bytes<const LEN: usize>(parts: &[&[u8]]) -> [u8; LEN] {
	let mut out = [0u8; LEN];
	h(parts).read(&mut out);
	out
}

/// A polynomial's coefficients as sampling writes them: ExpandA fills a fresh matrix in place
/// without zeroing it first (in Wasm a `memset` of every entry, 3% of decoding a key and
/// verifying).
type Coefficients = [MaybeUninit<u32>; N];

/// `poly`'s coefficients, to be overwritten.
///
/// # Safety
/// Only initialized values may be written through the result: `poly` stays a `Poly`.
#[cfg(target_arch = "x86_64")]
unsafe fn coefficients(poly: &mut Poly) -> &mut Coefficients {
	// SAFETY: `Poly` is `repr(C)` over `[u32; N]`, laid out as `N` `MaybeUninit<u32>`; the
	// caller writes only initialized values through it.
	unsafe { &mut *(poly as *mut Poly).cast::<Coefficients>() }
}

/// Eight candidates of `RejNTTPoly`: 24 bytes of SHAKE128 output, three for each
/// `CoeffFromThreeBytes`. A block of output (168 bytes) is seven.
type Group = [u8; 24];

/// The rejection sampling of Algorithm 30 `RejNTTPoly` over `groups`, the next bytes of a
/// SHAKE128 output: Algorithm 14 `CoeffFromThreeBytes` keeps each 23-bit candidate below `q`
/// until `poly` has 256 coefficients. Returns how many it has: the first that many are written.
///
/// A group is read as three little-endian 64-bit words and its eight candidates shifted out of
/// them: in Wasm three loads instead of 24 byte loads.
fn rej_ntt_fill(poly: &mut Coefficients, mut filled: usize, groups: &[Group]) -> usize {
	for group in groups {
		let word = |i: usize| {
			let mut bytes = [0u8; 8];
			bytes.copy_from_slice(&group[8 * i..8 * i + 8]);
			u64::from_le_bytes(bytes)
		};
		let (a, b, c) = (word(0), word(1), word(2));
		for candidate in
			[a, a >> 24, a >> 48 | b << 16, b >> 8, b >> 32, b >> 56 | c << 8, c >> 16, c >> 40]
		{
			let candidate = candidate as u32 & 0x7f_ffff;
			if candidate < Q && filled < N {
				poly[filled].write(candidate);
				filled += 1;
			}
		}
	}
	filled
}

/// Algorithm 30 `RejNTTPoly`: all of `poly` is written, a uniform polynomial in the NTT domain
/// from SHAKE128(`seed`), sampled from each block of output where the sponge holds it (a block
/// is 56 whole candidates; five almost always fill a polynomial).
fn rej_ntt_poly(poly: &mut Coefficients, seed: &[u8]) {
	let mut xof = Shake128::new();
	xof.absorb(seed);
	let mut xof = xof.finalize();
	let mut filled = 0;
	while filled < N {
		// Seven whole groups: nothing left over.
		filled = rej_ntt_fill(poly, filled, xof.read_block().as_chunks().0);
	}
}

/// The seed `ρ ‖ s ‖ r` of `Â[r][s]` (Algorithm 32), entry `index` of a row-major matrix of
/// `l` columns.
fn matrix_seed(rho: &[u8; 32], index: usize, l: usize) -> [u8; 34] {
	let mut seed = [0u8; 34];
	seed[..32].copy_from_slice(rho);
	(seed[32], seed[33]) = ((index % l) as u8, (index / l) as u8);
	seed
}

/// Algorithm 32 `ExpandA`: the `k × ℓ` matrix `Â[r][s] = RejNTTPoly(ρ ‖ s ‖ r)`, row by row.
/// Its `k·ℓ` SHAKE128 streams are independent: [`Engine::Avx2`] runs four at once.
pub fn expand_a(engine: Engine, rho: &[u8; 32], k: usize, l: usize) -> Box<[Poly]> {
	#[cfg(target_arch = "x86_64")]
	if engine.avx2().is_some() {
		// SAFETY: the CPU supports AVX2.
		return unsafe { four_way::expand_a(rho, k, l) };
	}
	let _ = engine;
	// Filled in place, neither zeroed first nor returned by value (a 1 KiB `memset` or `memcpy`
	// call per entry in Wasm).
	let mut matrix = Box::<[Poly]>::new_uninit_slice(k * l);
	for (r, row) in matrix.chunks_exact_mut(l).enumerate() {
		expand_a_row(rho, r, row);
	}
	// SAFETY: `expand_a_row` wrote every entry of every row.
	unsafe { matrix.assume_init() }
}

/// Row `r` of Algorithm 32's `Â`, its `ℓ = row.len()` entries `RejNTTPoly(ρ ‖ s ‖ r)`, written
/// into `row` in place (portable code): a row of [`expand_a`], or what a verification that
/// keeps no decoded key samples when it reaches the row ([`crate::verify_once`]).
pub fn expand_a_row<'a>(rho: &[u8; 32], r: usize, row: &'a mut [MaybeUninit<Poly>]) -> &'a [Poly] {
	let l = row.len();
	// The seed holds `s` and `r` in a byte each.
	debug_assert!(l <= 256 && r < 256, "a matrix of FIPS 204's sizes");
	for (s, poly) in row.iter_mut().enumerate() {
		// SAFETY: `Poly` is `repr(C)` over `[u32; N]`, laid out as `N` `MaybeUninit<u32>`.
		let poly = unsafe { &mut *poly.as_mut_ptr().cast::<Coefficients>() };
		rej_ntt_poly(poly, &matrix_seed(rho, r * l + s, l));
	}
	// SAFETY: `rej_ntt_poly` wrote every coefficient of every entry, and `MaybeUninit<Poly>` is
	// laid out as `Poly`.
	unsafe { &*(row as *const [MaybeUninit<Poly>] as *const [Poly]) }
}

/// ExpandA's SHAKE128 streams four at a time ([`super::keccak_x4`]) and their rejection
/// sampling eight candidates at a time, compiled for AVX2.
#[cfg(target_arch = "x86_64")]
mod four_way {
	use super::{coefficients, matrix_seed, rej_ntt_fill, Group, Poly, N, Q};
	use crate::keccak_x4::{Permutation, Shake128x4, RATE};
	use alloc::{boxed::Box, vec};
	use core::arch::x86_64::*;

	/// [`super::expand_a`], four entries at a time; a last group of fewer than four repeats
	/// its last seed and drops the repeats.
	///
	/// # Safety
	/// The CPU must support AVX2.
	#[target_feature(enable = "avx2")]
	pub(super) unsafe fn expand_a(rho: &[u8; 32], k: usize, l: usize) -> Box<[Poly]> {
		/// Five blocks fill almost every polynomial: 280 candidates for 256 coefficients, each
		/// kept with probability `q/2^23` ≈ 0.999. Then one block at a time.
		const FIRST_BLOCKS: usize = 5;
		let entries = k * l;
		let permutation = Permutation::detect();
		let mut a_hat = vec![Poly::default(); entries];
		for first in (0..entries).step_by(4) {
			let seeds: [[u8; 34]; 4] =
				core::array::from_fn(|lane| matrix_seed(rho, (first + lane).min(entries - 1), l));
			let mut xof =
				Shake128x4::absorb(permutation, [&seeds[0], &seeds[1], &seeds[2], &seeds[3]]);
			let mut streams = [[0u8; FIRST_BLOCKS * RATE]; 4];
			for block in 0..FIRST_BLOCKS {
				xof.squeeze_block(streams.each_mut().map(|stream| &mut stream[block * RATE..]));
			}
			let mut polys = [Poly::default(); 4];
			let mut filled: [usize; 4] = core::array::from_fn(|lane| {
				rej_ntt_fill_x8(&mut polys[lane], 0, streams[lane].as_chunks().0)
			});
			while filled.iter().any(|&count| count < N) {
				xof.squeeze_block(streams.each_mut().map(|stream| &mut stream[..]));
				for lane in 0..4 {
					let block = streams[lane][..RATE].as_chunks().0;
					filled[lane] = rej_ntt_fill_x8(&mut polys[lane], filled[lane], block);
				}
			}
			for (lane, poly) in polys.into_iter().enumerate().take(entries - first) {
				a_hat[first + lane] = poly;
			}
		}
		a_hat.into_boxed_slice()
	}

	/// For each 8-bit mask, the positions of its set bits in order: the permutation that packs
	/// the kept candidates of [`rej_ntt_fill_x8`] to the front.
	const PACK: [[u8; 8]; 256] = {
		let mut table = [[0u8; 8]; 256];
		let mut mask = 0;
		while mask < 256 {
			let (mut bit, mut kept) = (0, 0);
			while bit < 8 {
				if mask >> bit & 1 == 1 {
					table[mask][kept] = bit as u8;
					kept += 1;
				}
				bit += 1;
			}
			mask += 1;
		}
		table
	};

	/// [`rej_ntt_fill`] a group at a time: its eight candidates spread to eight 32-bit lanes,
	/// those below `q` kept, packed to the front and all eight stored at `filled` (those past
	/// the kept ones are overwritten next). The scalar code finishes the last candidates of the
	/// polynomial and of `groups`, so the same coefficients come out in the same order.
	#[target_feature(enable = "avx2")]
	pub(super) fn rej_ntt_fill_x8(poly: &mut Poly, mut filled: usize, groups: &[Group]) -> usize {
		let stream = groups.as_flattened();
		let spread = _mm256_setr_epi8(
			0, 1, 2, -1, 3, 4, 5, -1, 6, 7, 8, -1, 9, 10, 11, -1, //
			4, 5, 6, -1, 7, 8, 9, -1, 10, 11, 12, -1, 13, 14, 15, -1,
		);
		let mut position = 0;
		// Each step reads 32 bytes (of which it uses 24) and writes 8 coefficients.
		while filled + 8 <= N && position + 32 <= stream.len() {
			// SAFETY: `position + 32 <= stream.len()`.
			let bytes =
				unsafe { _mm256_loadu_si256(stream[position..].as_ptr() as *const __m256i) };
			// Bytes 0–15 in the low half, 8–23 in the high half, then three per lane.
			let candidates =
				_mm256_shuffle_epi8(_mm256_permute4x64_epi64::<0b10_01_01_00>(bytes), spread);
			let candidates = _mm256_and_si256(candidates, _mm256_set1_epi32(0x7f_ffff));
			// A candidate below q (< 2^23) has the sign bit of `candidate − q` set.
			let below_q = _mm256_sub_epi32(candidates, _mm256_set1_epi32(Q as i32));
			let kept = _mm256_movemask_ps(_mm256_castsi256_ps(below_q)) as usize;
			// SAFETY: 8 readable bytes.
			let order = _mm256_cvtepu8_epi32(unsafe {
				_mm_loadl_epi64(PACK[kept].as_ptr() as *const __m128i)
			});
			// SAFETY: `filled + 8 <= N`: eight coefficients of `poly` from `filled`.
			unsafe {
				_mm256_storeu_si256(
					poly.0[filled..].as_mut_ptr() as *mut __m256i,
					_mm256_permutevar8x32_epi32(candidates, order),
				)
			};
			filled += kept.count_ones() as usize;
			position += 24;
		}
		// SAFETY: `rej_ntt_fill` writes only coefficients it sampled.
		rej_ntt_fill(unsafe { coefficients(poly) }, filled, &groups[position / 24..])
	}
}

/// Algorithm 29 `SampleInBall`: the challenge `c` with `τ` coefficients ±1, from `c̃`.
pub fn sample_in_ball(c_tilde: &[u8], tau: usize) -> Poly {
	let mut xof = h(&[c_tilde]);
	let mut signs = [0u8; 8];
	xof.read(&mut signs);
	let signs = u64::from_le_bytes(signs);
	let mut c = [0i32; N];
	for i in N - tau..N {
		let j = loop {
			let mut byte = [0u8; 1];
			xof.read(&mut byte);
			if byte[0] as usize <= i {
				break byte[0] as usize;
			}
		};
		c[i] = c[j];
		c[j] = if signs >> (i + tau - N) & 1 == 1 { -1 } else { 1 };
	}
	Poly::from_signed(&c)
}

#[cfg(test)]
mod tests {
	use super::*;

	/// `H` read in pieces — a byte at a time as SampleInBall reads, across the 136-byte rate,
	/// absorbed in parts that straddle it — is the one-shot SHAKE256 of the concatenation.
	#[test]
	fn h_read_in_pieces_is_the_one_shot_shake256() {
		let input: Vec<u8> = (0..400u32).map(|i| (i * 29 + 3) as u8).collect();
		let expected = {
			use sha3::digest::{ExtendableOutput, Update, XofReader};
			let mut hasher = sha3::Shake256::default();
			hasher.update(&input);
			let mut out = [0u8; 600];
			hasher.finalize_xof().read(&mut out);
			out
		};
		for split in [0, 1, 135, 136, 137, 272, 400] {
			let (first, second) = input.split_at(split);
			for pieces in [&[1usize][..], &[8, 1], &[135], &[136], &[137], &[600]] {
				let mut reader = h(&[first, second]);
				let mut out = Vec::new();
				for &piece in pieces.iter().cycle() {
					let mut chunk = vec![0u8; piece.min(600 - out.len())];
					reader.read(&mut chunk);
					out.extend_from_slice(&chunk);
					if out.len() == 600 {
						break;
					}
				}
				assert_eq!(out, expected, "split at {split}, pieces {pieces:?}");
			}
		}
	}

	/// Five blocks of output with candidates at or above `q` at several places in a group (`q`
	/// itself, `2^23 − 1`, `q` with the ignored top bit set), and the same with every candidate
	/// but each seventh `2^23 − 1`.
	fn streams_with_rejections() -> [Vec<u8>; 2] {
		let mut stream: Vec<u8> = (0..5 * 168).map(|i| (i * 151 + 7) as u8).collect();
		for (candidate, value) in
			[(0usize, Q), (9, (1 << 23) - 1), (10, Q | 1 << 23), (17, Q), (55, Q + 1)]
		{
			stream[3 * candidate..][..3].copy_from_slice(&value.to_le_bytes()[..3]);
		}
		let mut sparse = stream.clone();
		for (candidate, bytes) in sparse.chunks_exact_mut(3).enumerate() {
			if candidate % 7 != 0 {
				bytes.copy_from_slice(&[0xff, 0xff, 0x7f]);
			}
		}
		[stream, sparse]
	}

	/// The sampling by words keeps the coefficients of Algorithm 30 as written, three bytes
	/// and one `CoeffFromThreeBytes` at a time, in order: from empty, part-filled and nearly
	/// full (the polynomial filled mid-stream).
	#[test]
	fn rejection_sampling_by_words_is_coeff_from_three_bytes() {
		for stream in streams_with_rejections() {
			for filled in [0, 100, 250] {
				let mut expected = Vec::new();
				for bytes in stream.chunks_exact(3) {
					let candidate = u32::from(bytes[0])
						| u32::from(bytes[1]) << 8
						| u32::from(bytes[2] & 0x7f) << 16;
					if candidate < Q && filled + expected.len() < N {
						expected.push(candidate);
					}
				}
				let mut poly = [MaybeUninit::uninit(); N];
				let sampled = rej_ntt_fill(&mut poly, filled, stream.as_chunks().0);
				assert_eq!(sampled, filled + expected.len());
				// SAFETY: `rej_ntt_fill` wrote its coefficients from `filled` to `sampled`.
				let written = poly[filled..sampled].iter().map(|c| unsafe { c.assume_init() });
				assert_eq!(written.collect::<Vec<_>>(), expected, "from {filled}");
			}
		}
	}

	/// The eight-way rejection sampling keeps exactly the scalar one's coefficients, with
	/// candidates at or above `q` anywhere in a group and a polynomial filled mid-stream.
	#[cfg(target_arch = "x86_64")]
	#[test]
	fn eight_way_rejection_sampling_equals_the_scalar_one() {
		if !std::is_x86_feature_detected!("avx2") {
			return;
		}
		let [stream, sparse] = streams_with_rejections();
		// The five first blocks and a later single block; from empty, part-filled (the vector
		// loop runs out of stream first) and nearly full (the scalar code finishes).
		for (stream, filled) in [
			(&stream[..], 0),
			(&stream, 100),
			(&stream, 250),
			(&stream[..168], 200),
			(&sparse, 0),
			(&sparse, 230),
		] {
			let stream = stream.as_chunks().0;
			let (mut scalar, mut vectorized) = (Poly::default(), Poly::default());
			// SAFETY: `rej_ntt_fill` writes only coefficients it sampled.
			let expected = rej_ntt_fill(unsafe { coefficients(&mut scalar) }, filled, stream);
			// SAFETY: the CPU supports AVX2 (checked above).
			assert_eq!(
				unsafe { four_way::rej_ntt_fill_x8(&mut vectorized, filled, stream) },
				expected
			);
			assert_eq!(
				vectorized.0[..expected],
				scalar.0[..expected],
				"{} groups from {filled}",
				stream.len()
			);
		}
	}

	/// Both engines give the same matrix at every level's dimensions, including a last group
	/// of fewer than four entries (ML-DSA-65's 30 entries, and 1 × 3).
	#[test]
	fn four_way_expand_a_equals_the_portable_one() {
		for (k, l) in [(4, 4), (6, 5), (8, 7), (1, 3)] {
			for rho in [[0u8; 32], [0xa6; 32], core::array::from_fn(|i| i as u8 * 37)] {
				assert_eq!(
					expand_a(Engine::Avx2, &rho, k, l),
					expand_a(Engine::Portable, &rho, k, l),
					"k = {k}, l = {l}"
				);
			}
		}
	}
}
