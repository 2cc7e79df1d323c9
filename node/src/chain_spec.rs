//! Chain specifications: the built-in dev and local chains, or a JSON file.

use polkadot_sdk::{
	sc_chain_spec::NoExtension,
	sc_service::{ChainType, GenericChainSpec, Properties},
	sp_genesis_builder::{DEV_RUNTIME_PRESET, LOCAL_TESTNET_RUNTIME_PRESET},
};
use pq_runtime::genesis_config_presets;
use std::path::PathBuf;

/// This node's chain specification: no extensions; genesis is built with pq-verifier's host
/// functions available to the runtime.
pub type ChainSpec = GenericChainSpec<NoExtension, pq_crypto::host::pq_verify::HostFunctions>;

/// Which of the runtime's Wasm blobs a chain runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verifier {
	/// Signatures verified through the node's host functions (the default).
	HostFunctions,
	/// Signatures verified inside the runtime (`pure-wasm-verifier`): runs on any node.
	PureWasm,
}

/// The runtime's Wasm blob for `verifier`, or why there is none.
fn wasm_binary(verifier: Verifier) -> Result<&'static [u8], String> {
	match verifier {
		Verifier::HostFunctions => pq_runtime::WASM_BINARY,
		Verifier::PureWasm => pq_runtime::pure_wasm::WASM_BINARY,
	}
	.ok_or_else(|| {
		"pq-runtime was built without its Wasm blobs (SKIP_WASM_BUILD is set); rebuild without it"
			.into()
	})
}

/// Token metadata wallets and the CLI display.
fn properties() -> Properties {
	let mut properties = Properties::new();
	properties.insert("tokenSymbol".into(), "UNIT".into());
	properties.insert("tokenDecimals".into(), 12.into());
	properties.insert("ss58Format".into(), 42.into());
	properties
}

/// A chain of the runtime's genesis preset `preset`.
fn from_preset(
	name: &str,
	id: &str,
	chain_type: ChainType,
	preset: &str,
	verifier: Verifier,
) -> Result<ChainSpec, String> {
	Ok(ChainSpec::builder(wasm_binary(verifier)?, Default::default())
		.with_name(name)
		.with_id(id)
		.with_chain_type(chain_type)
		.with_genesis_config_preset_name(preset)
		.with_properties(properties())
		.build())
}

/// `--dev`: the `development` preset, every dev account of every scheme endowed.
pub fn development() -> Result<ChainSpec, String> {
	from_preset(
		"pq-verifier development",
		"dev",
		ChainType::Development,
		DEV_RUNTIME_PRESET,
		Verifier::HostFunctions,
	)
}

/// `--chain dev-pure-wasm`: the development chain on the runtime that verifies in Wasm.
pub fn development_pure_wasm() -> Result<ChainSpec, String> {
	from_preset(
		"pq-verifier development (pure-Wasm verifier)",
		"dev_pure_wasm",
		ChainType::Development,
		DEV_RUNTIME_PRESET,
		Verifier::PureWasm,
	)
}

/// `--chain local`: the `local_testnet` preset, three validators (`//Alice`, `//Bob`,
/// `//Charlie`) with 6 s blocks.
pub fn local_testnet() -> Result<ChainSpec, String> {
	from_preset(
		"pq-verifier local testnet",
		"local_testnet",
		ChainType::Local,
		LOCAL_TESTNET_RUNTIME_PRESET,
		Verifier::HostFunctions,
	)
}

/// `--chain local-<n>`: a local testnet of the first `n` (1 to 6) of `//Alice` … `//Ferdie`.
pub fn local_testnet_of(validators: usize) -> Result<ChainSpec, String> {
	let patch = genesis_config_presets::local_testnet_of(validators)
		.map_err(|error| format!("local-{validators}: {error}"))?;
	Ok(ChainSpec::builder(wasm_binary(Verifier::HostFunctions)?, Default::default())
		.with_name(&format!("pq-verifier local testnet of {validators}"))
		.with_id(&format!("local_testnet_{validators}"))
		.with_chain_type(ChainType::Local)
		.with_genesis_config_patch(patch)
		.with_properties(properties())
		.build())
}

/// The chain named by `--chain`: `dev` (also the default), `dev-pure-wasm`, `local`,
/// `local-<n>`, or a path to a JSON chain specification such as `build-spec` writes.
pub fn load(id: &str) -> Result<Box<dyn polkadot_sdk::sc_service::ChainSpec>, String> {
	Ok(match id {
		"" | "dev" => Box::new(development()?),
		"dev-pure-wasm" => Box::new(development_pure_wasm()?),
		"local" => Box::new(local_testnet()?),
		// Digits only: `local-4.json` is a file.
		other => match other.strip_prefix("local-").filter(|validators| {
			!validators.is_empty() && validators.bytes().all(|byte| byte.is_ascii_digit())
		}) {
			Some(validators) => Box::new(local_testnet_of(
				validators.parse().map_err(|_| format!("{other}: local-<validators>, 1 to 6"))?,
			)?),
			None => Box::new(ChainSpec::from_json_file(PathBuf::from(other)).map_err(|error| {
				let preset = if other.starts_with("local-") {
					" (nor the preset local-<validators>, 1 to 6)"
				} else {
					""
				};
				format!("chain specification {other}: {error}{preset}")
			})?),
		},
	})
}

#[cfg(test)]
mod tests {
	use super::*;
	use polkadot_sdk::{sc_service::ChainSpec as _, sp_runtime::BuildStorage};
	use pq_runtime::genesis_config_presets::{dev_accounts, ENDOWMENT};

	/// `--chain local-4.json` (a chain spec file, perhaps of four validators) was taken for the
	/// `local-4` preset, and a node ran the preset's chain instead of the file's.
	#[test]
	fn a_chain_spec_file_named_like_a_preset_is_read_as_a_file() {
		assert_eq!(load("local-4").unwrap().id(), "local_testnet_4");
		for file in ["local-4.json", "local-", "local-4x"] {
			let refusal = load(file).map(|spec| spec.id().to_owned()).unwrap_err();
			assert!(refusal.starts_with(&format!("chain specification {file}: ")), "{refusal}");
		}
	}

	#[test]
	fn dev_chain_spec_builds_the_preset_genesis() {
		let spec = development().unwrap();
		assert_eq!(spec.id(), "dev");
		assert_eq!(spec.chain_type(), ChainType::Development);
		let storage = spec.build_storage().expect("the development preset builds a genesis state");
		let json = spec.as_json(true).expect("the raw chain spec serializes");
		assert!(json.contains("\"raw\""));
		assert!(!storage.top.is_empty());

		polkadot_sdk::sp_io::TestExternalities::new(storage).execute_with(|| {
			use polkadot_sdk::frame_support::traits::fungible::Inspect;
			for account in dev_accounts() {
				assert_eq!(pq_runtime::Balances::balance(&account), ENDOWMENT);
			}
		});
	}

	#[test]
	fn pure_wasm_chain_runs_the_other_blob_with_the_same_genesis_state() {
		use polkadot_sdk::sp_core::storage::well_known_keys::CODE;
		let host = development().unwrap().build_storage().unwrap();
		let pure = load("dev-pure-wasm").unwrap().as_storage_builder().build_storage().unwrap();
		// The code differs, and so does the spec version genesis records (30 and 31).
		let upgrade =
			polkadot_sdk::frame_system::LastRuntimeUpgrade::<pq_runtime::Runtime>::hashed_key();
		for key in [CODE, &upgrade[..]] {
			assert_ne!(host.top[key], pure.top[key]);
		}
		let without_code = |storage: &polkadot_sdk::sp_core::storage::Storage| {
			let mut top = storage.top.clone();
			top.remove(CODE);
			top.remove(&upgrade[..]);
			top
		};
		assert_eq!(without_code(&host), without_code(&pure));
	}

	#[test]
	fn built_spec_round_trips_through_a_file() {
		let dir = tempfile::tempdir().unwrap();
		let path = dir.path().join("spec.json");
		std::fs::write(&path, development().unwrap().as_json(true).unwrap()).unwrap();
		let loaded = load(path.to_str().unwrap()).unwrap();
		assert_eq!(loaded.id(), "dev");
		assert_eq!(
			loaded.as_storage_builder().build_storage().unwrap().top,
			development().unwrap().build_storage().unwrap().top
		);
	}

	#[test]
	fn a_local_testnet_of_n_has_n_validators_and_6_s_blocks() {
		for validators in 1..=6 {
			let storage = load(&format!("local-{validators}"))
				.unwrap()
				.as_storage_builder()
				.build_storage()
				.unwrap();
			polkadot_sdk::sp_io::TestExternalities::new(storage).execute_with(|| {
				assert_eq!(pq_runtime::Aura::authorities_len(), validators);
				assert_eq!(pq_runtime::Aura::slot_duration(), 6_000);
			});
		}
		let storage = load("local").unwrap().as_storage_builder().build_storage().unwrap();
		polkadot_sdk::sp_io::TestExternalities::new(storage).execute_with(|| {
			assert_eq!(
				pq_runtime::Aura::authorities_len(),
				genesis_config_presets::LOCAL_TESTNET_VALIDATORS
			)
		});
		for refused in ["local-0", "local-7"] {
			let error = load(refused).expect_err("refused");
			assert!(error.contains("1 to 6 validators"), "{error}");
		}
		for malformed in ["local-", "local-abc", "local--1"] {
			assert!(load(malformed).expect_err("refused").contains("local-<validators>"));
		}
	}

	#[test]
	fn malformed_chain_spec_is_an_error_naming_the_file() {
		let dir = tempfile::tempdir().unwrap();
		let path = dir.path().join("broken.json");
		std::fs::write(&path, "{ \"name\": 42 ").unwrap();
		let error = load(path.to_str().unwrap()).expect_err("a malformed file is refused");
		assert!(error.contains("broken.json"), "{error}");
		assert!(load("/no/such/spec.json").is_err());
	}
}
