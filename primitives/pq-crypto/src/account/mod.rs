//! Account ids of post-quantum keys and committees: ids no classical signature can authorize.
//!
//! An Ed25519 account *is* its public key, and an sr25519 account (in a runtime that also
//! accepts `sp_runtime::MultiSignature`) is its Ristretto255 point. So any 32 bytes that decode
//! as an edwards25519 or a Ristretto255 point are an account that whoever can take a discrete
//! logarithm — the attacker a post-quantum account exists to defeat — can sign for. A hash
//! decodes as an Ed25519 point about half the time. The ids derived here never decode as
//! either, so every classical path refuses them when it decodes the key, before it verifies
//! anything, and statelessly: a key-inline account receives funds before it ever transacts.
//!
//! ## The derivation (version 2)
//!
//! ```text
//! seed      = blake2_256(tag ‖ bytes)      the version-1 id; tag per scheme and for committees
//! candidate = blake2_256(seed ‖ counter as u32 LE), then its top bit (bit 7 of byte 31) set
//! id        = the first candidate, counter = 0, 1, 2, …, that is not an edwards25519 encoding
//! ```
//!
//! - **Not Ristretto255**: with the top bit set the bytes are not a canonical field element,
//!   which every Ristretto255 decoder requires (RFC 9496, section 4.3.1).
//! - **Not Ed25519**: bit 255 is the sign of `x` in an Ed25519 encoding, so the counter goes on
//!   until the low 255 bits are no point's `y`, under the most permissive decoding
//!   ([`edwards::decodes_as_point`]); about half of all candidates are, so the expected
//!   number of candidates is two, and a hundred in a row happen with probability 2⁻¹⁰⁰.
//! - **ECDSA** accounts are `blake2_256` of a key: reaching one of these ids needs a preimage.
//!
//! The id stays a collision-resistant digest of `tag ‖ bytes` (255 bits of a hash chain). The
//! decoded-key caches index keys by the seed instead ([`crate::verify::KeyDigest`]): one hash,
//! where the id costs a key ground for a long derivation its candidates.

pub mod edwards;

use polkadot_sdk::sp_runtime::AccountId32;
// The host function in a runtime (several times faster than blake2 compiled to Wasm), the same
// code called directly elsewhere.
use polkadot_sdk::sp_io::hashing::blake2_256;

/// The bit set in every derived id: bit 7 of byte 31, the top bit of a little-endian field
/// element, so the id is never a canonical one.
pub const NON_CANONICAL_BIT: u8 = 0x80;

/// The account id of `bytes` (a public key, or a committee id) under domain `tag`: the
/// derivation of the module docs, the first of its [`candidates`] that is not an edwards25519
/// encoding.
pub fn derive(tag: &[u8], bytes: &[u8]) -> AccountId32 {
	derive_counted(tag, bytes).0
}

/// [`derive`], and how many candidates it tried (at least one): a hash and a Legendre symbol
/// each, which is what deriving this id costs. Bytes needing `k` candidates take about `2^k`
/// tries to find, so a transaction is charged by this count (`pallet-pq-verifier`'s
/// `account_candidates` weight), not by the expected two.
pub fn derive_counted(tag: &[u8], bytes: &[u8]) -> (AccountId32, u32) {
	derive_counted_from_seed(version_1(tag, bytes))
}

/// [`derive_counted`] from the derivation's `seed` ([`version_1`]), already hashed.
pub fn derive_counted_from_seed(seed: [u8; 32]) -> (AccountId32, u32) {
	candidates_from_seed(seed)
		.zip(1..=u32::MAX)
		.find(|(candidate, _)| !edwards::decodes_as_point(candidate))
		.map(|(candidate, tried)| (AccountId32::new(candidate), tried))
		// Each candidate is a point with probability about 1/2, independently: 2^32 of them in a
		// row would take a hash function that is not one.
		.expect("2^32 consecutive blake2 outputs decode as edwards25519 points")
}

/// The candidates of the derivation, in order: `blake2_256(seed ‖ counter as u32 LE)` with
/// its top bit set, for counter = 0, 1, 2, …
pub fn candidates(tag: &[u8], bytes: &[u8]) -> impl Iterator<Item = [u8; 32]> {
	candidates_from_seed(version_1(tag, bytes))
}

fn candidates_from_seed(seed: [u8; 32]) -> impl Iterator<Item = [u8; 32]> {
	let mut preimage = [0u8; 36];
	preimage[..32].copy_from_slice(&seed);
	(0..=u32::MAX).map(move |counter| {
		#[cfg(feature = "test-utils")]
		TRIED.with(|tried| tried.set(tried.get() + 1));
		preimage[32..].copy_from_slice(&counter.to_le_bytes());
		let mut candidate = blake2_256(&preimage);
		candidate[31] |= NON_CANONICAL_BIT;
		candidate
	})
}

/// The version-1 id of `bytes` under `tag`, `blake2_256(tag ‖ bytes)`: the seed of
/// [`derive`], and what account ids were before it, about half of them Ed25519 keys. Chains
/// with such accounts need it to migrate them (see `docs/wire-format.md`).
pub fn version_1(tag: &[u8], bytes: &[u8]) -> [u8; 32] {
	blake2_256(&[tag, bytes].concat())
}

#[cfg(feature = "test-utils")]
std::thread_local! {
	static TRIED: core::cell::Cell<u64> = const { core::cell::Cell::new(0) };
}

/// How many derivation candidates this thread has tried so far, natively: what a test
/// compares with what a transaction is charged for them (each is a hash and a Legendre symbol).
#[cfg(feature = "test-utils")]
pub fn candidates_tried() -> u64 {
	TRIED.with(core::cell::Cell::get)
}
