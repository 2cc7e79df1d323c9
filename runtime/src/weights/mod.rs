//! Weights generated on this runtime by `scripts/generate-weights.sh`.

pub mod pallet_pq_verifier;
