//! The default build: verification through the node's host functions.

use crate::{Runtime, RuntimeVersion};

/// The backend verifying every signature: the node's host functions (natively, with its
/// cross-block decoded-key cache), the fastest measured (see `docs/benchmarks.md`). Such a
/// runtime runs only on nodes that provide them.
pub type VerifierBackend = pq_crypto::host::Host;

/// The verifier pallet's weights of this build, generated beside the runtime's other weights.
#[path = "../weights/pallet_pq_verifier.rs"]
mod weights;

/// Weights of `pallet-pq-verifier` for the host-function backend, generated on this runtime by
/// `scripts/generate-weights.sh`.
pub type PqVerifierWeights = weights::SubstrateWeight<Runtime>;

/// Bytes of decoded keys the pallet keeps within one runtime call: none, as the node decodes
/// and caches keys across blocks and the runtime holds only encoded keys.
pub const KEY_CACHE_BYTES: u32 = 0;

/// What this build's blocks cost to import beyond the benchmarks of their parts, measured over
/// whole blocks by `benchmarking/charge-check.sh --calibrate`.
pub const IMPORT_COSTS: crate::weights::ImportCosts = crate::weights::block_import::HOST_FUNCTIONS;

runtime_version!("pq-runtime", 130);
