//! The pure-Wasm runtime as a relay-chain validator runs a parachain's block — only the host
//! functions its PVF worker provides, storage standing in for cumulus' in-Wasm storage — and
//! what each transaction kind costs a parachain there: bytes in the block body, bytes of storage
//! proof, and execution time. See `docs/parachain.md`.
//!
//! Blocks are built through the blob's own runtime API (as an author does) on a genesis state
//! with [`FILLER_ACCOUNTS`] funded accounts besides the kind's senders, so storage proofs have a
//! live chain's depth; then executed with `Core_execute_block` while the state it reads is
//! recorded, as a collator records the proof of validity.

use crate::charge::{Kind, Plan};
use anyhow::{ensure, Context};
use codec::{Decode, Encode};
use polkadot_sdk::{
	frame_support::{dispatch::DispatchClass, traits::fungible::Mutate},
	frame_system, pallet_timestamp,
	sc_executor::{
		HeapAllocStrategy, WasmExecutionMethod, WasmExecutor, WasmtimeInstantiationStrategy,
	},
	sp_core::{
		storage::{well_known_keys::CODE, StateVersion, Storage},
		traits::{CallContext, CodeExecutor, RuntimeCode, WrappedRuntimeCode},
		H256,
	},
	sp_crypto_hashing::blake2_256,
	sp_genesis_builder::{PresetId, DEV_RUNTIME_PRESET},
	sp_io,
	sp_runtime::{
		traits::{BlakeTwo256, Header as _},
		AccountId32, ApplyExtrinsicResult, ExtrinsicInclusionMode, OpaqueExtrinsic,
	},
	sp_state_machine::{
		prove_execution, BasicExternalities, InMemoryBackend, OverlayedChanges, StateMachine,
	},
	sp_version::RuntimeVersion,
};
use pq_runtime::{opaque, Balances, Header, Runtime, RuntimeCall, UncheckedExtrinsic, UNIT};
use pq_runtime_client::{genesis::merge_patch, transactions::ChainIdentity};
use std::{
	borrow::Cow,
	time::{Duration, Instant},
};

/// The host functions a PVF worker gives a parachain's block: a copy of the private
/// `HostFunctions` of polkadot-node-core-pvf-common 29.0.0, `src/executor_interface.rs`
/// (lines 215–229). It is copied rather than imported: the type is private, and the crate
/// pulls in the node side of Polkadot (wasmtime executor, relay-chain primitives, …) for one
/// type alias. Check it again when polkadot-sdk is bumped. (The optional
/// `HostFunctionsWithEcc` adds only elliptic-curve functions, which a relay chain must switch on
/// by executor parameter: left out.)
pub type PvfHostFunctions = (
	sp_io::misc::HostFunctions,
	sp_io::crypto::HostFunctions,
	sp_io::hashing::HostFunctions,
	sp_io::allocator::HostFunctions,
	sp_io::logging::HostFunctions,
	sp_io::trie::HostFunctions,
);

/// Host implementations standing in for the storage functions cumulus' `validate_block`
/// implements inside the Wasm over the block's storage proof, so that a block can be executed
/// here without `validate_block`.
pub type CumulusStorageStandIns = (
	sp_io::storage::HostFunctions,
	sp_io::default_child_storage::HostFunctions,
	sp_io::offchain_index::HostFunctions,
);

/// Everything a block's execution may call on a parachain validator.
pub type ParachainValidatorHostFunctions = (PvfHostFunctions, CumulusStorageStandIns);

/// The PVF's default memory limit in Wasm pages: `DEFAULT_HEAP_PAGES_ESTIMATE +
/// EXTRA_HEAP_PAGES` (polkadot-node-core-pvf-common 29.0.0, `src/executor_interface.rs`,
/// lines 46–58).
pub const PVF_MAX_MEMORY_PAGES: u32 = 32 + 2048;

/// The hash that block 1's header gives as its parent. The runtime records it as block 0's hash
/// (`System::BlockHash(0)`, which `CheckGenesis` and `CheckEra` read), so it is the genesis hash
/// that transactions sign for. Nothing checks it against the genesis state.
pub const GENESIS_HASH: H256 = H256([0x47; 32]);

/// Milliseconds between the blocks built here. On the dev chain (no Aura authorities) any
/// timestamp is accepted.
const BLOCK_TIME_MS: u64 = 6_000;

/// A runtime blob run in-process with only a parachain validator's host functions. Any other
/// import makes instantiation, and so every call, fail. The PVF itself would stub it
/// (`allow_missing_func_imports: true`, `executor_interface.rs` line 54) and trap only if it is
/// called.
pub struct ValidatorRuntime {
	blob: &'static [u8],
	executor: WasmExecutor<ParachainValidatorHostFunctions>,
	code: WrappedRuntimeCode<'static>,
	hash: Vec<u8>,
}

/// A block's parent state as a trie: what a node imports it on, and what a proof is recorded
/// from.
pub type ParentState = InMemoryBackend<BlakeTwo256>;

/// A block built by [`ValidatorRuntime::author_block`], and the state after it.
pub struct Authored {
	/// The block.
	pub block: opaque::Block,
	/// The state after the block, as its author left it.
	pub state: Storage,
}

impl ValidatorRuntime {
	/// The runtime of `blob` (compressed or not), instantiated as a validator's executor does.
	pub fn new(blob: &'static [u8]) -> Self {
		Self::with_instantiation(blob, WasmtimeInstantiationStrategy::PoolingCopyOnWrite)
	}

	/// The runtime of `blob` with another instantiation `strategy`: `RecreateInstance` runs
	/// under valgrind, which cannot reserve the pooling allocator's address space.
	pub fn with_instantiation(
		blob: &'static [u8],
		strategy: WasmtimeInstantiationStrategy,
	) -> Self {
		let executor = WasmExecutor::<ParachainValidatorHostFunctions>::builder()
			.with_execution_method(WasmExecutionMethod::Compiled {
				instantiation_strategy: strategy,
			})
			.with_allow_missing_host_functions(false)
			.with_onchain_heap_alloc_strategy(HeapAllocStrategy::Dynamic {
				maximum_pages: Some(PVF_MAX_MEMORY_PAGES),
			})
			.build();
		Self {
			blob,
			executor,
			code: WrappedRuntimeCode(Cow::Borrowed(blob)),
			hash: blake2_256(blob).to_vec(),
		}
	}

	fn runtime_code(&self) -> RuntimeCode<'_> {
		RuntimeCode { code_fetcher: &self.code, heap_pages: None, hash: self.hash.clone() }
	}

	/// Calls the runtime API function `method` on `state` and decodes its output. Every call is
	/// on-chain and not an import, so the PVF's memory limit holds (an import would double it).
	pub fn try_call<R: Decode>(
		&self,
		state: &mut BasicExternalities,
		method: &str,
		arguments: &impl Encode,
	) -> Result<R, String> {
		let output = self
			.executor
			.call(
				state,
				&self.runtime_code(),
				method,
				&arguments.encode(),
				CallContext::Onchain { import: false },
			)
			.0
			.map_err(|error| format!("{method}: {error}"))?;
		R::decode(&mut &output[..]).map_err(|error| format!("{method} output: {error}"))
	}

	/// [`Self::try_call`], which must succeed.
	pub fn call<R: Decode>(
		&self,
		state: &mut BasicExternalities,
		method: &str,
		arguments: &impl Encode,
	) -> R {
		self.try_call(state, method, arguments)
			.unwrap_or_else(|error| panic!("{error}"))
	}

	/// The genesis state of the `development` preset, built as sc-chain-spec builds it: the
	/// preset merged over the default configuration, `GenesisBuilder_build_state` on empty
	/// storage, and the blob under `:code`.
	pub fn development_genesis(&self) -> Storage {
		let mut config = self.preset(None);
		merge_patch(&mut config, self.preset(Some(PresetId::from(DEV_RUNTIME_PRESET))));
		let mut state = BasicExternalities::new_empty();
		let built: Result<(), String> = self.call(
			&mut state,
			"GenesisBuilder_build_state",
			&serde_json::to_vec(&config).expect("JSON serializes"),
		);
		built.expect("the development genesis builds");
		let mut genesis = state.into_storages();
		genesis.top.insert(CODE.to_vec(), self.blob.to_vec());
		genesis
	}

	/// The genesis preset `id`, or the default configuration for `None`.
	fn preset(&self, id: Option<PresetId>) -> serde_json::Value {
		let preset: Option<Vec<u8>> =
			self.call(&mut BasicExternalities::new_empty(), "GenesisBuilder_get_preset", &id);
		serde_json::from_slice(
			&preset.unwrap_or_else(|| panic!("the runtime has the preset {id:?}")),
		)
		.expect("a preset is JSON")
	}

	/// Builds the block after `parent` (genesis for `None`) on `state` as a block author does,
	/// through the blob's runtime API: the timestamp inherent first (Executive refuses inherents
	/// after transactions), then the encoded transactions `sign` signs for the chain, labelled.
	/// Each must apply and dispatch successfully.
	pub fn author_block(
		&self,
		state: &Storage,
		parent: Option<&Header>,
		sign: impl FnOnce(&ChainIdentity) -> Vec<(String, Vec<u8>)>,
	) -> anyhow::Result<Authored> {
		let mut externalities = BasicExternalities::new(state.clone());
		let (number, parent_hash) =
			parent.map_or((1, GENESIS_HASH), |parent| (parent.number + 1, parent.hash()));
		let header = Header::new(
			number,
			Default::default(),
			Default::default(),
			parent_hash,
			Default::default(),
		);
		let mode: ExtrinsicInclusionMode =
			self.call(&mut externalities, "Core_initialize_block", &header);
		ensure!(mode == ExtrinsicInclusionMode::AllExtrinsics, "block {number} takes transactions");

		let chain = self.chain_identity(&mut externalities);
		let timestamp = RuntimeCall::Timestamp(pallet_timestamp::Call::set {
			now: u64::from(number) * BLOCK_TIME_MS,
		});
		let mut extrinsics = vec![(
			"timestamp inherent".to_owned(),
			UncheckedExtrinsic::new_bare_legacy(timestamp).encode(),
		)];
		extrinsics.extend(sign(&chain));
		let mut opaque_extrinsics = Vec::with_capacity(extrinsics.len());
		for (label, encoded) in extrinsics {
			let extrinsic = OpaqueExtrinsic::decode(&mut &encoded[..])
				.with_context(|| format!("{label}: an extrinsic"))?;
			let applied: ApplyExtrinsicResult =
				self.call(&mut externalities, "BlockBuilder_apply_extrinsic", &extrinsic);
			ensure!(applied == Ok(Ok(())), "{label}: {applied:?}");
			opaque_extrinsics.push(extrinsic);
		}
		let header: Header = self.call(&mut externalities, "BlockBuilder_finalize_block", &());
		Ok(Authored {
			block: opaque::Block { header, extrinsics: opaque_extrinsics },
			state: externalities.into_storages(),
		})
	}

	/// What the transactions of the block being built on `state` sign for: the genesis hash the
	/// runtime holds and the blob's own versions. They are immortal, so there is no checkpoint.
	fn chain_identity(&self, state: &mut BasicExternalities) -> ChainIdentity {
		let version: RuntimeVersion = self.call(state, "Core_version", &());
		ChainIdentity {
			genesis_hash: state.execute_with(|| frame_system::Pallet::<Runtime>::block_hash(0)),
			spec_version: version.spec_version,
			transaction_version: version.transaction_version,
			checkpoint: None,
		}
	}

	/// Imports `block` on a copy of `state` (its parent's), as a validator checks it:
	/// `Core_execute_block` checks every transaction again, signatures included, and panics
	/// unless the header's state and extrinsics roots match. Returns the state after it.
	pub fn import_block(&self, state: &Storage, block: &opaque::Block) -> BasicExternalities {
		let mut externalities = BasicExternalities::new(state.clone());
		let () = self.call(&mut externalities, "Core_execute_block", block);
		externalities
	}

	/// The storage proof of importing `block` on `state` (its parent's, as a trie): every trie
	/// node the execution read, in the compact encoding a parachain's proof of validity carries.
	pub fn import_proof_bytes(
		&self,
		state: &mut ParentState,
		block: &opaque::Block,
	) -> anyhow::Result<usize> {
		let root = *state.root();
		let (_, proof) = prove_execution(
			state,
			&mut OverlayedChanges::<BlakeTwo256>::default(),
			&self.executor,
			"Core_execute_block",
			&block.encode(),
			&self.runtime_code(),
		)
		.map_err(|error| anyhow::anyhow!("Core_execute_block with a proof recorded: {error}"))?;
		proof
			.encoded_compact_size::<BlakeTwo256>(root)
			.context("the proof compacts against its root")
	}

	/// How long one import of `block` (encoded) on `state` (its parent's, as a trie) takes, as
	/// a node imports: the state root computed from the changed paths only.
	pub fn import_time(&self, state: &ParentState, block: &[u8]) -> anyhow::Result<Duration> {
		let mut overlay = OverlayedChanges::<BlakeTwo256>::default();
		let mut extensions = Default::default();
		let start = Instant::now();
		StateMachine::new(
			state,
			&mut overlay,
			&self.executor,
			"Core_execute_block",
			block,
			&mut extensions,
			&self.runtime_code(),
			CallContext::Onchain { import: true },
		)
		.execute()
		.map_err(|error| anyhow::anyhow!("Core_execute_block: {error}"))?;
		Ok(start.elapsed())
	}
}

/// Accounts funded at genesis besides a kind's senders: a chain with users, so that a
/// transaction's account and key reads prove a path of a live trie's depth (16⁴ > 10,000: four
/// branch nodes below the root), not a near-empty one's.
pub const FILLER_ACCOUNTS: u32 = 10_000;

/// `state` with `accounts` given 1,000 tokens each, as a transfer into them would.
fn fund(state: Storage, accounts: impl IntoIterator<Item = AccountId32>) -> Storage {
	let mut externalities = BasicExternalities::new(state);
	externalities.execute_with(|| {
		for account in accounts {
			Balances::mint_into(&account, 1_000 * UNIT).expect("a new account takes 1,000 tokens");
		}
	});
	externalities.into_storages()
}

/// A filler account: no one's key.
fn filler_account(index: u32) -> AccountId32 {
	AccountId32::new(blake2_256(&("pq-parachain-filler", index).encode()))
}

/// What one transaction of a kind costs a parachain, averaged over a block of them: the block
/// without them subtracted.
#[derive(Clone, Debug)]
pub struct TransactionCost {
	/// The kind.
	pub kind: Kind,
	/// Transactions in the measured block.
	pub transactions: usize,
	/// Bytes in the block body.
	pub body_bytes: f64,
	/// Bytes of compact storage proof.
	pub proof_bytes: f64,
	/// Proof size the runtime charged (the weights' `proof_size`).
	pub charged_proof_bytes: f64,
	/// Time to import, in the validator's executor (pure Wasm, compiled).
	pub execution: Duration,
}

impl TransactionCost {
	/// What the transaction adds to the proof of validity: its bytes and its storage proof.
	pub fn pov_bytes(&self) -> f64 {
		self.body_bytes + self.proof_bytes
	}
}

/// Measures `kind` with `transactions` senders on `runtime`: a setup block with whatever the
/// kind needs on chain (registered keys, committees), then the block of its transactions and,
/// for the baseline, the same block with only its timestamp; each imported `runs` times.
pub fn measure(
	runtime: &ValidatorRuntime,
	kind: Kind,
	transactions: usize,
	runs: usize,
) -> anyhow::Result<TransactionCost> {
	let plan = Plan::new(kind, transactions)?;
	let genesis = fund(
		runtime.development_genesis(),
		plan.load.accounts().into_iter().chain((0..FILLER_ACCOUNTS).map(filler_account)),
	);
	let labelled = |what: &str, extrinsics: Vec<Vec<u8>>| {
		extrinsics
			.into_iter()
			.enumerate()
			.map(|(index, extrinsic)| (format!("{} {what} {index}", kind.label()), extrinsic))
			.collect()
	};
	// The setup in as many blocks as its length needs (a hundred committees of 16 are 17 MB).
	let mut pending: Option<Vec<Vec<u8>>> = None;
	let mut setup: Option<Authored> = None;
	while pending.as_ref().is_none_or(|pending| !pending.is_empty()) {
		let (state, parent) = match &setup {
			Some(block) => (&block.state, Some(&block.block.header)),
			None => (&genesis, None),
		};
		let block = runtime.author_block(state, parent, |chain| {
			let pending = pending.get_or_insert_with(|| plan.setup(chain));
			labelled("setup", take_up_to(pending, setup_block_bytes()))
		})?;
		setup = Some(block);
	}
	let setup = setup.expect("at least one setup block");
	let mut measured_transactions = Vec::new();
	let measured = runtime.author_block(&setup.state, Some(&setup.block.header), |chain| {
		measured_transactions = plan.measured(chain).expect("the kind's transactions sign");
		labelled("transaction", measured_transactions.clone())
	})?;
	let baseline = runtime.author_block(&setup.state, Some(&setup.block.header), |_| Vec::new())?;

	// Both blocks are imported on the setup block's state, as a trie built once.
	let mut parent = ParentState::from((setup.state, StateVersion::V1));
	// The plan may send fewer than asked (committees of 128: at most 100).
	let transactions = measured_transactions.len();
	let per_transaction = |with: f64, without: f64| (with - without) / transactions as f64;
	// The fastest import of each, alternating, so that a slow stretch of the machine reaches
	// both blocks.
	let (with, without) = (measured.block.encode(), baseline.block.encode());
	let (mut fastest_with, mut fastest_without) = (Duration::MAX, Duration::MAX);
	for _ in 0..runs {
		fastest_with = fastest_with.min(runtime.import_time(&parent, &with)?);
		fastest_without = fastest_without.min(runtime.import_time(&parent, &without)?);
	}
	let execution = fastest_with.saturating_sub(fastest_without);
	let proof_bytes = per_transaction(
		runtime.import_proof_bytes(&mut parent, &measured.block)? as f64,
		runtime.import_proof_bytes(&mut parent, &baseline.block)? as f64,
	);
	Ok(TransactionCost {
		kind,
		transactions,
		body_bytes: measured_transactions.iter().map(Vec::len).sum::<usize>() as f64
			/ transactions as f64,
		proof_bytes,
		charged_proof_bytes: per_transaction(
			charged_proof_size(&measured.state)? as f64,
			charged_proof_size(&baseline.state)? as f64,
		),
		execution: execution / transactions as u32,
	})
}

/// A setup block's most extrinsic bytes: the runtime's normal-class length limit, less room for
/// the timestamp inherent.
fn setup_block_bytes() -> usize {
	let limit = *<Runtime as frame_system::Config>::BlockLength::get()
		.max
		.get(DispatchClass::Normal);
	limit as usize - 1024
}

/// The first of `pending` whose lengths sum to at most `limit` (at least one), removed.
fn take_up_to(pending: &mut Vec<Vec<u8>>, limit: usize) -> Vec<Vec<u8>> {
	let mut length = 0;
	let count = pending
		.iter()
		.take_while(|extrinsic| {
			length += extrinsic.len();
			length <= limit
		})
		.count()
		.max(1)
		.min(pending.len());
	pending.drain(..count).collect()
}

/// The proof size the block that left `state` was charged: `System::BlockWeight`, every class.
fn charged_proof_size(state: &Storage) -> anyhow::Result<u64> {
	let encoded = state
		.top
		.get(frame_system::BlockWeight::<Runtime>::hashed_key().as_slice())
		.context("a block's weight")?;
	Ok(frame_system::ConsumedWeight::decode(&mut &encoded[..])?.total().proof_size())
}

#[cfg(test)]
mod tests {
	use super::*;

	#[test]
	fn a_setup_is_split_into_blocks_within_the_length_limit() {
		let mut pending = vec![vec![0; 4], vec![0; 4], vec![0; 4], vec![0; 20]];
		assert_eq!(take_up_to(&mut pending, 9).len(), 2, "two fit in 9 bytes");
		assert_eq!(take_up_to(&mut pending, 9).len(), 1, "the third; the fourth does not fit");
		assert_eq!(take_up_to(&mut pending, 9), vec![vec![0; 20]], "one too long goes alone");
		assert!(pending.is_empty());
	}
}
