//! What a throughput run sends: for each case (scheme and transaction form), transfers from
//! many distinct accounts plus a few repeat senders, and a chain specification that endows
//! them all.

use anyhow::{anyhow, Context};
use codec::Encode;
use polkadot_sdk::{sp_core::crypto::Ss58Codec, sp_crypto_hashing::blake2_256};
use pq_crypto::{signing::Keypair, Scheme};
use pq_runtime::{transactions::Form, UNIT};
use std::{path::Path, process::Command};

/// Which build of pq-runtime verifies the signatures: which chain the node runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Verifier {
	/// Through the node's host functions (`--chain dev`).
	HostFunctions,
	/// Inside the runtime, libcrux compiled to Wasm (`--chain dev-pure-wasm`).
	PureWasm,
}

impl Verifier {
	/// The chain of the dev node that runs this build.
	pub fn chain(self) -> &'static str {
		match self {
			Verifier::HostFunctions => "dev",
			Verifier::PureWasm => "dev-pure-wasm",
		}
	}

	/// As the report labels it.
	pub fn label(self) -> &'static str {
		match self {
			Verifier::HostFunctions => "host functions",
			Verifier::PureWasm => "pure Wasm",
		}
	}
}

/// One row of the report: a runtime build, a scheme and how its transactions prove their
/// sender.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Case {
	/// The runtime build that verifies.
	pub verifier: Verifier,
	/// The signature scheme of every sender.
	pub scheme: Scheme,
	/// Signed extrinsic, key inline, or registered key.
	pub form: Form,
}

impl Case {
	/// `ML-DSA-65 registered`, as the report labels it.
	pub fn label(&self) -> String {
		let form = match self.form {
			Form::Signed => "signed",
			Form::KeyInline => "key inline",
			Form::KeyRegistered => "registered",
		};
		format!("{} {form}", self.scheme.name())
	}

	/// The label with the runtime build: `ml-dsa-65 registered, pure Wasm`.
	pub fn title(&self) -> String {
		format!("{}, {}", self.label(), self.verifier.label())
	}

	/// The Ed25519 case this one is compared with: the same form where Ed25519 has it, verified
	/// through host functions, as a stock Substrate runtime verifies Ed25519.
	pub fn baseline(&self) -> Case {
		let form = if self.form == Form::KeyRegistered { Form::Signed } else { self.form };
		Case { verifier: Verifier::HostFunctions, scheme: Scheme::Ed25519, form }
	}
}

/// Every case of each of `verifiers`, Ed25519 first. Ed25519 keys are accounts and are never
/// registered. The baselines of every ratio (Ed25519 through host functions) are always
/// included.
pub fn all_cases(verifiers: &[Verifier]) -> Vec<Case> {
	let mut cases = Vec::new();
	let mut verifiers = verifiers.to_vec();
	if !verifiers.contains(&Verifier::HostFunctions) {
		verifiers.insert(0, Verifier::HostFunctions);
	}
	for verifier in verifiers {
		let ed25519 = [Form::Signed, Form::KeyInline].map(|form| Case { verifier, scheme: Scheme::Ed25519, form });
		cases.extend(ed25519);
		for scheme in [Scheme::MlDsa44, Scheme::MlDsa65, Scheme::MlDsa87] {
			for form in [Form::Signed, Form::KeyInline, Form::KeyRegistered] {
				cases.push(Case { verifier, scheme, form });
			}
		}
	}
	cases
}

/// Transactions each repeat sender sends: enough that its decoded key is reused in a block.
pub const REPEATS: usize = 8;

/// The senders of a run and the order of their transfers.
pub struct Workload {
	/// Every sender's key.
	pub senders: Vec<Keypair>,
	/// For each transfer, in submission order: the sender's index and the nonce to use.
	pub transfers: Vec<(usize, u32)>,
}

/// `transactions` transfers of `scheme`: half from one-off senders, half from repeat senders
/// sending [`REPEATS`] each, interleaved as a pool would see them.
pub fn workload(scheme: Scheme, transactions: usize, first_nonce: u32) -> anyhow::Result<Workload> {
	let repeat_senders = transactions / 2 / REPEATS;
	let one_off = transactions - repeat_senders * REPEATS;
	let senders = (0..one_off + repeat_senders)
		.map(|index| {
			let seed = blake2_256(&("pq-throughput", scheme.name(), index as u32).encode());
			Keypair::from_seed(scheme, &seed).map_err(|error| anyhow!("{error:?}"))
		})
		.collect::<anyhow::Result<Vec<_>>>()?;
	let mut transfers: Vec<(usize, u32)> = (0..one_off).map(|sender| (sender, first_nonce)).collect();
	for round in 0..REPEATS as u32 {
		for sender in one_off..one_off + repeat_senders {
			// Spread each repeat sender's transactions through the submission order.
			let position = (transfers.len() * (round as usize + 1)) / (REPEATS + 1);
			transfers.insert(position.min(transfers.len()), (sender, first_nonce + round));
		}
	}
	Ok(Workload { senders, transfers })
}

/// Writes a chain specification: the dev chain's of `verifier`, with every sender endowed.
pub fn write_chain_spec(node: &Path, verifier: Verifier, senders: &[Keypair], path: &Path) -> anyhow::Result<()> {
	let output =
		Command::new(node).args(["build-spec", "--chain", verifier.chain()]).output().context("pq-node build-spec")?;
	anyhow::ensure!(output.status.success(), "pq-node build-spec failed: {}", String::from_utf8_lossy(&output.stderr));
	let mut spec: serde_json::Value = serde_json::from_slice(&output.stdout).context("build-spec output")?;
	let balances = spec["genesis"]["runtimeGenesis"]["patch"]["balances"]["balances"]
		.as_array_mut()
		.ok_or_else(|| anyhow!("the dev chain spec has no balances patch"))?;
	for sender in senders {
		balances.push(serde_json::json!([sender.account_id().to_ss58check(), 1_000 * UNIT]));
	}
	std::fs::write(path, serde_json::to_vec(&spec)?)?;
	Ok(())
}
