//! What a throughput run sends: for each case (scheme and transaction form), transfers from
//! many distinct accounts plus a few repeat senders — or, for aggregate ML-DSA-87, from a few
//! committees with ever-changing signer sets — and a chain specification that endows them all.

use anyhow::{anyhow, Context};
use codec::Encode;
use polkadot_sdk::sp_runtime::AccountId32;
use polkadot_sdk::{sp_core::crypto::Ss58Codec, sp_crypto_hashing::blake2_256};
use pq_crypto::{aggregate::SignerBitfield, Scheme};
use pq_runtime::UNIT;
use pq_runtime_client::transactions::Form;
use pq_signer::{aggregator::Committee, signing::Keypair};
use std::{path::Path, process::Command};

/// Which build of pq-runtime verifies the signatures: which chain the node runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Verifier {
	/// Through the node's host functions (`--chain dev`).
	HostFunctions,
	/// Inside the runtime, our verifier compiled to Wasm (`--chain dev-pure-wasm`).
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
	/// Key inline, registered key, or committee.
	pub form: Form,
}

impl Case {
	/// `ML-DSA-65 registered`, as the report labels it.
	pub fn label(&self) -> String {
		if self.form == Form::Committee {
			return format!("{} committee of {COMMITTEE_SIZE}", self.scheme.name());
		}
		format!("{} {}", self.scheme.name(), self.form.label())
	}

	/// The label with the runtime build: `ml-dsa-65 registered, pure Wasm`.
	pub fn title(&self) -> String {
		format!("{}, {}", self.label(), self.verifier.label())
	}

	/// The Ed25519 case this one is compared with: an Ed25519 transfer verified through host
	/// functions, as a stock Substrate runtime verifies Ed25519.
	pub fn baseline(&self) -> Case {
		Case { verifier: Verifier::HostFunctions, scheme: Scheme::Ed25519, form: Form::KeyInline }
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
		cases.push(Case { verifier, scheme: Scheme::Ed25519, form: Form::KeyInline });
		for scheme in Scheme::ML_DSA {
			for form in [Form::KeyInline, Form::KeyRegistered] {
				cases.push(Case { verifier, scheme, form });
			}
		}
		cases.push(Case { verifier, scheme: Scheme::AggregateMlDsa87, form: Form::Committee });
	}
	cases
}

/// Transactions each repeat sender sends: enough that its decoded key is reused in a block.
pub const REPEATS: usize = 8;

/// Members of each committee of an aggregate case.
pub const COMMITTEE_SIZE: u32 = 16;
/// Fewest signers of those committees.
pub const COMMITTEE_THRESHOLD: u32 = 9;
/// Transfers each committee sends.
pub const TRANSFERS_PER_COMMITTEE: usize = 64;

/// The senders of a run and the order of their transfers.
pub enum Workload {
	/// Transfers from keys.
	Keys {
		/// Every sender's key.
		senders: Vec<Keypair>,
		/// For each transfer, in submission order: the sender's index and the nonce to use.
		transfers: Vec<(usize, u32)>,
	},
	/// Transfers from committee accounts, each signed by one signer set.
	Committees {
		/// Each committee's creator, who holds its deposit.
		owners: Vec<Keypair>,
		/// Every committee, with all members' secrets.
		committees: Vec<Committee>,
		/// For each transfer, in submission order: the committee's index, the nonce, and who signs.
		transfers: Vec<(usize, u32, SignerBitfield)>,
	},
}

impl Workload {
	/// `transactions` transfers of `scheme`.
	pub fn new(scheme: Scheme, transactions: usize, first_nonce: u32) -> anyhow::Result<Self> {
		if scheme == Scheme::AggregateMlDsa87 {
			Ok(committees(transactions))
		} else {
			keys(scheme, transactions, first_nonce)
		}
	}

	/// Every account the chain specification must endow.
	pub fn accounts(&self) -> Vec<AccountId32> {
		match self {
			Workload::Keys { senders, .. } => senders.iter().map(Keypair::account_id).collect(),
			Workload::Committees { owners, committees, .. } => owners
				.iter()
				.map(Keypair::account_id)
				.chain(committees.iter().map(|committee| committee.id().account_id()))
				.collect(),
		}
	}

	/// Number of transfers.
	pub fn len(&self) -> usize {
		match self {
			Workload::Keys { transfers, .. } => transfers.len(),
			Workload::Committees { transfers, .. } => transfers.len(),
		}
	}

	/// Whether there are no transfers.
	pub fn is_empty(&self) -> bool {
		self.len() == 0
	}
}

/// `transactions` transfers of `scheme`: half from one-off senders, half from repeat senders
/// sending [`REPEATS`] each, interleaved as a pool would see them.
fn keys(scheme: Scheme, transactions: usize, first_nonce: u32) -> anyhow::Result<Workload> {
	let repeat_senders = transactions / 2 / REPEATS;
	let one_off = transactions - repeat_senders * REPEATS;
	let senders = (0..one_off + repeat_senders)
		.map(|index| {
			let seed = blake2_256(&("pq-throughput", scheme.name(), index as u32).encode());
			Keypair::from_seed(scheme, &seed).map_err(|error| anyhow!("{error:?}"))
		})
		.collect::<anyhow::Result<Vec<_>>>()?;
	let mut transfers: Vec<(usize, u32)> =
		(0..one_off).map(|sender| (sender, first_nonce)).collect();
	for round in 0..REPEATS as u32 {
		for sender in one_off..one_off + repeat_senders {
			// Spread each repeat sender's transactions through the submission order.
			let position = (transfers.len() * (round as usize + 1)) / (REPEATS + 1);
			transfers.insert(position.min(transfers.len()), (sender, first_nonce + round));
		}
	}
	Ok(Workload::Keys { senders, transfers })
}

/// `transactions` transfers from committees of [`COMMITTEE_SIZE`], each sending
/// [`TRANSFERS_PER_COMMITTEE`], round robin. Every other transfer of a committee is signed by
/// all members (the same `pk*` again: a decoded-key cache hit); the others by a different
/// signer set of at least the threshold, almost always a new one (a fresh `pk*` to derive and
/// decode).
fn committees(transactions: usize) -> Workload {
	let count = transactions.div_ceil(TRANSFERS_PER_COMMITTEE).max(1);
	let seed = |index: usize, role: &str| {
		blake2_256(&("pq-throughput", "committee", role, index as u32).encode())
	};
	let owners: Vec<Keypair> = (0..count)
		.map(|index| {
			// Post-quantum, as committee owners must be.
			Keypair::from_seed(Scheme::MlDsa44, &seed(index, "owner")).expect("ML-DSA from a seed")
		})
		.collect();
	let committees: Vec<Committee> = (0..count)
		.map(|index| {
			Committee::from_seed(&seed(index, "members"), COMMITTEE_SIZE, COMMITTEE_THRESHOLD)
		})
		.collect();
	let everyone = SignerBitfield::new(COMMITTEE_SIZE, 0..COMMITTEE_SIZE).expect("members");
	let transfers = (0..transactions)
		.map(|position| {
			let (committee, nonce) = (position % count, (position / count) as u32);
			let signers = if nonce % 2 == 0 {
				everyone.clone()
			} else {
				// A pseudo-random set, topped up to the threshold from member 0 on.
				let bits = u16::from_le_bytes(
					seed(position, "signers")[..2].try_into().expect("2 of 32 bytes"),
				);
				let mut members: Vec<u32> =
					(0..COMMITTEE_SIZE).filter(|member| bits >> member & 1 == 1).collect();
				for member in 0..COMMITTEE_SIZE {
					if members.len() as u32 >= COMMITTEE_THRESHOLD {
						break;
					}
					if !members.contains(&member) {
						members.push(member);
					}
				}
				SignerBitfield::new(COMMITTEE_SIZE, members).expect("members")
			};
			(committee, nonce, signers)
		})
		.collect();
	Workload::Committees { owners, committees, transfers }
}

/// Writes a chain specification: the dev chain's of `verifier`, with `accounts` endowed, and
/// `filler` more accounts whose ids derive from their index (no one holds their keys): a busy
/// chain's state, the database `scripts/generate-weights.sh` measures
/// (`benchmarking/storage-state.py`), so a read walks a trie of that depth.
pub fn write_chain_spec(
	node: &Path,
	verifier: Verifier,
	accounts: &[AccountId32],
	filler: u32,
	path: &Path,
) -> anyhow::Result<()> {
	let output = Command::new(node)
		.args(["build-spec", "--chain", verifier.chain()])
		.output()
		.context("pq-node build-spec")?;
	anyhow::ensure!(
		output.status.success(),
		"pq-node build-spec failed: {}",
		String::from_utf8_lossy(&output.stderr)
	);
	let mut spec: serde_json::Value =
		serde_json::from_slice(&output.stdout).context("build-spec output")?;
	let balances = spec["genesis"]["runtimeGenesis"]["patch"]["balances"]["balances"]
		.as_array_mut()
		.ok_or_else(|| anyhow!("the dev chain spec has no balances patch"))?;
	for account in accounts {
		balances.push(serde_json::json!([account.to_ss58check(), 1_000 * UNIT]));
	}
	for index in 0..filler {
		let account = AccountId32::new(blake2_256(&("pq-filler", index).encode()));
		balances.push(serde_json::json!([account.to_ss58check(), UNIT]));
	}
	std::fs::write(path, serde_json::to_vec(&spec)?)?;
	Ok(())
}

#[cfg(test)]
mod tests {
	use super::*;

	#[test]
	fn committee_transfers_use_consecutive_nonces_and_signer_sets_of_at_least_the_threshold() {
		let Workload::Committees { owners, committees, transfers } =
			Workload::new(Scheme::AggregateMlDsa87, 130, 0).unwrap()
		else {
			panic!("an aggregate case sends from committees")
		};
		assert_eq!((owners.len(), committees.len(), transfers.len()), (3, 3, 130));
		for committee in 0..3 {
			let nonces: Vec<u32> =
				transfers.iter().filter(|t| t.0 == committee).map(|t| t.1).collect();
			assert_eq!(nonces, (0..nonces.len() as u32).collect::<Vec<_>>());
		}
		assert!(transfers.iter().all(|(_, _, signers)| signers.count() >= COMMITTEE_THRESHOLD));
		let fresh: std::collections::BTreeSet<Vec<u32>> = transfers
			.iter()
			.filter(|t| t.1 % 2 == 1)
			.map(|t| t.2.members().collect())
			.collect();
		assert!(fresh.len() > 50, "odd nonces use changing signer sets: {}", fresh.len());
	}

	#[test]
	fn every_account_of_a_workload_is_endowed() {
		let load = Workload::new(Scheme::MlDsa44, 40, 0).unwrap();
		assert_eq!(load.accounts().len(), 40 - 40 / 2 / REPEATS * (REPEATS - 1));
		let committees = Workload::new(Scheme::AggregateMlDsa87, 10, 0).unwrap();
		assert_eq!(committees.accounts().len(), 2, "the owner and the committee account");
	}
}
