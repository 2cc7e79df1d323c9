//! Weights generated on this runtime by `scripts/generate-weights.sh`. The verifier pallet's
//! depend on the build: `pallet_pq_verifier.rs` is the host-function build's
//! (`builds/host_functions.rs`), the pure-Wasm build's are the pallet's own.

pub mod frame_system;
pub mod frame_system_extensions;
pub mod pallet_balances;
pub mod pallet_sudo;
pub mod pallet_timestamp;
pub mod pallet_transaction_payment;
pub mod paritydb_weights;
