//! ML-DSA-87's parameters (FIPS 204 Table 1) and the vector arithmetic committee logic and
//! signing need, over the ring of [`fips204::ring`].

pub use fips204::ring::{centered, power2round, reduce, Poly, PolyVec, D, N, Q};
use fips204::{Matrix, MlDsa87, ParameterSet};

/// Rows of `A` (`k`).
pub const K: usize = <MlDsa87 as ParameterSet>::K;
/// Columns of `A` (`ℓ`).
pub const L: usize = <MlDsa87 as ParameterSet>::L;
/// Low-order rounding range `γ2 = (q − 1)/32`.
pub const GAMMA2: u32 = <MlDsa87 as ParameterSet>::PARAMETERS.gamma2;
/// Coefficient range of the mask `y` in FIPS 204 signing (`γ1 = 2^19`).
pub const GAMMA1: u32 = <MlDsa87 as ParameterSet>::PARAMETERS.gamma1;
/// Private key range (`η`).
pub const ETA: u32 = <MlDsa87 as ParameterSet>::PARAMETERS.eta;
/// `β = τ·η`.
pub const BETA: u32 = <MlDsa87 as ParameterSet>::PARAMETERS.beta();
/// Most hint bits a signature may carry (`ω`).
pub const OMEGA: usize = <MlDsa87 as ParameterSet>::PARAMETERS.omega;

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
