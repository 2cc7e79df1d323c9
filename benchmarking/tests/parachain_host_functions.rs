//! The pure-Wasm runtime needs no host function that a parachain validator lacks. Relay-chain
//! validators run a parachain block in their PVF worker. That worker gives the Wasm only the host
//! functions that `polkadot-node-core-pvf-common` lists (misc, crypto, hashing, allocator,
//! logging, trie) and no storage: cumulus' `validate_block` implements storage inside the Wasm,
//! over the block's storage proof. The first test reads the imports of the pure-Wasm blob (and of
//! the libcrux variant, when built) and finds each one among those host functions or among the
//! storage functions that cumulus implements in Wasm. The host-function blob imports
//! `ext_pq_verify_*` and fails the same check, so the check can fail. The second test runs the
//! blob with exactly those host functions. Host storage stands in for cumulus' in-Wasm storage,
//! and any other import is refused when the module is instantiated. The test builds genesis and a
//! block of every signature scheme and form through the blob's own runtime API, then imports the
//! block on a fresh genesis state, which verifies every signature again. Limits: pq-runtime is not
//! a parachain runtime (it has no `validate_block`, storage proof or PoV), and host storage only
//! stands in for cumulus' in-Wasm storage. So this shows that the runtime's logic, signature
//! verification included, calls nothing a validator lacks. It does not show that a parachain built
//! on it validates. Of the PVF worker's wasmtime configuration, only the heap limit is copied; the
//! deterministic stack limit, the instantiation strategy and the execution timeout are not, and
//! neither is the PoV size limit. The PVF stubs missing imports, which trap only when called; this
//! test refuses them outright, so it is stricter than the PVF.

use codec::{Decode, Encode};
use polkadot_sdk::{
	frame_system, pallet_timestamp,
	sc_executor::{HeapAllocStrategy, HostFunctions, WasmExecutor},
	sp_core::{
		storage::{well_known_keys::CODE, Storage},
		traits::{CallContext, CodeExecutor, RuntimeCode, WrappedRuntimeCode},
		H256,
	},
	sp_genesis_builder::{PresetId, DEV_RUNTIME_PRESET},
	sp_io,
	sp_runtime::{traits::Header as _, AccountId32, ApplyExtrinsicResult, ExtrinsicInclusionMode},
	sp_state_machine::BasicExternalities,
	sp_version::RuntimeVersion,
};
use pq_crypto::{
	aggregate::{aggregator::Committee, SignerBitfield},
	signing::Keypair,
	Scheme,
};
use pq_runtime::{Balance, Block, Header, Nonce, Runtime, RuntimeCall, System, UncheckedExtrinsic, UNIT};
use pq_runtime_client::transactions::{self, ChainIdentity, Form, Sender};
use std::{borrow::Cow, collections::BTreeSet, fmt};

/// The host functions a PVF worker gives a parachain's block: a copy of the private
/// `HostFunctions` of polkadot-node-core-pvf-common 29.0.0, `src/executor_interface.rs`
/// (lines 215–229). It is copied rather than imported: the type is private, and the crate
/// pulls in the node side of Polkadot (wasmtime executor, relay-chain primitives, …) for one
/// type alias. Check it again when polkadot-sdk is bumped. (The optional
/// `HostFunctionsWithEcc` adds only elliptic-curve functions, which a relay chain must switch on
/// by executor parameter: left out.)
type PvfHostFunctions = (
	sp_io::misc::HostFunctions,
	sp_io::crypto::HostFunctions,
	sp_io::hashing::HostFunctions,
	sp_io::allocator::HostFunctions,
	sp_io::logging::HostFunctions,
	sp_io::trie::HostFunctions,
);

/// The imports that cumulus' `validate_block` implements inside the Wasm through
/// `replace_implementation`, over the block's storage proof
/// (cumulus-pallet-parachain-system 0.32.0, `src/validate_block/implementation.rs`, lines
/// 95–138). Each is the version the Wasm side calls (the latest version that is not
/// `register_only`, sp-io 49.0.0). A PVF provides none of them, and a parachain runtime imports
/// them and never reaches the host for them. The list is the whole rule, not only what today's
/// blob imports.
///
/// Left out: `ext_transaction_index_{index,renew}_version_1`, replaced only under cumulus'
/// non-default `transaction-index` feature (lines 134–137).
const REPLACED_IN_WASM_BY_CUMULUS: &[&str] = &[
	// sp_io::storage (lines 97–111).
	"ext_storage_read_version_1",
	"ext_storage_set_version_1",
	"ext_storage_get_version_1",
	"ext_storage_exists_version_1",
	"ext_storage_clear_version_1",
	"ext_storage_root_version_2",
	"ext_storage_clear_prefix_version_2",
	"ext_storage_append_version_1",
	"ext_storage_next_key_version_1",
	"ext_storage_start_transaction_version_1",
	"ext_storage_rollback_transaction_version_1",
	"ext_storage_commit_transaction_version_1",
	// sp_io::default_child_storage (lines 112–129).
	"ext_default_child_storage_get_version_1",
	"ext_default_child_storage_read_version_1",
	"ext_default_child_storage_set_version_1",
	"ext_default_child_storage_clear_version_1",
	"ext_default_child_storage_storage_kill_version_3",
	"ext_default_child_storage_exists_version_1",
	"ext_default_child_storage_clear_prefix_version_2",
	"ext_default_child_storage_root_version_2",
	"ext_default_child_storage_next_key_version_1",
	// sp_io::offchain_index (lines 130–131): no-ops in validation.
	"ext_offchain_index_set_version_1",
	"ext_offchain_index_clear_version_1",
	// cumulus-primitives-proof-size-hostfunction (lines 132–133).
	"ext_storage_proof_size_storage_proof_size_version_1",
];

/// Host implementations standing in for [`REPLACED_IN_WASM_BY_CUMULUS`], so that a block can be
/// executed here without `validate_block`. The storage-proof-size function has no host
/// implementation without a cumulus dependency, so a blob importing it would fail the second
/// test: pq-runtime does not import it. These interfaces also hold versions that cumulus does
/// not replace (e.g. `ext_storage_root_version_1`); the first test refuses imports of those.
type CumulusStorageStandIns =
	(sp_io::storage::HostFunctions, sp_io::default_child_storage::HostFunctions, sp_io::offchain_index::HostFunctions);

/// Everything a block's execution may call on a parachain validator.
type ParachainValidatorHostFunctions = (PvfHostFunctions, CumulusStorageStandIns);

/// The PVF's default memory limit in Wasm pages: `DEFAULT_HEAP_PAGES_ESTIMATE +
/// EXTRA_HEAP_PAGES` (polkadot-node-core-pvf-common 29.0.0, `src/executor_interface.rs`,
/// lines 46–58).
const PVF_MAX_MEMORY_PAGES: u32 = 32 + 2048;

/// The pure-Wasm runtimes that were built: the chain's (our verifier), and the one with libcrux
/// if it was built for the benchmarks (`PQ_PURE_WASM_LIBCRUX`).
fn pure_wasm_runtimes() -> Vec<(&'static str, &'static [u8])> {
	let pure = pq_runtime::pure_wasm::WASM_BINARY.expect("pq-runtime built with its Wasm blobs (SKIP_WASM_BUILD unset)");
	let libcrux = pq_runtime::pure_wasm_libcrux::WASM_BINARY.map(|blob| ("pure Wasm with libcrux", blob));
	[("pure Wasm", pure)].into_iter().chain(libcrux).collect()
}

/// A function that a Wasm module imports.
#[derive(Debug)]
struct FunctionImport {
	module: String,
	name: String,
}

impl fmt::Display for FunctionImport {
	fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
		write!(f, "{}::{}", self.module, self.name)
	}
}

/// Every function import of a runtime blob (compressed or not). Memory is imported too, and
/// skipped here: it is not a host function.
fn function_imports(blob: &[u8]) -> Vec<FunctionImport> {
	let code = sp_maybe_compressed_blob::decompress(blob, sp_maybe_compressed_blob::CODE_BLOB_BOMB_LIMIT)
		.expect("a runtime blob decompresses");
	let mut imports = Vec::new();
	for payload in wasmparser::Parser::new(0).parse_all(&code) {
		if let wasmparser::Payload::ImportSection(section) = payload.expect("a well-formed Wasm module") {
			for import in section {
				let import = import.expect("a well-formed import");
				if let wasmparser::TypeRef::Func(_) = import.ty {
					imports.push(FunctionImport { module: import.module.to_owned(), name: import.name.to_owned() });
				}
			}
		}
	}
	imports
}

/// The import names of the host functions `H`.
fn host_function_names<H: HostFunctions>() -> BTreeSet<String> {
	H::host_functions().into_iter().map(|function| function.name().to_owned()).collect()
}

/// What a runtime may import to run on a parachain validator: the PVF's host functions and
/// the storage functions cumulus implements in Wasm.
fn parachain_validator_imports() -> BTreeSet<String> {
	let mut allowed = host_function_names::<PvfHostFunctions>();
	allowed.extend(REPLACED_IN_WASM_BY_CUMULUS.iter().map(|name| name.to_string()));
	allowed
}

/// The imports of `imports` that are not in `allowed`. Host functions live in module `env`.
fn not_allowed<'a>(imports: &'a [FunctionImport], allowed: &BTreeSet<String>) -> Vec<&'a FunctionImport> {
	imports.iter().filter(|import| import.module != "env" || !allowed.contains(&import.name)).collect()
}

#[test]
fn the_pure_wasm_runtime_imports_only_what_a_parachain_validator_provides() {
	let allowed = parachain_validator_imports();
	for (runtime, blob) in pure_wasm_runtimes() {
		let imports = function_imports(blob);
		assert!(imports.iter().any(|import| import.name == "ext_storage_get_version_1"), "{runtime}: imports were read");
		let offenders = not_allowed(&imports, &allowed);
		assert!(
			offenders.is_empty(),
			"{runtime} imports what a parachain validator does not provide: {}",
			offenders.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ")
		);
	}

	// The check can fail: the host-function runtime imports this project's own host
	// functions, which no validator has.
	let host_function_runtime = pq_runtime::WASM_BINARY.expect("pq-runtime built with its Wasm blobs (SKIP_WASM_BUILD unset)");
	let imports = function_imports(host_function_runtime);
	let offenders = not_allowed(&imports, &allowed);
	assert!(
		offenders.iter().any(|import| import.name.starts_with("ext_pq_verify_")),
		"the host-function runtime must fail the check through ext_pq_verify_*, but fails it by: {offenders:?}"
	);
}

/// A runtime blob run in-process with only a parachain validator's host functions. Any other
/// import makes instantiation, and so every call, fail. The PVF itself would stub it
/// (`allow_missing_func_imports: true`, `executor_interface.rs` line 54) and trap only if it is
/// called. `pq_benchmarks::wasm_runtime::WasmRuntime` does not fit: it has the node's host
/// functions and fresh externalities for each call.
struct ValidatorRuntime {
	blob: &'static [u8],
	executor: WasmExecutor<ParachainValidatorHostFunctions>,
	code: WrappedRuntimeCode<'static>,
	hash: Vec<u8>,
}

impl ValidatorRuntime {
	fn new(blob: &'static [u8]) -> Self {
		let executor = WasmExecutor::<ParachainValidatorHostFunctions>::builder()
			.with_allow_missing_host_functions(false)
			.with_onchain_heap_alloc_strategy(HeapAllocStrategy::Dynamic { maximum_pages: Some(PVF_MAX_MEMORY_PAGES) })
			.build();
		Self {
			blob,
			executor,
			code: WrappedRuntimeCode(Cow::Borrowed(blob)),
			hash: polkadot_sdk::sp_crypto_hashing::blake2_256(blob).to_vec(),
		}
	}

	/// Calls the runtime API function `method` on `state` and decodes its output. Every call is
	/// on-chain and not an import, so the PVF's memory limit holds (an import would double it).
	fn call<R: Decode>(&self, state: &mut BasicExternalities, method: &str, arguments: &impl Encode) -> R {
		let runtime_code = RuntimeCode { code_fetcher: &self.code, heap_pages: None, hash: self.hash.clone() };
		let output = self
			.executor
			.call(state, &runtime_code, method, &arguments.encode(), CallContext::Onchain { import: false })
			.0
			.unwrap_or_else(|error| panic!("{method}: {error}"));
		R::decode(&mut &output[..]).unwrap_or_else(|error| panic!("{method} output: {error}"))
	}

	/// The genesis state of the `development` preset, built as sc-chain-spec builds it: the
	/// preset merged over the default configuration, `GenesisBuilder_build_state` on empty
	/// storage, and the blob under `:code`.
	fn development_genesis(&self) -> Storage {
		let mut config = self.preset(None);
		merge_json(&mut config, self.preset(Some(PresetId::from(DEV_RUNTIME_PRESET))));
		let mut state = BasicExternalities::new_empty();
		let built: Result<(), String> =
			self.call(&mut state, "GenesisBuilder_build_state", &serde_json::to_vec(&config).expect("JSON serializes"));
		built.expect("the development genesis builds");
		let mut genesis = state.into_storages();
		genesis.top.insert(CODE.to_vec(), self.blob.to_vec());
		genesis
	}

	/// The genesis preset `id`, or the default configuration for `None`.
	fn preset(&self, id: Option<PresetId>) -> serde_json::Value {
		let preset: Option<Vec<u8>> = self.call(&mut BasicExternalities::new_empty(), "GenesisBuilder_get_preset", &id);
		serde_json::from_slice(&preset.unwrap_or_else(|| panic!("the runtime has the preset {id:?}"))).expect("a preset is JSON")
	}
}

/// Merges `patch` into `base` as sc-chain-spec 53.0.0 does (`json_patch::merge`).
fn merge_json(base: &mut serde_json::Value, patch: serde_json::Value) {
	match (base, patch) {
		(serde_json::Value::Object(base), serde_json::Value::Object(patch)) =>
			for (key, value) in patch {
				merge_json(base.entry(key).or_insert(serde_json::Value::Null), value);
			},
		(base, patch) => *base = patch,
	}
}

/// The hash that block 1's header gives as its parent. The runtime records it as block 0's hash
/// (`System::BlockHash(0)`, which `CheckGenesis` and `CheckEra` read), so it is the genesis hash
/// that transactions sign for. Nothing checks it against the genesis state.
const GENESIS_HASH: H256 = H256([0x47; 32]);

/// Block 1's timestamp. On the dev chain (no Aura authorities) any timestamp is accepted.
const TIMESTAMP_MS: u64 = 6_000;

/// What the transactions of the block being built on `state` sign for: the genesis hash the
/// runtime holds and the blob's own versions. They are immortal, so there is no checkpoint.
fn chain_identity(runtime: &ValidatorRuntime, state: &mut BasicExternalities) -> ChainIdentity {
	let version: RuntimeVersion = runtime.call(state, "Core_version", &());
	ChainIdentity {
		genesis_hash: state.execute_with(|| System::block_hash(0)),
		spec_version: version.spec_version,
		transaction_version: version.transaction_version,
		checkpoint: None,
	}
}

/// A labelled extrinsic, so that a failure says which one failed.
type Labelled = (String, UncheckedExtrinsic);

/// Builds block 1 on `genesis` as a block author does, through the blob's runtime API: the
/// timestamp inherent first (Executive refuses inherents after transactions), then what `sign`
/// signs for the chain. Each extrinsic must apply and dispatch successfully.
fn author_block(runtime: &ValidatorRuntime, genesis: &Storage, sign: impl FnOnce(&ChainIdentity) -> Vec<Labelled>) -> Block {
	let mut state = BasicExternalities::new(genesis.clone());
	let header = Header::new(1, Default::default(), Default::default(), GENESIS_HASH, Default::default());
	let mode: ExtrinsicInclusionMode = runtime.call(&mut state, "Core_initialize_block", &header);
	assert_eq!(mode, ExtrinsicInclusionMode::AllExtrinsics, "block 1 takes transactions");

	let chain = chain_identity(runtime, &mut state);
	let timestamp = RuntimeCall::Timestamp(pallet_timestamp::Call::set { now: TIMESTAMP_MS });
	let mut extrinsics = vec![("timestamp inherent".to_owned(), UncheckedExtrinsic::new_bare_legacy(timestamp))];
	extrinsics.extend(sign(&chain));
	for (label, extrinsic) in &extrinsics {
		let applied: ApplyExtrinsicResult = runtime.call(&mut state, "BlockBuilder_apply_extrinsic", extrinsic);
		assert_eq!(applied, Ok(Ok(())), "{label}");
	}

	let header: Header = runtime.call(&mut state, "BlockBuilder_finalize_block", &());
	Block { header, extrinsics: extrinsics.into_iter().map(|(_, extrinsic)| extrinsic.into()).collect() }
}

/// Imports `block` on a fresh copy of `genesis`, as a validator checks it. `Core_execute_block`
/// checks every transaction again, signatures included, and panics unless the header's state and
/// extrinsics roots match what it computed. Returns the state after the block.
fn import_block(runtime: &ValidatorRuntime, genesis: &Storage, block: &Block) -> BasicExternalities {
	let mut state = BasicExternalities::new(genesis.clone());
	let () = runtime.call(&mut state, "Core_execute_block", block);
	state
}

/// `who`'s free balance in `state`.
fn free_balance(state: &mut BasicExternalities, who: &AccountId32) -> Balance {
	state.execute_with(|| frame_system::Account::<Runtime>::get(who).data.free)
}

/// What every transfer to the recipient sends.
const AMOUNT: Balance = UNIT;

/// What the committee's account is funded with, to pay its transfer and fee.
const COMMITTEE_FUNDS: Balance = 10 * UNIT;

/// The senders of the block's transactions: `//Alice` of every single-key scheme (all funded
/// at genesis) and a committee of three, two of whom sign. The recipient is `//Bob` (Ed25519).
struct Cast {
	alice: Vec<Keypair>,
	committee: Committee,
	signers: SignerBitfield,
	bob: AccountId32,
}

impl Cast {
	fn new() -> Self {
		let key = |scheme: Scheme, suri: &str| Keypair::from_suri(scheme, suri).expect("a dev secret URI");
		let committee = Committee::from_seed(&[0x50; 32], 3, 2);
		let signers = committee.signers([0, 1]).expect("two of the three members");
		Self {
			alice: Scheme::SINGLE_KEY.into_iter().map(|scheme| key(scheme, "//Alice")).collect(),
			committee,
			signers,
			bob: key(Scheme::Ed25519, "//Bob").account_id(),
		}
	}

	/// Every scheme and form in one block, in dependency order. Registered keys and committees
	/// are read from storage when each transaction is checked, so a key registered or a
	/// committee created earlier in the block can sign later in it:
	/// - every scheme's `//Alice` sends Bob [`AMOUNT`] with its key inline (nonce 0);
	/// - every ML-DSA `//Alice` registers its key (nonce 1), then sends Bob [`AMOUNT`] signed by
	///   the registered key (nonce 2);
	/// - Ed25519 `//Alice` creates the committee (nonce 1) and funds its account (nonce 2), then
	///   the committee sends Bob [`AMOUNT`] (nonce 0).
	fn transactions(&self, chain: &ChainIdentity) -> Vec<Labelled> {
		let sign = |sender: Sender, call: RuntimeCall, nonce: Nonce, form: Form| {
			transactions::sign(sender, call, nonce, 0, form, chain).expect("the sender signs in this form")
		};
		let to_bob = || transactions::transfer_call(self.bob.clone(), AMOUNT);
		let ml_dsa = || self.alice.iter().filter(|alice| alice.scheme().is_registerable());
		let mut block = Vec::new();

		for alice in &self.alice {
			block.push((format!("{} key inline", alice.scheme().name()), sign(alice.into(), to_bob(), 0, Form::KeyInline)));
		}
		for alice in ml_dsa() {
			let register = transactions::register_key_call(alice, &alice.account_id(), false, chain);
			block.push((format!("{} registers its key", alice.scheme().name()), sign(alice.into(), register, 1, Form::KeyInline)));
		}
		for alice in ml_dsa() {
			block.push((format!("{} registered key", alice.scheme().name()), sign(alice.into(), to_bob(), 2, Form::KeyRegistered)));
		}

		let owner = self.alice.iter().find(|alice| alice.scheme() == Scheme::Ed25519).expect("an Ed25519 //Alice");
		let create = transactions::create_committee_call(&self.committee, &owner.account_id(), chain);
		block.push(("create the committee".to_owned(), sign(owner.into(), create, 1, Form::KeyInline)));
		let fund = transactions::transfer_call(self.committee.id().account_id(), COMMITTEE_FUNDS);
		block.push(("fund the committee".to_owned(), sign(owner.into(), fund, 2, Form::KeyInline)));
		let committee = Sender::Committee { committee: &self.committee, signers: &self.signers };
		block.push(("committee".to_owned(), sign(committee, to_bob(), 0, Form::Committee)));
		block
	}

	/// How many of [`Self::transactions`] pay Bob: every scheme inline, every ML-DSA scheme
	/// registered, and the committee.
	fn transfers_to_bob() -> usize {
		Scheme::SINGLE_KEY.len() + Scheme::ML_DSA.len() + 1
	}
}

#[test]
fn a_block_of_every_scheme_and_form_executes_with_only_a_parachain_validators_host_functions() {
	let cast = Cast::new();
	for (name, blob) in pure_wasm_runtimes() {
		let runtime = ValidatorRuntime::new(blob);
		let genesis = runtime.development_genesis();
		let block = author_block(&runtime, &genesis, |chain| cast.transactions(chain));
		let mut imported = import_block(&runtime, &genesis, &block);
		let before = free_balance(&mut BasicExternalities::new(genesis.clone()), &cast.bob);
		assert_eq!(
			free_balance(&mut imported, &cast.bob),
			before + Cast::transfers_to_bob() as Balance * AMOUNT,
			"{name}: Bob received every transfer of the imported block"
		);
	}
}
