//! # pq-client
//!
//! Everything a program needs to use a pq-runtime chain from outside:
//!
//! - [`transactions`]: builds and signs every transaction form exactly as the runtime verifies
//!   it, from a [`transactions::ChainIdentity`] read from the chain;
//! - [`rpc`]: a JSON-RPC (WebSocket) connection to a node, its answers decoded with the
//!   runtime's types, and refusals named ([`rpc::Refusal`]);
//! - [`node_process`] (feature `node-process`): a `pq-node` on loopback ports it picks itself, for tests
//!   and benchmarks.
//!
//! It depends on `pq-runtime` for the runtime's types (calls, events, extensions) only, without
//! the runtime's Wasm blobs, so a client builds no Wasm: the types are the runtime's own, so
//! the bytes a client signs cannot drift from what the runtime decodes.

pub mod rpc;
pub mod transactions;

#[cfg(feature = "node-process")]
pub mod node_process;
