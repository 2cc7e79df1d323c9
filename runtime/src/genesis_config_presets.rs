//! Genesis presets: `development` and `local_testnet`, with dev accounts of every scheme.
//!
//! The accounts are those of the secret URIs `//Alice` … `//Ferdie` under each scheme
//! ([`pq_crypto::signing::Keypair::from_suri`]). Deriving them needs `std` (BIP-39), which a
//! Wasm runtime does not have, so they are written out here and a test derives them again.

use crate::*;
use alloc::{vec, vec::Vec};
use hex_literal::hex;
use polkadot_sdk::{
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

fn genesis(endowed: Vec<AccountId32>, root: AccountId32) -> Value {
	let balances: Vec<(AccountId32, Balance)> = endowed.into_iter().map(|who| (who, ENDOWMENT)).collect();
	serde_json::json!({
		"balances": { "balances": balances },
		"sudo": { "key": Some(root) },
	})
}

/// The `development` preset: every dev account endowed, `//Alice` (Ed25519) is sudo.
pub fn development() -> Value {
	genesis(dev_accounts(), alice())
}

/// The `local_testnet` preset: the same accounts, under the id local networks use.
pub fn local_testnet() -> Value {
	genesis(dev_accounts(), alice())
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
