//! ML-DSA-87's parameters (FIPS 204 Table 1) and the ring of [`fips204::ring`], for committee
//! logic and the signer.

pub use fips204::ring::{centered, power2round, reduce, Poly, PolyVec, D, N, Q};
use fips204::{MlDsa87, ParameterSet};

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
