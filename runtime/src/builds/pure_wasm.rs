//! The pure-Wasm build (`pure-wasm-verifier`, `--chain dev-pure-wasm`): our verifier compiled
//! into the runtime, for nodes without this project's host functions — a parachain's
//! validators, `polkadot-omni-node`, chopsticks.

use crate::{Runtime, RuntimeVersion};

/// The backend verifying every signature: our own FIPS 204 verifier compiled into the runtime
/// (portable arithmetic), so the runtime runs on stock nodes. Its decoded keys hold `Â`,
/// `NTT(t1·2^d)` and `tr`, so a key seen earlier in the same block (the pallet's in-block
/// cache) skips most of a verification (`docs/benchmarks.md`).
pub type VerifierBackend = pq_crypto::backend::Fips204;

/// Weights of `pallet-pq-verifier` for our verifier in Wasm: the pallet's own, generated on
/// this build of the runtime by `scripts/generate-weights.sh`.
pub type PqVerifierWeights = pallet_pq_verifier::weights::SubstrateWeight<Runtime>;

/// Bytes of decoded keys the pallet keeps within one runtime call. A key seen earlier in the
/// block skips `ExpandA`, the NTTs of `t1` and `tr`: 4 MiB holds 63 decoded ML-DSA-87 keys
/// (64 KiB each) or 204 ML-DSA-44 keys (20 KiB).
pub const KEY_CACHE_BYTES: u32 = 4 << 20;

/// What this build's blocks cost to import beyond the benchmarks of their parts, measured over
/// whole blocks by `benchmarking/charge-check.sh --calibrate`.
pub const IMPORT_COSTS: crate::weights::ImportCosts = crate::weights::block_import::PURE_WASM;

runtime_version!("pq-runtime-pure-wasm", 131);
