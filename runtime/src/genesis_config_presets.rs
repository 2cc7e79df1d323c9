//! Genesis presets: `development` and `local_testnet`, with dev accounts of every scheme and
//! the validators' consensus keys.
//!
//! The accounts are those of the secret URIs `//Alice` … `//Ferdie` under each scheme
//! ([`pq_crypto::signing::Keypair::from_suri`]). Deriving them needs `std` (BIP-39), which a
//! Wasm runtime does not have, so they are written out here and a test derives them again.

use crate::*;
use alloc::{vec, vec::Vec};
use hex_literal::hex;
use polkadot_sdk::{
	frame_support::genesis_builder_helper,
	sp_core::{ed25519, sr25519},
	sp_genesis_builder::{self, PresetId},
	sp_runtime::AccountId32,
};
use serde_json::Value;

/// What every dev account starts with.
pub const ENDOWMENT: Balance = 1_000_000 * UNIT;

/// Names of the dev accounts, in the order of each scheme's list.
pub const DEV_NAMES: [&str; 6] = ["Alice", "Bob", "Charlie", "Dave", "Eve", "Ferdie"];

/// Ed25519 dev accounts (the usual Substrate `//Alice` …).
pub const ED25519_DEV_ACCOUNTS: [[u8; 32]; 6] = [
	hex!("88dc3417d5058ec4b4503e0c12ea1a0a89be200fe98922423d4334014fa6b0ee"), // Alice
	hex!("d17c2d7823ebf260fd138f2d7e27d114c0145d968b5ff5006125f2414fadae69"), // Bob
	hex!("439660b36c6c03afafca027b910b4fecf99801834c62a5e6006f27d978de234f"), // Charlie
	hex!("5e639b43e0052c47447dac87d6fd2b6ec50bdd4d0f614e4299c665249bbd09d9"), // Dave
	hex!("1dfe3e22cc0d45c70779c1095f7489a8ef3cf52d62fbd8c2fa38c9f1723502b5"), // Eve
	hex!("568cb4a574c6d178feb39c27dfc8b3f789e5f5423e19c71633c748b9acf086b5"), // Ferdie
];

/// ML-DSA-44 dev accounts.
pub const ML_DSA_44_DEV_ACCOUNTS: [[u8; 32]; 6] = [
	hex!("c083b6a54925146e69dba1acabb0599a134b68f06a26d5efc51ec85ab6a32db9"), // Alice
	hex!("c0f363b1a01201920fa4f4de2ccdfea54c79cfedcc55a3e9600e7a399ff843a8"), // Bob
	hex!("c23db7cc5f985dbe4a1948090d16135fbeb00165c0ff6ab2b0d24469988cc73c"), // Charlie
	hex!("c36425639a4e1e603e9fdf63057f3139a9b6eb6f0d89d87767f56d18a03226c3"), // Dave
	hex!("28fae6529c6128631bfe14cac0eb0ce8f0c9927ba335ec40f85c5f60a3547f8c"), // Eve
	hex!("4a4a3520a95a0f55f6fd6367d8174a7b47e5361938e146abbac76b150b3cd73c"), // Ferdie
];

/// ML-DSA-65 dev accounts.
pub const ML_DSA_65_DEV_ACCOUNTS: [[u8; 32]; 6] = [
	hex!("a32f4d8f9939ad75c0b9b18f4b678d8890c8aef2bb6ecc8ab388652f859d8da4"), // Alice
	hex!("7ae491f4f7cdb9ddf0190c39a413845567fd7eb7a94ef38aead9d17de93d5b81"), // Bob
	hex!("0a63a377e656a8a774af9b16c0749c6c8206f83a679c9e5ee3792eaa72c56f01"), // Charlie
	hex!("3e2b9e8c8896606c1c16ed0c2dadc8c992f90364c68c678808f2a14773b141c7"), // Dave
	hex!("fea6c2367c6fb80325ce64ede46660cf060cc44c26442ef6f7c97dcdacc571c6"), // Eve
	hex!("08b67c6cb07f7e83c5b35241a27d683639d6677f01c416f25bb563a8e2fdc117"), // Ferdie
];

/// ML-DSA-87 dev accounts.
pub const ML_DSA_87_DEV_ACCOUNTS: [[u8; 32]; 6] = [
	hex!("4716a2cf99166cce88f8c750ef036b0403ca105b62f4db65bb1fc5cf804d71c1"), // Alice
	hex!("3c7f733fee38ea28af21a2103807991804129b45229e66e4e69df13f3d916cb1"), // Bob
	hex!("02fbd083b7cfb683a066572360a09cc2e57e843ef4324230b0de865856f34b5f"), // Charlie
	hex!("db696e85661fc631445a79fcf440cd6c67901b19723a0cc02f00202c0130f887"), // Dave
	hex!("a3fb21dbda4a4c81f904d765baa08434ec93caee90f8e822465f777a21e9f05a"), // Eve
	hex!("c3446c8a158a371ad39f794d978f1678df7b76c1593106d8cc9e60a374e28e7e"), // Ferdie
];

/// Sr25519 keys of `//Alice` … `//Ferdie`: the validators' Aura keys (their GRANDPA keys are
/// the Ed25519 ones, [`ED25519_DEV_ACCOUNTS`]), as `--alice` … `--ferdie` put them in a node's
/// keystore.
pub const SR25519_DEV_KEYS: [[u8; 32]; 6] = [
	hex!("d43593c715fdd31c61141abd04a99fd6822c8558854ccde39a5684e7a56da27d"), // Alice
	hex!("8eaf04151687736326c9fea17e25fc5287613693c912909cb226aa4794f26a48"), // Bob
	hex!("90b5ab205c6974c9ea841be688864633dc9ca8a357843eeacf2314649965fe22"), // Charlie
	hex!("306721211d5404bd9da88e0204360a1a9ab8b87c66c1bc2fcdd37f3c2222cc20"), // Dave
	hex!("e659a7a1628cdd93febc04a4e0646ea20e9f5f0ce097d9a05290d4a9e054df4e"), // Eve
	hex!("1cbd2d43530a44705ad088af313e18f80b53ef16b36177cd4b77b846f2a5f07c"), // Ferdie
];

/// Validators of the `local_testnet` preset: `//Alice`, `//Bob`, `//Charlie`.
pub const LOCAL_TESTNET_VALIDATORS: usize = 3;

/// The genesis field that sets Aura's slot, the block time, in milliseconds (default 6,000).
/// Not a pallet's: [`build_state`] takes it out and stores it as
/// [`crate::configs::AuraSlotDuration`].
pub const SLOT_DURATION_FIELD: &str = "auraSlotDurationMs";

/// Every dev account of every scheme.
pub fn dev_accounts() -> Vec<AccountId32> {
	[ED25519_DEV_ACCOUNTS, ML_DSA_44_DEV_ACCOUNTS, ML_DSA_65_DEV_ACCOUNTS, ML_DSA_87_DEV_ACCOUNTS]
		.iter()
		.flatten()
		.map(|bytes| AccountId32::new(*bytes))
		.collect()
}

/// `//Alice` (Ed25519), the sudo key of the dev presets.
pub fn alice() -> AccountId32 {
	AccountId32::new(ED25519_DEV_ACCOUNTS[0])
}

/// Every dev account endowed, `//Alice` (Ed25519) sudo, and the first `validators` dev names
/// as Aura and GRANDPA authorities (equal weights; none for the dev chain).
fn genesis(validators: usize) -> Value {
	let balances: Vec<(AccountId32, Balance)> = dev_accounts().into_iter().map(|who| (who, ENDOWMENT)).collect();
	let aura: Vec<AuraId> = SR25519_DEV_KEYS[..validators].iter().map(|key| sr25519::Public::from_raw(*key).into()).collect();
	let grandpa: Vec<(GrandpaId, u64)> =
		ED25519_DEV_ACCOUNTS[..validators].iter().map(|key| (ed25519::Public::from_raw(*key).into(), 1)).collect();
	serde_json::json!({
		"balances": { "balances": balances },
		"sudo": { "key": Some(alice()) },
		"aura": { "authorities": aura },
		"grandpa": { "authorities": grandpa },
	})
}

/// The `development` preset: every dev account endowed, `//Alice` (Ed25519) sudo, and no
/// validators: the node seals its blocks on demand.
pub fn development() -> Value {
	genesis(0)
}

/// The `local_testnet` preset: [`LOCAL_TESTNET_VALIDATORS`] validators, 6 s blocks.
pub fn local_testnet() -> Value {
	local_testnet_of(LOCAL_TESTNET_VALIDATORS).expect("a valid number of validators")
}

/// A local testnet of the first `validators` dev names, 6 s blocks (change
/// [`SLOT_DURATION_FIELD`] in the chain specification for another block time); refused unless
/// 1 to 6.
pub fn local_testnet_of(validators: usize) -> Result<Value, alloc::string::String> {
	if !(1..=DEV_NAMES.len()).contains(&validators) {
		return Err(alloc::format!("a local testnet has 1 to {} validators, not {validators}", DEV_NAMES.len()));
	}
	let mut patch = genesis(validators);
	patch[SLOT_DURATION_FIELD] = configs::DEFAULT_SLOT_DURATION_MS.into();
	Ok(patch)
}

/// Block times [`build_state`] accepts, in milliseconds. The block time is fixed at genesis:
/// a chain whose slot duration changed later would refuse its own next blocks.
pub const SLOT_DURATIONS_MS: core::ops::RangeInclusive<u64> = 100..=3_600_000;

/// Builds the genesis state of `config` (a preset merged into the default configuration), with
/// [`SLOT_DURATION_FIELD`] taken out of it and stored as Aura's slot duration.
pub fn build_state(config: Vec<u8>) -> sp_genesis_builder::Result {
	let mut json: Value = serde_json::from_slice(&config).map_err(|error| alloc::format!("genesis config: {error}"))?;
	let slot = json.as_object_mut().and_then(|fields| fields.remove(SLOT_DURATION_FIELD));
	let config = serde_json::to_vec(&json).map_err(|error| alloc::format!("genesis config: {error}"))?;
	genesis_builder_helper::build_state::<RuntimeGenesisConfig>(config)?;
	if let Some(slot) = slot {
		let millis = slot.as_u64().filter(|millis| SLOT_DURATIONS_MS.contains(millis)).ok_or_else(|| {
			alloc::format!("{SLOT_DURATION_FIELD}: milliseconds from {} to {}", SLOT_DURATIONS_MS.start(), SLOT_DURATIONS_MS.end())
		})?;
		configs::AuraSlotDuration::set(&millis);
	}
	Ok(())
}

/// The preset called `id`, as JSON.
pub fn get_preset(id: &PresetId) -> Option<Vec<u8>> {
	let patch = match id.as_ref() {
		sp_genesis_builder::DEV_RUNTIME_PRESET => development(),
		sp_genesis_builder::LOCAL_TESTNET_RUNTIME_PRESET => local_testnet(),
		_ => return None,
	};
	serde_json::to_vec(&patch).ok()
}

/// The presets this runtime offers.
pub fn preset_names() -> Vec<PresetId> {
	vec![
		PresetId::from(sp_genesis_builder::DEV_RUNTIME_PRESET),
		PresetId::from(sp_genesis_builder::LOCAL_TESTNET_RUNTIME_PRESET),
	]
}
