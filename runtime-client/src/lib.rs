//! # pq-runtime-client
//!
//! This repository's harness for its own runtime, `pq-runtime` — not a client for other
//! runtimes (that is `pq-client`, on subxt):
//!
//! - [`genesis`]: a genesis preset merged over the default configuration, as a chain
//!   specification does;
//! - [`transactions`]: builds and signs every transaction form with the runtime's own types
//!   (signing through [`pq_client::sender`], as `pq-client` does), so the tests, the throughput
//!   and charge benchmarks and the reference vectors sign exactly what the runtime decodes;
//! - [`inclusion`]: submits one and follows it into a final block, with its events and fee;
//! - [`rpc`]: a thin JSON-RPC connection whose answers decode with the runtime's types, for
//!   harnesses submitting thousands of pre-signed transactions;
//! - [`node_process`] (feature `node-process`): a `pq-node` on loopback ports it picks itself.

pub mod genesis;
pub mod inclusion;
pub mod rpc;
pub mod transactions;

#[cfg(feature = "node-process")]
pub mod node_process;
