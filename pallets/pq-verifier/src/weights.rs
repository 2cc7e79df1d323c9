//! Weights for `pallet-pq-verifier` (generation pending; see `WeightInfo`).

use polkadot_sdk::frame_support::weights::Weight;

/// Weight functions of `pallet-pq-verifier`: one per call and one per form and scheme of the
/// transaction extension, each charging storage read + key decode + verify.
pub trait WeightInfo {
	/// [`crate::Authorization::None`] on a signed origin: the classical-refusal read.
	fn authorize_none() -> Weight;
	/// Key-inline Ed25519: the classical-refusal read, decode, verify.
	fn authorize_inline_ed25519() -> Weight;
	/// Key-inline ML-DSA-44: decode + verify.
	fn authorize_inline_ml_dsa_44() -> Weight;
	/// Key-inline ML-DSA-65: decode + verify.
	fn authorize_inline_ml_dsa_65() -> Weight;
	/// Key-inline ML-DSA-87: decode + verify.
	fn authorize_inline_ml_dsa_87() -> Weight;
	/// Registered ML-DSA-44: registry read, decode + verify.
	fn authorize_registered_ml_dsa_44() -> Weight;
	/// Registered ML-DSA-65: registry read, decode + verify.
	fn authorize_registered_ml_dsa_65() -> Weight;
	/// Registered ML-DSA-87: registry read, decode + verify.
	fn authorize_registered_ml_dsa_87() -> Weight;
	/// `register_key` for the key's derived account.
	fn register_key() -> Weight;
	/// `register_key` with a proof of possession (migration).
	fn migrate_key() -> Weight;
	/// `remove_key`.
	fn remove_key() -> Weight;
	/// `set_refuse_classical`.
	fn set_refuse_classical() -> Weight;
}

/// For tests: no weight.
impl WeightInfo for () {
	fn authorize_none() -> Weight { Weight::zero() }
	fn authorize_inline_ed25519() -> Weight { Weight::zero() }
	fn authorize_inline_ml_dsa_44() -> Weight { Weight::zero() }
	fn authorize_inline_ml_dsa_65() -> Weight { Weight::zero() }
	fn authorize_inline_ml_dsa_87() -> Weight { Weight::zero() }
	fn authorize_registered_ml_dsa_44() -> Weight { Weight::zero() }
	fn authorize_registered_ml_dsa_65() -> Weight { Weight::zero() }
	fn authorize_registered_ml_dsa_87() -> Weight { Weight::zero() }
	fn register_key() -> Weight { Weight::zero() }
	fn migrate_key() -> Weight { Weight::zero() }
	fn remove_key() -> Weight { Weight::zero() }
	fn set_refuse_classical() -> Weight { Weight::zero() }
}
