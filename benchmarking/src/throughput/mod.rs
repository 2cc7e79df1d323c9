//! Block-level throughput: every scheme and transaction form on a real `pq-node` (manual seal,
//! so the harness decides when a block is made), each figure beside Ed25519 of the same run
//! (`docs/throughput.md`); and on a network of validators at real block times (`network`,
//! `docs/network.md`).

pub mod measure;
pub mod network;
pub mod report;
pub mod workload;
