//! Weights generated on this runtime by `scripts/generate-weights.sh`. The verifier pallet's
//! depend on the build: `pallet_pq_verifier.rs` is the host-function build's
//! (`builds/host_functions.rs`), the pure-Wasm build's are the pallet's own.

pub mod block_import;
pub mod frame_system;
pub mod frame_system_extensions;
pub mod pallet_balances;
pub mod pallet_sudo;
pub mod pallet_timestamp;
pub mod pallet_transaction_payment;
pub mod paritydb_weights;

use polkadot_sdk::{
	frame_support::weights::Weight, frame_system as system, pallet_transaction_payment as payment,
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

/// The transaction extensions' weights (`frame_system`'s and the payment pallet's): no time of
/// their own, because their time is in the base extrinsic weight. Every signed transaction runs
/// all of them, and the base is measured over whole blocks of signed remarks
/// ([`ImportCosts::signed_remark`]), so their isolated benchmarks' times would charge their work
/// twice: they summed to 155 µs here, against 162 µs for a whole signed remark's import on a
/// small state (`docs/benchmarking.md`). Their benchmarked proof sizes stay: the base measures
/// time, not the storage a parachain's validators must be sent.
pub struct InExtrinsicBase;

/// `weight`'s proof size and no time.
fn proof_only(weight: Weight) -> Weight {
	Weight::from_parts(0, weight.proof_size())
}

type ExtensionsBenchmarks = frame_system_extensions::SubstrateWeight<crate::Runtime>;
type PaymentBenchmarks = pallet_transaction_payment::SubstrateWeight<crate::Runtime>;

impl system::ExtensionsWeightInfo for InExtrinsicBase {
	fn check_genesis() -> Weight {
		proof_only(ExtensionsBenchmarks::check_genesis())
	}
	fn check_mortality_mortal_transaction() -> Weight {
		proof_only(ExtensionsBenchmarks::check_mortality_mortal_transaction())
	}
	fn check_mortality_immortal_transaction() -> Weight {
		proof_only(ExtensionsBenchmarks::check_mortality_immortal_transaction())
	}
	fn check_non_zero_sender() -> Weight {
		proof_only(ExtensionsBenchmarks::check_non_zero_sender())
	}
	fn check_nonce() -> Weight {
		proof_only(ExtensionsBenchmarks::check_nonce())
	}
	fn check_spec_version() -> Weight {
		proof_only(ExtensionsBenchmarks::check_spec_version())
	}
	fn check_tx_version() -> Weight {
		proof_only(ExtensionsBenchmarks::check_tx_version())
	}
	fn check_weight() -> Weight {
		proof_only(ExtensionsBenchmarks::check_weight())
	}
	fn weight_reclaim() -> Weight {
		proof_only(ExtensionsBenchmarks::weight_reclaim())
	}
}

impl payment::WeightInfo for InExtrinsicBase {
	fn charge_transaction_payment() -> Weight {
		proof_only(PaymentBenchmarks::charge_transaction_payment())
	}
}
