//! Verifying aggregate signatures with `Â = ExpandA(ρ)` computed once per committee.
//!
//! Every aggregate key `pk*` of a committee carries the committee's `ρ`, so every signer set
//! shares one matrix `Â`, the largest part of decoding an ML-DSA-87 key (56 polynomials
//! rejection-sampled from SHAKE128). The backends' decoders cannot take a precomputed matrix,
//! so this module verifies on its own:
//!
//! - [`CommitteeMatrix`]: `Â` of one `ρ` (FIPS 204 Algorithm 32), expanded once;
//! - [`AggregateKey`]: a decoded `pk*` — the shared matrix, `NTT(t1·2^d)` and `tr`;
//! - [`AggregateKey::verify_internal`]: Algorithm 8 `ML-DSA.Verify_internal`, with
//!   `sigDecode` (Algorithm 27) and `HintBitUnpack` (Algorithm 21) refusing every malformed
//!   encoding FIPS 204 refuses;
//! - [`AggregateKeyCache`]: matrices by `ρ` and decoded keys by digest, each bounded.
//!
//! The code is scalar: with `Â` expanded it verifies faster than libcrux's AVX2 decode+verify,
//! but expanding `Â` with scalar SHAKE128 costs more than that whole decode+verify
//! (`docs/aggregate.md` has the figures). So the node verifies with libcrux until a committee's
//! matrix is ready, and expands it off the verification path ([`crate::host`]); weights charge
//! the libcrux path, the slower of the two.
//!
//! Verification is a consensus decision, so this verifier must agree with the backends on
//! every input: the NIST ACVP and Wycheproof ML-DSA-87 vectors run against it, and random
//! aggregate signatures (and their bit flips) are compared with libcrux.

use super::{
	encoding::{sig_decode, unpack_bits, w1_encode, C_TILDE_BYTES},
	ring::{use_hint, Poly, PolyVec, BETA, D, GAMMA1, K, L, N, Q},
	sampling::{expand_a, h_bytes, sample_in_ball},
};
use crate::{
	cache::{CacheLimits, CacheStats, Lru},
	keys::{MlDsa87Public, MlDsa87Signature},
	params::MlDsa87,
	verify::{KeyDigest, Signed},
};
use alloc::{boxed::Box, sync::Arc};

/// Bytes of one packed polynomial of `t1` (10 bits per coefficient).
const T1_POLY_BYTES: usize = N * 10 / 8;

/// `Â = ExpandA(ρ)` of one committee, in the NTT domain.
pub struct CommitteeMatrix {
	rho: [u8; 32],
	a_hat: Box<[PolyVec<L>; K]>,
}

impl CommitteeMatrix {
	/// Bytes one matrix occupies, for a cache's byte budget.
	pub const BYTES: usize = core::mem::size_of::<[PolyVec<L>; K]>();

	/// Algorithm 32 `ExpandA(ρ)`.
	pub fn expand(rho: &[u8; 32]) -> Self {
		Self { rho: *rho, a_hat: Box::new(expand_a(rho)) }
	}
}

/// A decoded aggregate key `pk*`: its committee's matrix, `NTT(t1·2^d)` and `tr = H(pk*, 64)`.
pub struct AggregateKey {
	matrix: Arc<CommitteeMatrix>,
	t1_hat: Box<PolyVec<K>>,
	tr: [u8; 64],
}

impl AggregateKey {
	/// Bytes one decoded key occupies besides its shared matrix.
	pub const BYTES: usize = core::mem::size_of::<PolyVec<K>>() + 64;

	/// Algorithm 23 `pkDecode` of `public` with the matrix of its `ρ` already expanded; `None`
	/// if `matrix` belongs to another `ρ`.
	pub fn decode(matrix: Arc<CommitteeMatrix>, public: &MlDsa87Public) -> Option<Self> {
		let (rho, packed_t1) = public.0.split_at(32);
		if rho != matrix.rho {
			return None;
		}
		let t1_hat = Box::new(core::array::from_fn(|row| {
			let packed = &packed_t1[row * T1_POLY_BYTES..][..T1_POLY_BYTES];
			// t1 < 2^10, so t1·2^d ≤ q − 1 is already reduced.
			Poly(core::array::from_fn(|i| unpack_bits(packed, i, 10) << D)).ntt()
		}));
		Some(Self { matrix, t1_hat, tr: h_bytes(&[&public.0]) })
	}

	/// FIPS 204 Algorithm 3 `ML-DSA.Verify` (pure mode) or Algorithm 8 over a formatted `M′`.
	pub fn verify(&self, signed: Signed<'_>, signature: &MlDsa87Signature) -> bool {
		signed.m_prime().is_some_and(|m_prime| self.verify_internal(&m_prime, signature))
	}

	/// FIPS 204 Algorithm 8 `ML-DSA.Verify_internal(pk, M′, σ)`.
	pub fn verify_internal(&self, m_prime: &[u8], signature: &MlDsa87Signature) -> bool {
		let Some((c_tilde, z, hint)) = sig_decode(&signature.0) else { return false };
		if z.iter().any(|poly| poly.infinity_norm() >= GAMMA1 - BETA) {
			return false;
		}
		let mu: [u8; 64] = h_bytes(&[&self.tr, m_prime]);
		let c_hat = sample_in_ball(c_tilde).ntt();
		let mut z_hat = z;
		z_hat.iter_mut().for_each(Poly::ntt_in_place);
		// w′Approx = NTT⁻¹(Â ∘ NTT(z) − NTT(c) ∘ NTT(t1·2^d)), then w1′ = UseHint(h, w′Approx).
		let mut w1 = [Poly::default(); K];
		for (row, w1_row) in w1.iter_mut().enumerate() {
			// Seven products below 2^46 and `q² − c·t1` sum below 2^49: reduce once at the end.
			let mut approx = Poly(core::array::from_fn(|i| {
				let mut sum = (Q as u64 * Q as u64) - c_hat.0[i] as u64 * self.t1_hat[row].0[i] as u64;
				for (a, z) in self.matrix.a_hat[row].iter().zip(&z_hat) {
					sum += a.0[i] as u64 * z.0[i] as u64;
				}
				(sum % Q as u64) as u32
			}));
			approx.inverse_ntt_in_place();
			*w1_row = Poly(core::array::from_fn(|i| use_hint(hint[row][i], approx.0[i])));
		}
		let c_tilde_prime: [u8; C_TILDE_BYTES] = h_bytes(&[&mu, &w1_encode(&w1)]);
		c_tilde_prime[..] == c_tilde[..]
	}
}

/// The `ρ` an ML-DSA-87 key starts with.
pub fn rho_of(public: &MlDsa87Public) -> [u8; 32] {
	public.0[..32].try_into().expect("a key starts with its 32-byte ρ")
}

/// What [`AggregateKeyCache::lookup`] found.
pub enum AggregateLookup {
	/// A key cached after a signature verified under it.
	Cached(Arc<AggregateKey>),
	/// A key decoded now with its committee's cached matrix, not yet cached; with the digest
	/// to cache it under ([`AggregateKeyCache::insert_key`]).
	Decoded(AggregateKey, KeyDigest),
}

impl AggregateLookup {
	/// The decoded key, cached or not.
	pub fn key(&self) -> &AggregateKey {
		match self {
			Self::Cached(key) => key,
			Self::Decoded(key, _) => key,
		}
	}
}

/// Limits of an [`AggregateKeyCache`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AggregateCacheLimits {
	/// Committee matrices (57 KiB each).
	pub matrices: CacheLimits,
	/// Decoded aggregate keys (8 KiB each besides their matrix).
	pub keys: CacheLimits,
}

impl AggregateCacheLimits {
	/// At most `max_bytes` for each of matrices and keys; 0 caches nothing.
	pub fn within(max_bytes: usize) -> Self {
		let limits = |entry_bytes: usize| CacheLimits { max_entries: max_bytes / entry_bytes, max_bytes };
		Self { matrices: limits(CommitteeMatrix::BYTES), keys: limits(AggregateKey::BYTES) }
	}
}

/// Counters of an [`AggregateKeyCache`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AggregateCacheStats {
	/// Lookups of a committee's matrix (on every decoded-key miss).
	pub matrices: CacheStats,
	/// Lookups of a decoded aggregate key (one per verification).
	pub keys: CacheStats,
}

/// Committee matrices by `ρ` and decoded aggregate keys by digest, least recently used
/// evicted. A decoded key holds its matrix, so an evicted matrix is freed once its keys are.
///
/// It only ever changes speed: a hit verifies with the same matrix and key a miss would have
/// computed.
pub struct AggregateKeyCache {
	matrices: Lru<[u8; 32], Arc<CommitteeMatrix>>,
	keys: Lru<KeyDigest, Arc<AggregateKey>>,
}

impl AggregateKeyCache {
	/// An empty cache within `limits`.
	pub fn new(limits: AggregateCacheLimits) -> Self {
		Self { matrices: Lru::new(limits.matrices), keys: Lru::new(limits.keys) }
	}

	/// The decoded key of `public` if it is cached or its committee's matrix is (then it is
	/// decoded now, and cached by [`Self::insert_key`] only once a signature verified under
	/// it); `None` if the matrix must be expanded first.
	pub fn lookup(&mut self, public: &MlDsa87Public) -> Option<AggregateLookup> {
		let digest = KeyDigest::of_ml_dsa::<MlDsa87>(public);
		if let Some(key) = self.keys.lookup(&digest) {
			return Some(AggregateLookup::Cached(key));
		}
		let matrix = self.matrices.lookup(&rho_of(public))?;
		let key = AggregateKey::decode(matrix, public).expect("the matrix of the key's own ρ");
		Some(AggregateLookup::Decoded(key, digest))
	}

	/// Holds a decoded key, under which a signature verified, by the digest
	/// [`Self::lookup`] gave with it.
	pub fn insert_key(&mut self, digest: KeyDigest, key: Arc<AggregateKey>) {
		self.keys.insert(digest, key, AggregateKey::BYTES);
	}

	/// Holds an expanded matrix, for the keys of its `ρ`.
	pub fn insert_matrix(&mut self, matrix: Arc<CommitteeMatrix>) {
		self.matrices.insert(matrix.rho, matrix, CommitteeMatrix::BYTES);
	}

	/// Whether a matrix can be held at all (the limits allow one).
	pub fn keeps_matrices(&self) -> bool {
		let limits = self.matrices.limits();
		limits.max_entries > 0 && limits.max_bytes >= CommitteeMatrix::BYTES
	}

	/// Hit, miss and eviction counters of matrices and keys.
	pub fn stats(&self) -> AggregateCacheStats {
		AggregateCacheStats { matrices: self.matrices.stats(), keys: self.keys.stats() }
	}

	/// Matrices and decoded keys held now.
	pub fn occupancy(&self) -> (usize, usize) {
		(self.matrices.len(), self.keys.len())
	}
}

#[cfg(test)]
mod tests {
	use super::*;

	#[test]
	fn a_matrix_decodes_only_keys_of_its_own_rho() {
		let matrix = Arc::new(CommitteeMatrix::expand(&[1; 32]));
		let mut key = [0u8; 2592];
		key[..32].copy_from_slice(&[1; 32]);
		assert!(AggregateKey::decode(matrix.clone(), &MlDsa87Public(key)).is_some());
		key[0] = 2;
		assert!(AggregateKey::decode(matrix, &MlDsa87Public(key)).is_none());
	}
}
