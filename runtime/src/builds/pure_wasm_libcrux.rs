//! The benchmarks' pure-Wasm build with libcrux (`pure-wasm-libcrux`, built only with
//! `PQ_PURE_WASM_LIBCRUX`): measured against our verifier in Wasm; its blob is no chain's
//! runtime.

use crate::{Runtime, RuntimeVersion};

/// `libcrux-ml-dsa` compiled into the runtime (`docs/benchmarks.md`).
pub type VerifierBackend = pq_crypto::backend::Libcrux;

/// The pure-Wasm build's weights (our verifier's): this blob is measured, not charged.
pub type PqVerifierWeights = pallet_pq_verifier::weights::SubstrateWeight<Runtime>;

/// As the pure-Wasm build.
pub const KEY_CACHE_BYTES: u32 = 4 << 20;

/// The pure-Wasm build's import costs: this blob is measured, not charged, and its import path
/// is the pure-Wasm build's but for the backend.
pub const IMPORT_COSTS: crate::weights::ImportCosts = crate::weights::block_import::PURE_WASM;

runtime_version!("pq-runtime-pure-wasm-libcrux", 132);
