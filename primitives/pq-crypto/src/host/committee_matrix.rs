//! Verifying aggregate signatures with `Â = ExpandA(ρ)` computed once per committee.
//!
//! Every aggregate key `pk*` of a committee carries the committee's `ρ`, so every signer set
//! shares one matrix `Â`, the largest part of decoding an ML-DSA-87 key (56 polynomials
//! rejection-sampled from SHAKE128). The backends' decoders cannot take a precomputed matrix,
//! so this module verifies on its own:
//!
//! - [`CommitteeMatrix`]: `Â` of one `ρ` (FIPS 204 Algorithm 32), expanded once;
//! - [`AggregateKey`]: a decoded `pk*` — the shared matrix, `NTT(t1·2^d)` and `tr` — which
//!   verifies with Algorithm 8 like any key of [`fips204`], the one verifier;
//! - the node keeps matrices by `ρ` and decoded keys by digest ([`AggregateKeyId`]) in its
//!   [`NodeCache`](super::node_cache::NodeCache), under the budget of all its caches.
//!
//! With `Â` expanded (by AVX2 where the CPU has it) a committee key decodes in a fraction of a
//! verification, and expanding `Â` costs less than libcrux's whole decode+verify; the node
//! expands a committee's matrix on its first signature ([`crate::host`]) and weights charge
//! that path, expansion included (`docs/aggregate.md` has the figures).
//!
//! Verification is a consensus decision, so this verifier must agree with the backends on
//! every input: the NIST ACVP and Wycheproof ML-DSA-87 vectors run against it, and random
//! aggregate signatures (and their bit flips) are compared with libcrux.

use crate::{keys::MlDsa87Public, params::MlDsa87, verify::KeyDigest};
use alloc::sync::Arc;
use fips204::{Matrix, VerifyingKey};

/// `Â = ExpandA(ρ)` of one committee ([`Matrix::expand`] at ML-DSA-87).
pub type CommitteeMatrix = Matrix;

/// A decoded aggregate key `pk*`: its committee's matrix, `NTT(t1·2^d)` and `tr = H(pk*, 64)`
/// ([`VerifyingKey::decode_with`] the committee's matrix).
pub type AggregateKey = VerifyingKey<MlDsa87>;

/// Bytes one committee matrix occupies.
pub(crate) const MATRIX_BYTES: usize = Matrix::bytes::<MlDsa87>();

/// The `ρ` an ML-DSA-87 key starts with.
pub fn rho_of(public: &MlDsa87Public) -> [u8; 32] {
	public.0[..32].try_into().expect("a key starts with its 32-byte ρ")
}

/// What the cache files an aggregate key under: its digest and its `ρ`. Computed before
/// taking the cache's lock, since hashing a 2.6 KB key would hold every other committee's
/// verification up for microseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AggregateKeyId {
	pub(crate) digest: KeyDigest,
	pub(crate) rho: [u8; 32],
}

impl AggregateKeyId {
	/// The digest and `ρ` of `public`.
	pub fn of(public: &MlDsa87Public) -> Self {
		Self { digest: KeyDigest::of_ml_dsa::<MlDsa87>(public), rho: rho_of(public) }
	}
}

/// What [`NodeCache::lookup_aggregate`](super::node_cache::NodeCache::lookup_aggregate) found.
pub enum AggregateLookup {
	/// A key cached after a signature verified under it.
	Cached(Arc<AggregateKey>),
	/// No cached key; its committee's matrix if that is cached.
	Uncached(Option<Arc<CommitteeMatrix>>),
}
