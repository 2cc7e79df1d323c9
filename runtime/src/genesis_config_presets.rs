//! Genesis presets: `development` and `local_testnet`, with dev accounts of every scheme and
//! the validators' consensus keys.
//!
//! The accounts are those of the secret URIs `//Alice` … `//Ferdie` under each scheme
//! ([`pq_signer::signing::Keypair::from_suri`]). Deriving them needs `std` (BIP-39), which a
//! Wasm runtime does not have, so they are written out here and a test derives them again.

use crate::*;
use alloc::{vec, vec::Vec};
use hex_literal::hex;
use polkadot_sdk::{
	frame_support::traits::{BuildGenesisConfig, Get},
	pallet_balances,
	sp_core::{ed25519, hexdisplay::HexDisplay, sr25519},
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
	hex!("dd17fdbc997aa1ca739e6345df592ec0433f43a187e3edf74d063786215e2081"), // Alice
	hex!("43d00e3eedb02abcf39aa5982c4a36defab9fa85c0aeb70fbb003a4291f9c8a8"), // Bob
	hex!("c76a5d158f97c39957d9c53e0ba4113c6e6e8885f76e85cc5f05330fe249c4be"), // Charlie
	hex!("72be02e95eacab2c4b6537d6b6366b5c6e0f4334e99b84ba3899400befaf3ef3"), // Dave
	hex!("b2f4b10fc1a05c5264ceaaf5cb5e58d223a40dbc352e2499d3b942bc3b7741b1"), // Eve
	hex!("d72fa9ea76153cd6f879e2a02a2bef0b2b3642058da5029658e63f7934b087a4"), // Ferdie
];

/// ML-DSA-65 dev accounts.
pub const ML_DSA_65_DEV_ACCOUNTS: [[u8; 32]; 6] = [
	hex!("1cbadeb1efa9237091c613d824f27a8a4d02fcc10efe41f5db8a08e9ecce48bd"), // Alice
	hex!("1c628595ec87e546a774a6a8d2758f8b249a50fb0e6107d43597efc1313af388"), // Bob
	hex!("3e4224fe4837baeda32e6ed48632d8196ace8f357cb21576243ebe082b4f8d86"), // Charlie
	hex!("f41b28f80285ccc95f2eb416713c0b31635904600f7d2d48c197b7cfe10eb5c2"), // Dave
	hex!("92fcb1a5af9be6adfb0f606b70bb48c8c9e2ddb101199e10afcfd73a5428d1cf"), // Eve
	hex!("39fd524996b626388764ce6ab54aa04c80a69ae03a714577274d45f4e2d00b9c"), // Ferdie
];

/// ML-DSA-87 dev accounts.
pub const ML_DSA_87_DEV_ACCOUNTS: [[u8; 32]; 6] = [
	hex!("4905517e5b90c94e58b08bcf27c86577b4ac2943db598639127dce8a48f0f0f3"), // Alice
	hex!("09f7ce62a09f4de2752a6f09c4766d98e0dbbd2df976c001cb4503fdf5ac79ed"), // Bob
	hex!("7a78d7bce4bb3372d07da45b620be67968050543be347e24f9b82bf77ea595f4"), // Charlie
	hex!("fd918dbd8f21f2a918f0fa582e1008271e2a5f4fb380cb1a32d5ef728cf27dee"), // Dave
	hex!("35e79d860c142c2028cd33fe0a5933da2fc4710ccfb7879a721e67af976cddde"), // Eve
	hex!("8e76e8481e33a9a56e98040ff24358d4f437ea68eed68331048925004bfc11fc"), // Ferdie
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

/// The sudo key of the dev presets: ML-DSA-87 `//Alice`. Root acts for every account
/// (`sudo_as`, `force_transfer`, `set_code`), so it is post-quantum ([`build_state`] refuses a
/// classical one, and so does the call filter when the sudo key hands itself on).
pub fn sudo_key() -> AccountId32 {
	AccountId32::new(ML_DSA_87_DEV_ACCOUNTS[0])
}

/// Every dev account endowed, ML-DSA-87 `//Alice` sudo, and the first `validators` dev names
/// as Aura and GRANDPA authorities (equal weights; none for the dev chain).
fn genesis(validators: usize) -> Value {
	let balances: Vec<(AccountId32, Balance)> =
		dev_accounts().into_iter().map(|who| (who, ENDOWMENT)).collect();
	let aura: Vec<AuraId> = SR25519_DEV_KEYS[..validators]
		.iter()
		.map(|key| sr25519::Public::from_raw(*key).into())
		.collect();
	let grandpa: Vec<(GrandpaId, u64)> = ED25519_DEV_ACCOUNTS[..validators]
		.iter()
		.map(|key| (ed25519::Public::from_raw(*key).into(), 1))
		.collect();
	serde_json::json!({
		"balances": { "balances": balances },
		"sudo": { "key": Some(sudo_key()) },
		"aura": { "authorities": aura },
		"grandpa": { "authorities": grandpa },
	})
}

/// The `development` preset: every dev account endowed, ML-DSA-87 `//Alice` sudo, and no
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
		return Err(alloc::format!(
			"a local testnet has 1 to {} validators, not {validators}",
			DEV_NAMES.len()
		));
	}
	let mut patch = genesis(validators);
	patch[SLOT_DURATION_FIELD] = configs::DEFAULT_SLOT_DURATION_MS.into();
	Ok(patch)
}

/// Block times [`build_state`] accepts, in milliseconds. The block time is fixed at genesis:
/// a chain whose slot duration changed later would refuse its own next blocks.
pub const SLOT_DURATIONS_MS: core::ops::RangeInclusive<u64> = 100..=3_600_000;

/// Builds the genesis state of `config` (a preset merged into the default configuration), with
/// [`SLOT_DURATION_FIELD`] taken out of it and stored as Aura's slot duration; refuses a sudo
/// key that is a curve point (an Ed25519 key's account).
pub fn build_state(config: Vec<u8>) -> sp_genesis_builder::Result {
	let mut json: Value = serde_json::from_slice(&config)
		.map_err(|error| alloc::format!("genesis config: {error}"))?;
	let slot = json.as_object_mut().and_then(|fields| fields.remove(SLOT_DURATION_FIELD));
	// Parsed once: checked, then built (what `genesis_builder_helper::build_state` does).
	let genesis: RuntimeGenesisConfig =
		serde_json::from_value(json).map_err(|error| alloc::format!("genesis config: {error}"))?;
	check_balances(&genesis.balances)?;
	check_authorities(&genesis)?;
	genesis.build();
	if let Some(key) = pallet_sudo::Key::<Runtime>::get() {
		// An Ed25519 key would let whoever takes its discrete logarithm act as Root, so for
		// every account: the pallet's rule, as for committee owners and `Sudo::set_key`.
		if PqVerifier::classical_key_signs_for(&key) {
			return Err(alloc::format!(
				"sudo key 0x{}: an Ed25519 key (a curve point) — the sudo key must be an \
				 ML-DSA key's account",
				account_hex(&key)
			));
		}
	}
	if let Some(slot) = slot {
		let millis =
			slot.as_u64()
				.filter(|millis| SLOT_DURATIONS_MS.contains(millis))
				.ok_or_else(|| {
					alloc::format!(
						"{SLOT_DURATION_FIELD}: milliseconds from {} to {}",
						SLOT_DURATIONS_MS.start(),
						SLOT_DURATIONS_MS.end()
					)
				})?;
		configs::AuraSlotDuration::set(&millis);
	}
	Ok(())
}

/// Refuses what pallet-balances' genesis would trap on without naming the account, or get wrong
/// in silence: an account endowed twice or below the existential deposit, balances whose sum
/// overflows (the Wasm build would wrap the total issuance), and upstream's `devAccounts`
/// (sr25519 accounts, whose signatures this runtime refuses: funds no one could move).
fn check_balances(
	endowed: &pallet_balances::GenesisConfig<Runtime>,
) -> Result<(), alloc::string::String> {
	if endowed.dev_accounts.is_some() {
		return Err("balances.devAccounts: sr25519 accounts, whose signatures this runtime \
			refuses; endow accounts in balances.balances"
			.into());
	}
	let minimum: Balance = <Runtime as pallet_balances::Config>::ExistentialDeposit::get();
	let mut accounts = alloc::collections::BTreeSet::new();
	let mut total: Balance = 0;
	for (account, balance) in &endowed.balances {
		if !accounts.insert(account) {
			return Err(alloc::format!(
				"balances.balances: 0x{} is endowed twice",
				account_hex(account)
			));
		}
		if *balance < minimum {
			return Err(alloc::format!(
				"balances.balances: 0x{} has {balance}, below the existential deposit {minimum}",
				account_hex(account)
			));
		}
		total = total.checked_add(*balance).ok_or_else(|| {
			alloc::string::String::from(
				"balances.balances: the balances sum beyond the largest total issuance (2^128 - 1)",
			)
		})?;
	}
	Ok(())
}

/// Refuses more Aura or GRANDPA authorities than the runtime holds, on which their genesis
/// traps without naming the field.
fn check_authorities(genesis: &RuntimeGenesisConfig) -> Result<(), alloc::string::String> {
	let limits: [(&str, usize, u32); 2] = [
		(
			"aura.authorities",
			genesis.aura.authorities.len(),
			<Runtime as pallet_aura::Config>::MaxAuthorities::get(),
		),
		(
			"grandpa.authorities",
			genesis.grandpa.authorities.len(),
			<Runtime as pallet_grandpa::Config>::MaxAuthorities::get(),
		),
	];
	for (field, authorities, most) in limits {
		if authorities > most as usize {
			return Err(alloc::format!("{field}: {authorities} authorities, more than {most}"));
		}
	}
	Ok(())
}

/// An account id in hex, as errors name it.
fn account_hex(account: &AccountId32) -> HexDisplay<'_> {
	HexDisplay::from(AsRef::<[u8; 32]>::as_ref(account))
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
