//! Weights generated on this runtime by `scripts/generate-weights.sh`.

pub mod frame_system;
pub mod frame_system_extensions;
pub mod pallet_balances;
pub mod pallet_pq_verifier;
pub mod pallet_sudo;
pub mod pallet_timestamp;
pub mod pallet_transaction_payment;
pub mod paritydb_weights;
