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

use codec::Encode;
use polkadot_sdk::{
	frame_system, sc_executor::HostFunctions, sp_runtime::AccountId32,
	sp_state_machine::BasicExternalities,
};
use pq_benchmarks::parachain::{PvfHostFunctions, ValidatorRuntime};
use pq_crypto::{aggregate::SignerBitfield, Scheme};
use pq_runtime::{Balance, Nonce, Runtime, RuntimeCall, UNIT};
use pq_runtime_client::transactions::{self, ChainIdentity, Form, Sender};
use pq_signer::{aggregator::Committee, signing::Keypair};
use std::{collections::BTreeSet, fmt};

/// A labelled extrinsic, encoded, so that a failure says which one failed.
type Labelled = (String, Vec<u8>);

/// The names of [`PvfHostFunctions`] as polkadot-sdk 2609 defines them, frozen: the allow-list
/// is this list, not whatever the sp-io of this workspace provides, so a bump that adds a host
/// function the runtime then calls cannot pass unnoticed
/// (`the_frozen_pvf_host_functions_are_those_of_this_polkadot_sdk` says when to update it, and
/// validators must run a release with the new function before a runtime may call it).
const PVF_HOST_FUNCTIONS: &[&str] = &[
	"ext_allocator_free_version_1",
	"ext_allocator_malloc_version_1",
	"ext_crypto_ecdsa_batch_verify_version_1",
	"ext_crypto_ecdsa_generate_version_1",
	"ext_crypto_ecdsa_public_keys_version_1",
	"ext_crypto_ecdsa_sign_prehashed_version_1",
	"ext_crypto_ecdsa_sign_version_1",
	"ext_crypto_ecdsa_verify_prehashed_version_1",
	"ext_crypto_ecdsa_verify_version_1",
	"ext_crypto_ecdsa_verify_version_2",
	"ext_crypto_ed25519_batch_verify_version_1",
	"ext_crypto_ed25519_generate_version_1",
	"ext_crypto_ed25519_public_keys_version_1",
	"ext_crypto_ed25519_sign_version_1",
	"ext_crypto_ed25519_verify_version_1",
	"ext_crypto_finish_batch_verify_version_1",
	"ext_crypto_secp256k1_ecdsa_recover_compressed_version_1",
	"ext_crypto_secp256k1_ecdsa_recover_compressed_version_2",
	"ext_crypto_secp256k1_ecdsa_recover_version_1",
	"ext_crypto_secp256k1_ecdsa_recover_version_2",
	"ext_crypto_sr25519_batch_verify_version_1",
	"ext_crypto_sr25519_generate_version_1",
	"ext_crypto_sr25519_public_keys_version_1",
	"ext_crypto_sr25519_sign_version_1",
	"ext_crypto_sr25519_verify_version_1",
	"ext_crypto_sr25519_verify_version_2",
	"ext_crypto_start_batch_verify_version_1",
	"ext_hashing_blake2_128_version_1",
	"ext_hashing_blake2_256_version_1",
	"ext_hashing_keccak_256_version_1",
	"ext_hashing_keccak_512_version_1",
	"ext_hashing_sha2_256_version_1",
	"ext_hashing_twox_128_version_1",
	"ext_hashing_twox_256_version_1",
	"ext_hashing_twox_64_version_1",
	"ext_logging_log_version_1",
	"ext_logging_max_level_version_1",
	"ext_misc_print_hex_version_1",
	"ext_misc_print_num_version_1",
	"ext_misc_print_utf8_version_1",
	"ext_misc_runtime_version_version_1",
	"ext_trie_blake2_256_ordered_root_version_1",
	"ext_trie_blake2_256_ordered_root_version_2",
	"ext_trie_blake2_256_root_version_1",
	"ext_trie_blake2_256_root_version_2",
	"ext_trie_blake2_256_verify_proof_version_1",
	"ext_trie_blake2_256_verify_proof_version_2",
	"ext_trie_keccak_256_ordered_root_version_1",
	"ext_trie_keccak_256_ordered_root_version_2",
	"ext_trie_keccak_256_root_version_1",
	"ext_trie_keccak_256_root_version_2",
	"ext_trie_keccak_256_verify_proof_version_1",
	"ext_trie_keccak_256_verify_proof_version_2",
];

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

/// The pure-Wasm runtimes that were built: the chain's (our verifier), and the one with libcrux
/// if it was built for the benchmarks (`PQ_PURE_WASM_LIBCRUX`).
fn pure_wasm_runtimes() -> Vec<(&'static str, &'static [u8])> {
	let pure = pq_runtime::pure_wasm::WASM_BINARY
		.expect("pq-runtime built with its Wasm blobs (SKIP_WASM_BUILD unset)");
	let libcrux =
		pq_runtime::pure_wasm_libcrux::WASM_BINARY.map(|blob| ("pure Wasm with libcrux", blob));
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
	let code =
		sp_maybe_compressed_blob::decompress(blob, sp_maybe_compressed_blob::CODE_BLOB_BOMB_LIMIT)
			.expect("a runtime blob decompresses");
	let mut imports = Vec::new();
	for payload in wasmparser::Parser::new(0).parse_all(&code) {
		if let wasmparser::Payload::ImportSection(section) =
			payload.expect("a well-formed Wasm module")
		{
			for import in section {
				let import = import.expect("a well-formed import");
				if let wasmparser::TypeRef::Func(_) = import.ty {
					imports.push(FunctionImport {
						module: import.module.to_owned(),
						name: import.name.to_owned(),
					});
				}
			}
		}
	}
	imports
}

/// The import names of the host functions `H`.
fn host_function_names<H: HostFunctions>() -> BTreeSet<String> {
	H::host_functions()
		.into_iter()
		.map(|function| function.name().to_owned())
		.collect()
}

/// What a runtime may import to run on a parachain validator: the PVF's host functions and
/// the storage functions cumulus implements in Wasm.
fn parachain_validator_imports() -> BTreeSet<String> {
	PVF_HOST_FUNCTIONS
		.iter()
		.chain(REPLACED_IN_WASM_BY_CUMULUS)
		.map(|name| name.to_string())
		.collect()
}

/// The imports of `imports` that are not in `allowed`. Host functions live in module `env`.
fn not_allowed<'a>(
	imports: &'a [FunctionImport],
	allowed: &BTreeSet<String>,
) -> Vec<&'a FunctionImport> {
	imports
		.iter()
		.filter(|import| import.module != "env" || !allowed.contains(&import.name))
		.collect()
}

#[test]
fn the_frozen_pvf_host_functions_are_those_of_this_polkadot_sdk() {
	let frozen: BTreeSet<String> = PVF_HOST_FUNCTIONS.iter().map(|name| name.to_string()).collect();
	assert_eq!(
		host_function_names::<PvfHostFunctions>(),
		frozen,
		"sp-io changed the PVF's host functions: check polkadot-node-core-pvf-common's list and the \
		 relay chain's node release before updating PVF_HOST_FUNCTIONS"
	);
}

#[test]
fn the_pure_wasm_runtime_imports_only_what_a_parachain_validator_provides() {
	let allowed = parachain_validator_imports();
	for (runtime, blob) in pure_wasm_runtimes() {
		let imports = function_imports(blob);
		assert!(
			imports.iter().any(|import| import.name == "ext_storage_get_version_1"),
			"{runtime}: imports were read"
		);
		let offenders = not_allowed(&imports, &allowed);
		assert!(
			offenders.is_empty(),
			"{runtime} imports what a parachain validator does not provide: {}",
			offenders.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ")
		);
	}

	// The check can fail: the host-function runtime imports this project's own host
	// functions, which no validator has.
	let host_function_runtime = pq_runtime::WASM_BINARY
		.expect("pq-runtime built with its Wasm blobs (SKIP_WASM_BUILD unset)");
	let imports = function_imports(host_function_runtime);
	let offenders = not_allowed(&imports, &allowed);
	assert!(
		offenders.iter().any(|import| import.name.starts_with("ext_pq_verify_")),
		"the host-function runtime must fail the check through ext_pq_verify_*, but fails it by: {offenders:?}"
	);
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
		let key = |scheme: Scheme, suri: &str| {
			Keypair::from_suri(scheme, suri).expect("a dev secret URI")
		};
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
	/// - ML-DSA-87 `//Alice` (an owner must be post-quantum) creates the committee (nonce 3) and
	///   funds its account (nonce 4), then the committee sends Bob [`AMOUNT`] (nonce 0).
	fn transactions(&self, chain: &ChainIdentity) -> Vec<Labelled> {
		let sign = |sender: Sender, call: RuntimeCall, nonce: Nonce, form: Form| {
			transactions::sign(sender, call, nonce, 0, form, chain)
				.expect("the sender signs in this form")
				.encode()
		};
		let to_bob = || transactions::transfer_call(self.bob.clone(), AMOUNT);
		let ml_dsa = || self.alice.iter().filter(|alice| alice.scheme().is_registerable());
		let mut block = Vec::new();

		for alice in &self.alice {
			block.push((
				format!("{} key inline", alice.scheme().name()),
				sign(alice.into(), to_bob(), 0, Form::KeyInline),
			));
		}
		for alice in ml_dsa() {
			let register =
				transactions::register_key_call(alice, &alice.account_id(), false, chain);
			block.push((
				format!("{} registers its key", alice.scheme().name()),
				sign(alice.into(), register, 1, Form::KeyInline),
			));
		}
		for alice in ml_dsa() {
			block.push((
				format!("{} registered key", alice.scheme().name()),
				sign(alice.into(), to_bob(), 2, Form::KeyRegistered),
			));
		}

		let owner = self
			.alice
			.iter()
			.find(|alice| alice.scheme() == Scheme::MlDsa87)
			.expect("an ML-DSA-87 //Alice");
		let create =
			transactions::create_committee_call(&self.committee, &owner.account_id(), chain);
		block.push((
			"create the committee".to_owned(),
			sign(owner.into(), create, 3, Form::KeyInline),
		));
		let fund = transactions::transfer_call(self.committee.id().account_id(), COMMITTEE_FUNDS);
		block.push(("fund the committee".to_owned(), sign(owner.into(), fund, 4, Form::KeyInline)));
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
		let authored = runtime
			.author_block(&genesis, None, |chain| cast.transactions(chain))
			.unwrap_or_else(|error| panic!("{name}: {error}"));
		let mut imported = runtime.import_block(&genesis, &authored.block);
		let before = free_balance(&mut BasicExternalities::new(genesis.clone()), &cast.bob);
		assert_eq!(
			free_balance(&mut imported, &cast.bob),
			before + Cast::transfers_to_bob() as Balance * AMOUNT,
			"{name}: Bob received every transfer of the imported block"
		);
	}

	// The executor can refuse: the host-function runtime does not even instantiate in it.
	let host_function_runtime = ValidatorRuntime::new(
		pq_runtime::WASM_BINARY.expect("pq-runtime built with its Wasm blobs"),
	);
	let refused = host_function_runtime.try_call::<polkadot_sdk::sp_version::RuntimeVersion>(
		&mut BasicExternalities::new_empty(),
		"Core_version",
		&(),
	);
	let error = refused.expect_err(
		"a runtime importing ext_pq_verify_* does not run with a validator's host functions",
	);
	assert!(error.contains("ext_pq_verify"), "{error}");
}
