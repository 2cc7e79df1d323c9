//! Chain specifications: the built-in dev and local chains, or a JSON file.

use polkadot_sdk::{
	sc_service::{ChainType, GenericChainSpec, Properties},
	sp_genesis_builder::{DEV_RUNTIME_PRESET, LOCAL_TESTNET_RUNTIME_PRESET},
};
use std::path::PathBuf;

/// This node's chain specification: no extensions.
pub type ChainSpec = GenericChainSpec;

/// The runtime's Wasm blob, or why there is none.
fn wasm_binary() -> Result<&'static [u8], String> {
	pq_runtime::WASM_BINARY
		.ok_or_else(|| "pq-runtime was built without its Wasm blob (SKIP_WASM_BUILD is set); rebuild without it".into())
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
fn from_preset(name: &str, id: &str, chain_type: ChainType, preset: &str) -> Result<ChainSpec, String> {
	Ok(ChainSpec::builder(wasm_binary()?, Default::default())
		.with_name(name)
		.with_id(id)
		.with_chain_type(chain_type)
		.with_genesis_config_preset_name(preset)
		.with_properties(properties())
		.build())
}

/// `--dev`: the `development` preset, every dev account of every scheme endowed.
pub fn development() -> Result<ChainSpec, String> {
	from_preset("pq-verifier development", "dev", ChainType::Development, DEV_RUNTIME_PRESET)
}

/// `--chain local`: the `local_testnet` preset.
pub fn local_testnet() -> Result<ChainSpec, String> {
	from_preset("pq-verifier local testnet", "local_testnet", ChainType::Local, LOCAL_TESTNET_RUNTIME_PRESET)
}

/// The chain named by `--chain`: `dev` (also the default), `local`, or a path to a JSON chain
/// specification such as `build-spec` writes.
pub fn load(id: &str) -> Result<Box<dyn polkadot_sdk::sc_service::ChainSpec>, String> {
	Ok(match id {
		"" | "dev" => Box::new(development()?),
		"local" => Box::new(local_testnet()?),
		path => Box::new(
			ChainSpec::from_json_file(PathBuf::from(path)).map_err(|error| format!("chain specification {path}: {error}"))?,
		),
	})
}

#[cfg(test)]
mod tests {
	use super::*;
	use polkadot_sdk::{sc_service::ChainSpec as _, sp_runtime::BuildStorage};
	use pq_runtime::genesis_config_presets::{dev_accounts, ENDOWMENT};

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
	fn malformed_chain_spec_is_an_error_naming_the_file() {
		let dir = tempfile::tempdir().unwrap();
		let path = dir.path().join("broken.json");
		std::fs::write(&path, "{ \"name\": 42 ").unwrap();
		let error = load(path.to_str().unwrap()).err().expect("a malformed file is refused");
		assert!(error.contains("broken.json"), "{error}");
		assert!(load("/no/such/spec.json").is_err());
	}
}
