//! The ring arithmetic only signing needs, for ML-DSA-87.

use fips204::Matrix;
use pq_crypto::aggregate::ring::{Poly, PolyVec, K, L};

/// `NTT⁻¹(Â ∘ v̂)`: the matrix–vector product of Algorithm 48, with `v̂` in the NTT domain.
pub fn matrix_times(a_hat: &Matrix, v_hat: &PolyVec<L>) -> PolyVec<K> {
	core::array::from_fn(|row| {
		let mut sum = Poly::default();
		for (a, v) in a_hat.row(row).iter().zip(v_hat) {
			sum = sum.add(&a.pointwise(v));
		}
		sum.inverse_ntt()
	})
}

/// `NTT⁻¹(ĉ ∘ v̂)` for every polynomial of `v̂`.
pub fn scale<const M: usize>(c_hat: &Poly, v_hat: &PolyVec<M>) -> PolyVec<M> {
	core::array::from_fn(|i| c_hat.pointwise(&v_hat[i]).inverse_ntt())
}
