//! Block-level throughput: every scheme and transaction form on a real `pq-node` (manual seal,
//! so the harness decides when a block is made), each figure beside Ed25519 of the same run.
//! See `docs/throughput.md`.

pub mod measure;
pub mod report;
pub mod workload;
