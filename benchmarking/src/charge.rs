//! The charged-vs-measured check: is every transaction kind charged at least what it costs?
//!
//! Each kind runs on a fresh manual-seal `pq-node` of one runtime build: distinct senders (so
//! every key is decoded cold, as the weights assume) send one transaction each, after
//! whatever the kind needs on chain first (registered keys, committees). What the chain
//! *charges* for the kind's blocks is the weight they consumed, every class, plus each
//! block's base weight; what they *cost* is the time the node takes to execute them again
//! (`Core_execute_block` at the parent block, over JSON-RPC) with its decoded-key caches off:
//! every transaction, the inherent, block initialization and finalization and the state root,
//! the median of three executions. The block weight limit is only a bound on block time if
//! the first is at least the second.
//! See `docs/benchmarking.md`.

use crate::throughput::{
	measure::{author_until_included, manual_seal_node, scratch_chain, submit_all, BlockStats},
	workload::Verifier,
};
use jsonrpsee::rpc_params;
use polkadot_sdk::{
	sp_core::{Bytes, H256},
	sp_runtime::generic::SignedBlock,
};
use pq_cli::node::Node;
use pq_runtime::opaque;
use std::time::Instant;
use anyhow::{anyhow, Context};
use codec::Encode;
use polkadot_sdk::{sp_crypto_hashing::blake2_256, sp_runtime::AccountId32};
use pq_crypto::{
	aggregate::{aggregator::Committee, SignerBitfield},
	signing::Keypair,
	Scheme,
};
use pq_runtime::{
	transactions::{self, ChainIdentity, Form},
	RuntimeCall, UNIT,
};
use std::{fmt::Write as _, io::Write, path::Path, time::Duration};

/// A transaction kind, as the check runs it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
	/// A transfer of `scheme` in `form`.
	Transfer(Scheme, Form),
	/// A transfer from a committee of `size` members signed by `signers` of them, a new signer
	/// set each time (a fresh `pk*`).
	CommitteeTransfer {
		/// Members.
		size: u32,
		/// Signers of each transfer.
		signers: u32,
	},
	/// `register_key` of an account's own ML-DSA-87 key, key inline.
	RegisterKey,
	/// An Ed25519 account migrating to an ML-DSA-87 key and accepting only it (ordinary signed
	/// extrinsic, proof of possession).
	Migrate,
	/// `rotate_key` of a migrated account from ML-DSA-44 to ML-DSA-87, registered key.
	RotateKey,
	/// `remove_key` of a registered ML-DSA-87 key, registered key.
	RemoveKey,
}

impl Kind {
	/// Every kind: each scheme and form of a transfer, committees with few and many share
	/// reads, and the key registry's calls.
	pub fn all() -> Vec<Kind> {
		let mut kinds = vec![Kind::Transfer(Scheme::Ed25519, Form::Signed), Kind::Transfer(Scheme::Ed25519, Form::KeyInline)];
		for scheme in Scheme::ML_DSA {
			for form in [Form::Signed, Form::KeyInline, Form::KeyRegistered] {
				kinds.push(Kind::Transfer(scheme, form));
			}
		}
		kinds.extend([
			Kind::CommitteeTransfer { size: 16, signers: 9 },
			Kind::CommitteeTransfer { size: 128, signers: 64 },
			Kind::RegisterKey,
			Kind::Migrate,
			Kind::RotateKey,
			Kind::RemoveKey,
		]);
		kinds
	}

	/// As the table labels it.
	pub fn label(&self) -> String {
		match self {
			Kind::Transfer(scheme, form) => {
				let form = match form {
					Form::Signed => "signed",
					Form::KeyInline => "key inline",
					Form::KeyRegistered => "registered",
				};
				format!("transfer, {} {form}", scheme.name())
			},
			Kind::CommitteeTransfer { size, signers } => format!("transfer, committee {signers} of {size}"),
			Kind::RegisterKey => "register_key, ml-dsa-87".into(),
			Kind::Migrate => "register_key, ed25519 → ml-dsa-87 migration".into(),
			Kind::RotateKey => "rotate_key, ml-dsa-44 → ml-dsa-87".into(),
			Kind::RemoveKey => "remove_key, ml-dsa-87".into(),
		}
	}
}

/// What one kind needs: its senders, endowed at genesis, and its transactions.
struct Plan {
	kind: Kind,
	keys: Vec<Keypair>,
	/// For `Migrate` and `RotateKey`: each sender's new key.
	new_keys: Vec<Keypair>,
	committees: Vec<(Keypair, Committee)>,
	transactions: usize,
}

fn keypair(scheme: Scheme, role: &str, index: usize) -> anyhow::Result<Keypair> {
	let seed = blake2_256(&("pq-charge", role, scheme.name(), index as u32).encode());
	Keypair::from_seed(scheme, &seed).map_err(|error| anyhow!("{error:?}"))
}

/// Transfers each committee sends.
const TRANSFERS_PER_COMMITTEE: usize = 100;

impl Plan {
	fn new(kind: Kind, transactions: usize) -> anyhow::Result<Self> {
		let keys = |scheme, role| (0..transactions).map(|index| keypair(scheme, role, index)).collect::<anyhow::Result<Vec<_>>>();
		let mut plan = Plan { kind, keys: Vec::new(), new_keys: Vec::new(), committees: Vec::new(), transactions };
		match kind {
			Kind::Transfer(scheme, _) => plan.keys = keys(scheme, "sender")?,
			Kind::CommitteeTransfer { size, signers } => {
				let count = transactions.div_ceil(TRANSFERS_PER_COMMITTEE);
				for index in 0..count {
					let seed = blake2_256(&("pq-charge", "committee", size, index as u32).encode());
					let owner = keypair(Scheme::Ed25519, "owner", index)?;
					plan.committees.push((owner, Committee::from_seed(&seed, size, signers)));
				}
			},
			Kind::RegisterKey | Kind::RemoveKey => plan.keys = keys(Scheme::MlDsa87, "registrant")?,
			Kind::Migrate => {
				plan.keys = keys(Scheme::Ed25519, "migrating")?;
				plan.new_keys = keys(Scheme::MlDsa87, "migrated")?;
			},
			Kind::RotateKey => {
				plan.keys = keys(Scheme::Ed25519, "rotating")?;
				plan.new_keys = keys(Scheme::MlDsa87, "rotated")?;
			},
		}
		Ok(plan)
	}

	/// Every account the chain specification must endow.
	fn accounts(&self) -> Vec<AccountId32> {
		let committees = self.committees.iter().flat_map(|(owner, committee)| {
			[owner.account_id(), committee.id().account_id()]
		});
		self.keys.iter().map(Keypair::account_id).chain(committees).collect()
	}

	/// What must be on chain before the measured transactions.
	fn setup(&self, chain: &ChainIdentity) -> Vec<Vec<u8>> {
		let own_key_registered = |key: &Keypair| {
			let call = transactions::register_key_call(key, &key.account_id(), false, chain);
			transactions::sign(key, call, 0, 0, Form::KeyInline, chain).encode()
		};
		match self.kind {
			Kind::Transfer(_, Form::KeyRegistered) | Kind::RemoveKey => self.keys.iter().map(own_key_registered).collect(),
			Kind::CommitteeTransfer { .. } => self
				.committees
				.iter()
				.map(|(owner, committee)| {
					let call = transactions::create_committee_call(committee, &owner.account_id(), chain);
					transactions::sign(owner, call, 0, 0, Form::Signed, chain).encode()
				})
				.collect(),
			Kind::RotateKey => self
				.keys
				.iter()
				.enumerate()
				.map(|(index, account)| {
					// A migrated account with a small key, accepting only it.
					let old = keypair(Scheme::MlDsa44, "rotating-old", index).expect("ML-DSA-44 from a seed");
					let call = transactions::register_key_call(&old, &account.account_id(), true, chain);
					transactions::sign(account, call, 0, 0, Form::Signed, chain).encode()
				})
				.collect(),
			Kind::Transfer(..) | Kind::RegisterKey | Kind::Migrate => Vec::new(),
		}
	}

	/// The measured transactions, one per sender (for committees, a new signer set each).
	fn measured(&self, chain: &ChainIdentity) -> anyhow::Result<Vec<Vec<u8>>> {
		let recipient = pq_runtime::genesis_config_presets::alice();
		let transfer = || transactions::transfer_call(recipient.clone(), UNIT);
		let signed = |key: &Keypair, call: RuntimeCall, nonce, form| transactions::sign(key, call, nonce, 0, form, chain).encode();
		Ok(match self.kind {
			Kind::Transfer(_, form) => {
				let nonce = u32::from(form == Form::KeyRegistered);
				self.keys.iter().map(|key| signed(key, transfer(), nonce, form)).collect()
			},
			Kind::CommitteeTransfer { size, signers } => (0..self.transactions)
				.map(|position| {
					let (owner_and_committee, nonce) =
						(&self.committees[position / TRANSFERS_PER_COMMITTEE], (position % TRANSFERS_PER_COMMITTEE) as u32);
					let committee = &owner_and_committee.1;
					let start = (position as u32 * 7) % size;
					let members = (0..signers).map(|offset| (start + offset) % size);
					let signer_set = SignerBitfield::new(size, members).context("signers")?;
					let extrinsic = transactions::sign_by_committee(committee, &signer_set, transfer(), nonce, 0, chain)
						.map_err(|error| anyhow!("aggregate signing: {error:?}"))?;
					Ok(extrinsic.encode())
				})
				.collect::<anyhow::Result<_>>()?,
			Kind::RegisterKey => self
				.keys
				.iter()
				.map(|key| signed(key, transactions::register_key_call(key, &key.account_id(), false, chain), 0, Form::KeyInline))
				.collect(),
			Kind::Migrate => self
				.keys
				.iter()
				.zip(&self.new_keys)
				.map(|(account, new)| {
					signed(account, transactions::register_key_call(new, &account.account_id(), true, chain), 0, Form::Signed)
				})
				.collect(),
			Kind::RotateKey => self
				.keys
				.iter()
				.zip(&self.new_keys)
				.enumerate()
				.map(|(index, (account, new))| {
					let old = keypair(Scheme::MlDsa44, "rotating-old", index).expect("ML-DSA-44 from a seed");
					let call = transactions::rotate_key_call(new, &account.account_id(), chain);
					transactions::sign_registered(&account.account_id(), &old, call, 1, 0, chain).encode()
				})
				.collect(),
			Kind::RemoveKey => self
				.keys
				.iter()
				.map(|key| signed(key, pallet_pq_verifier::Call::remove_key {}.into(), 1, Form::KeyRegistered))
				.collect(),
		})
	}
}

/// One kind's result.
#[derive(Clone, Debug)]
pub struct Check {
	/// The runtime build.
	pub verifier: Verifier,
	/// The kind.
	pub kind: Kind,
	/// Transactions measured.
	pub transactions: usize,
	/// Blocks they filled.
	pub blocks: usize,
	/// What the chain charged for those blocks, in picoseconds of reference time.
	pub charged: u64,
	/// What a fresh node took to import them.
	pub measured: Duration,
}

impl Check {
	/// Charged time over measured time: at least 1 unless the kind is undercharged.
	pub fn ratio(&self) -> f64 {
		self.charged as f64 / 1e12 / self.measured.as_secs_f64().max(f64::EPSILON)
	}

	fn per_transaction_us(&self, total_ps: f64) -> f64 {
		total_ps / 1e6 / self.transactions as f64
	}
}

/// Runs `kind` on the `verifier` build with `transactions` senders.
pub async fn run(
	node_binary: &Path,
	verifier: Verifier,
	kind: Kind,
	transactions: usize,
	progress: &mut impl Write,
) -> anyhow::Result<Check> {
	let plan = Plan::new(kind, transactions)?;
	let directory = tempfile::tempdir()?;
	let (spec, base_path) = scratch_chain(node_binary, verifier, &plan.accounts(), directory.path())?;
	let node = manual_seal_node(node_binary, &spec, &base_path, &[]).await;
	let rpc = node.rpc().await;
	let chain = ChainIdentity { checkpoint: None, ..rpc.chain_identity().await? };

	let setup = plan.setup(&chain);
	if !setup.is_empty() {
		submit_all(&rpc, &setup).await?;
		author_until_included(&rpc, setup.len()).await?;
	}
	let measured = plan.measured(&chain)?;
	submit_all(&rpc, &measured).await?;
	let blocks: Vec<BlockStats> = author_until_included(&rpc, measured.len()).await?;
	drop(rpc);
	node.stop().await;

	// The same chain on a node that keeps no decoded key between verifications.
	let node = manual_seal_node(node_binary, &spec, &base_path, &["--key-cache-mib", "0"]).await;
	let rpc = node.rpc().await;
	let mut execution = Duration::ZERO;
	for block in &blocks {
		execution += execution_time(&rpc, block.hash).await?;
	}
	drop(rpc);
	node.stop().await;
	let check = Check {
		verifier,
		kind,
		transactions,
		blocks: blocks.len(),
		charged: blocks.iter().map(|block| block.charged_ref_time).sum(),
		measured: execution,
	};
	writeln!(progress, "  {} blocks, charged ÷ measured {:.2}", check.blocks, check.ratio())?;
	Ok(check)
}

/// Executions of each block; the median counts.
const EXECUTIONS: usize = 3;

/// The median time `rpc`'s node takes to execute block `hash` on its parent's state.
async fn execution_time(rpc: &Node, hash: H256) -> anyhow::Result<Duration> {
	let signed: Option<SignedBlock<opaque::Block>> = rpc.request("chain_getBlock", rpc_params![hash]).await?;
	let signed = signed.with_context(|| format!("the node does not have block {hash:?}"))?;
	let parent = signed.block.header.parent_hash;
	let block = Bytes(signed.block.encode());
	let mut times = Vec::with_capacity(EXECUTIONS);
	for _ in 0..EXECUTIONS {
		let start = Instant::now();
		let _: Bytes = rpc.request("state_call", rpc_params!["Core_execute_block", block.clone(), parent]).await?;
		times.push(start.elapsed());
	}
	times.sort();
	Ok(times[EXECUTIONS / 2])
}

/// The Markdown table of `checks`, each row's kind charged per transaction against its cost.
pub fn table(checks: &[Check]) -> String {
	let mut table = String::from(
		"| build | kind | tx | blocks | charged µs/tx | measured µs/tx | charged ÷ measured |\n\
		 |---|---|---:|---:|---:|---:|---:|\n",
	);
	for check in checks {
		let _ = writeln!(
			table,
			"| {} | {} | {} | {} | {:.0} | {:.0} | {:.2}{} |",
			check.verifier.label(),
			check.kind.label(),
			check.transactions,
			check.blocks,
			check.per_transaction_us(check.charged as f64),
			check.per_transaction_us(check.measured.as_secs_f64() * 1e12),
			check.ratio(),
			if check.ratio() < 1.0 { " **undercharged**" } else { "" },
		);
	}
	table
}

#[cfg(test)]
mod tests {
	use super::*;

	#[test]
	fn every_kind_has_a_distinct_label() {
		let labels: std::collections::BTreeSet<String> = Kind::all().iter().map(Kind::label).collect();
		assert_eq!(labels.len(), Kind::all().len());
		assert_eq!(Kind::all().len(), 17);
	}

	#[test]
	fn a_committee_plan_has_one_committee_per_hundred_transfers() {
		let plan = Plan::new(Kind::CommitteeTransfer { size: 16, signers: 9 }, 250).unwrap();
		assert_eq!(plan.committees.len(), 3);
		assert_eq!(plan.accounts().len(), 6, "each committee's owner and account");
	}

	#[test]
	fn the_ratio_is_charged_time_over_measured_time() {
		let check = Check {
			verifier: Verifier::HostFunctions,
			kind: Kind::RegisterKey,
			transactions: 10,
			blocks: 1,
			charged: 3_000_000_000,
			measured: Duration::from_millis(2),
		};
		assert!((check.ratio() - 1.5).abs() < 1e-9);
		assert!(table(&[check]).contains("| 300 | 200 | 1.50 |"));
	}
}
