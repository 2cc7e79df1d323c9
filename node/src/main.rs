//! `pq-node`: a dev node for pq-runtime, whose transactions are signed with Ed25519 or
//! ML-DSA-44/65/87. See `docs/running.md`.

#![allow(
	clippy::result_large_err,
	reason = "`sc_cli::Error` (176 bytes) is polkadot-sdk's error of every node command"
)]

mod chain_spec;
mod cli;
mod command;
mod executing_code;
mod key_cache_metrics;
mod rpc;
mod service;

fn main() -> polkadot_sdk::sc_cli::Result<()> {
	command::run()
}
