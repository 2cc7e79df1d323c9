//! Weights generated on this runtime by `scripts/generate-weights.sh`. The verifier pallet's
//! depend on the build: `pallet_pq_verifier.rs` is the host-function build's
//! (`builds/host_functions.rs`), the pure-Wasm build's are the pallet's own.

pub mod block_import;
pub mod frame_system;
pub mod pallet_balances;
pub mod pallet_sudo;
pub mod pallet_timestamp;
pub mod paritydb_weights;

use polkadot_sdk::{
	frame_support::weights::Weight, frame_system as system, pallet_transaction_payment,
};

/// What a build's blocks cost to import beyond the benchmarks of their parts, measured over
/// whole blocks (`block_import.rs`).
pub struct ImportCosts {
	/// Import time of an Ed25519-signed empty `System::remark`, everything included: decoding,
	/// the signature check, every transaction extension, dispatch, and its share of the block.
	pub signed_remark: Weight,
	/// What each encoded byte of an extrinsic adds to its import.
	pub per_extrinsic_byte: Weight,
}

/// The transaction extensions' weights (`frame_system`'s and the payment pallet's): nothing of
/// their own, because they are in the base extrinsic weight. Every signed transaction runs all
/// of them, and the base is measured over whole blocks of signed remarks
/// ([`ImportCosts::signed_remark`]), so benchmarking them on their own as well would charge
/// their work twice: FRAME's isolated benchmarks of them summed to 155 µs here, against 162 µs
/// for a whole signed remark's import (`docs/benchmarking.md`).
pub struct InExtrinsicBase;

impl system::ExtensionsWeightInfo for InExtrinsicBase {
	fn check_genesis() -> Weight {
		Weight::zero()
	}
	fn check_mortality_mortal_transaction() -> Weight {
		Weight::zero()
	}
	fn check_mortality_immortal_transaction() -> Weight {
		Weight::zero()
	}
	fn check_non_zero_sender() -> Weight {
		Weight::zero()
	}
	fn check_nonce() -> Weight {
		Weight::zero()
	}
	fn check_spec_version() -> Weight {
		Weight::zero()
	}
	fn check_tx_version() -> Weight {
		Weight::zero()
	}
	fn check_weight() -> Weight {
		Weight::zero()
	}
	fn weight_reclaim() -> Weight {
		Weight::zero()
	}
}

impl pallet_transaction_payment::WeightInfo for InExtrinsicBase {
	fn charge_transaction_payment() -> Weight {
		Weight::zero()
	}
}
