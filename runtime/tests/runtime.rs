//! The runtime natively: genesis presets, and transfers signed with every scheme, both as
//! ordinary signed extrinsics and as general transactions authorized by `AuthorizePq`.

use codec::Encode;
use polkadot_sdk::{
	frame_support::traits::fungible::Inspect,
	frame_system, pallet_balances,
	sp_genesis_builder::{DEV_RUNTIME_PRESET, LOCAL_TESTNET_RUNTIME_PRESET},
	sp_io::{hashing::blake2_256, TestExternalities},
	sp_runtime::{generic::Era, transaction_validity::InvalidTransaction, BuildStorage},
};
use pq_crypto::{signing::Keypair, Purpose, Scheme, SignatureWithKey};
use pq_runtime::{
	genesis_config_presets::{self as presets, DEV_NAMES, ENDOWMENT},
	Address, Balances, Executive, Runtime, RuntimeCall, RuntimeGenesisConfig, Signature, System,
	TxExtension, UncheckedExtrinsic, UNIT,
};

const SCHEMES: [Scheme; 4] = [Scheme::Ed25519, Scheme::MlDsa44, Scheme::MlDsa65, Scheme::MlDsa87];

/// Externalities at block 1 on top of the `development` genesis.
fn dev_chain() -> TestExternalities {
	let patch = presets::get_preset(&DEV_RUNTIME_PRESET.into()).expect("development preset");
	let patch: serde_json::Value = serde_json::from_slice(&patch).unwrap();
	let mut config = serde_json::to_value(RuntimeGenesisConfig::default()).unwrap();
	json_patch(&mut config, patch);
	let config: RuntimeGenesisConfig = serde_json::from_value(config).expect("the preset is a valid genesis patch");
	let mut ext = TestExternalities::new(config.build_storage().unwrap());
	ext.execute_with(|| {
		let header = <pq_runtime::Header as polkadot_sdk::sp_runtime::traits::Header>::new(1, Default::default(), Default::default(), System::parent_hash(), Default::default());
		Executive::initialize_block(&header);
	});
	ext
}

/// Merges `patch` into `base` (JSON merge patch, RFC 7386).
fn json_patch(base: &mut serde_json::Value, patch: serde_json::Value) {
	match (base, patch) {
		(serde_json::Value::Object(base), serde_json::Value::Object(patch)) =>
			for (key, value) in patch {
				json_patch(base.entry(key).or_insert(serde_json::Value::Null), value);
			},
		(base, patch) => *base = patch,
	}
}

fn transfer(to: &Keypair, amount: u128) -> RuntimeCall {
	pallet_balances::Call::transfer_keep_alive { dest: Address::Id(to.account_id()), value: amount }.into()
}

fn extension(authorization: pallet_pq_verifier::Authorization, nonce: u32) -> TxExtension {
	(
		pallet_pq_verifier::AuthorizePq::new(authorization),
		frame_system::CheckNonZeroSender::new(),
		frame_system::CheckSpecVersion::new(),
		frame_system::CheckTxVersion::new(),
		frame_system::CheckGenesis::new(),
		frame_system::CheckEra::from(Era::Immortal),
		frame_system::CheckNonce::from(nonce),
		frame_system::CheckWeight::new(),
		polkadot_sdk::pallet_transaction_payment::ChargeTransactionPayment::from(0),
		frame_system::WeightReclaim::new(),
	)
}

/// An ordinary signed extrinsic: the signature (with its key) covers the signed payload.
fn signed_extrinsic(sender: &Keypair, call: RuntimeCall, nonce: u32) -> UncheckedExtrinsic {
	let tx_extension = extension(pallet_pq_verifier::Authorization::None, nonce);
	let payload = pq_runtime::SignedPayload::new(call.clone(), tx_extension.clone()).unwrap();
	let signed = payload.using_encoded(|bytes| sender.sign_transaction(bytes));
	UncheckedExtrinsic::new_signed(call, Address::Id(sender.account_id()), Signature::new(signed), tx_extension)
}

/// A general transaction authorized by `AuthorizePq` with the key inline.
fn general_extrinsic(sender: &Keypair, call: RuntimeCall, nonce: u32) -> UncheckedExtrinsic {
	// What `AuthorizePq` verifies: version, call, then the explicit and implicit data of the
	// extensions after it.
	let rest = extension(pallet_pq_verifier::Authorization::None, nonce);
	let implicit = polkadot_sdk::sp_runtime::traits::TransactionExtension::<RuntimeCall>::implicit(&rest).unwrap();
	let (_, after_explicit) = split_first(&rest);
	let (_, after_implicit) = split_first_implicit(&implicit);
	let message = (0u8, &call, after_explicit, after_implicit).using_encoded(blake2_256);
	let signature = sender.sign_deterministic(&message, Purpose::ExtensionKeyInline);
	let signed = SignatureWithKey::new(sender.public(), signature).unwrap();
	let authorization = pallet_pq_verifier::Authorization::KeyInline { account: sender.account_id(), signed };
	UncheckedExtrinsic::new_transaction(call, extension(authorization, nonce))
}

fn split_first(extension: &TxExtension) -> ((), impl Encode + '_) {
	let (_, a, b, c, d, e, f, g, h, i) = extension;
	((), (a, b, c, d, e, f, g, h, i))
}

fn split_first_implicit<A, B: Encode, C: Encode, D: Encode, E: Encode, F: Encode, G: Encode, H: Encode, I: Encode, J: Encode>(
	implicit: &(A, B, C, D, E, F, G, H, I, J),
) -> ((), impl Encode + '_) {
	let (_, b, c, d, e, f, g, h, i, j) = implicit;
	((), (b, c, d, e, f, g, h, i, j))
}

#[test]
fn dev_accounts_are_the_dev_uris() {
	let lists = [
		presets::ED25519_DEV_ACCOUNTS,
		presets::ML_DSA_44_DEV_ACCOUNTS,
		presets::ML_DSA_65_DEV_ACCOUNTS,
		presets::ML_DSA_87_DEV_ACCOUNTS,
	];
	for (scheme, accounts) in SCHEMES.into_iter().zip(lists) {
		for (name, account) in DEV_NAMES.iter().zip(accounts) {
			let derived: [u8; 32] = Keypair::from_suri(scheme, &format!("//{name}")).unwrap().account_id().into();
			assert_eq!(derived, account, "{scheme:?} //{name}");
		}
	}
}

#[test]
fn presets_are_listed() {
	let names = presets::preset_names();
	assert!(names.contains(&DEV_RUNTIME_PRESET.into()));
	assert!(names.contains(&LOCAL_TESTNET_RUNTIME_PRESET.into()));
	assert!(presets::get_preset(&"no-such-preset".into()).is_none());
}

#[test]
fn development_genesis_endows_every_scheme_and_sets_sudo() {
	dev_chain().execute_with(|| {
		for account in presets::dev_accounts() {
			assert_eq!(Balances::balance(&account), ENDOWMENT);
		}
		assert_eq!(polkadot_sdk::pallet_sudo::Key::<Runtime>::get(), Some(presets::alice()));
	});
}

/// Each scheme's `//Alice` sends `//Bob` (Ed25519) a transfer built by `build`.
fn transfer_works_with_every_scheme(build: fn(&Keypair, RuntimeCall, u32) -> UncheckedExtrinsic) {
	dev_chain().execute_with(|| {
		let bob = Keypair::from_suri(Scheme::Ed25519, "//Bob").unwrap();
		for scheme in SCHEMES {
			let alice = Keypair::from_suri(scheme, "//Alice").unwrap();
			let before = Balances::balance(&bob.account_id());
			let extrinsic = build(&alice, transfer(&bob, 7 * UNIT), 0);
			assert_eq!(Executive::apply_extrinsic(extrinsic), Ok(Ok(())), "{scheme:?}");
			assert_eq!(Balances::balance(&bob.account_id()), before + 7 * UNIT, "{scheme:?}");
			assert_eq!(System::account_nonce(alice.account_id()), 1, "{scheme:?}");
		}
	});
}

#[test]
fn signed_transfer_works_with_every_scheme() {
	transfer_works_with_every_scheme(signed_extrinsic);
}

#[test]
fn general_transfer_with_key_inline_works_with_every_scheme() {
	transfer_works_with_every_scheme(general_extrinsic);
}

#[test]
fn forged_signed_transfer_is_bad_proof() {
	dev_chain().execute_with(|| {
		let alice = Keypair::from_suri(Scheme::MlDsa65, "//Alice").unwrap();
		let bob = Keypair::from_suri(Scheme::Ed25519, "//Bob").unwrap();
		let signed = signed_extrinsic(&alice, transfer(&bob, UNIT), 0);
		// Same signature, different amount.
		let forged = UncheckedExtrinsic::new_signed(
			transfer(&bob, 1_000 * UNIT),
			Address::Id(alice.account_id()),
			match signed.preamble {
				polkadot_sdk::sp_runtime::generic::Preamble::Signed(_, signature, _) => signature,
				_ => unreachable!(),
			},
			extension(pallet_pq_verifier::Authorization::None, 0),
		);
		assert_eq!(
			Executive::apply_extrinsic(forged),
			Err(InvalidTransaction::BadProof.into())
		);
	});
}

#[test]
fn replayed_transfer_is_stale() {
	dev_chain().execute_with(|| {
		let alice = Keypair::from_suri(Scheme::MlDsa44, "//Alice").unwrap();
		let bob = Keypair::from_suri(Scheme::Ed25519, "//Bob").unwrap();
		let extrinsic = general_extrinsic(&alice, transfer(&bob, UNIT), 0);
		assert_eq!(Executive::apply_extrinsic(extrinsic.clone()), Ok(Ok(())));
		assert_eq!(Executive::apply_extrinsic(extrinsic), Err(InvalidTransaction::Stale.into()));
	});
}

#[test]
fn base_extrinsic_weight_covers_ml_dsa_87_verification() {
	use pallet_pq_verifier::WeightInfo;
	let base = <Runtime as frame_system::Config>::BlockWeights::get()
		.get(polkadot_sdk::frame_support::dispatch::DispatchClass::Normal)
		.base_extrinsic;
	let verification = <pq_runtime::configs::PqVerifierWeights as WeightInfo>::authorize_inline_ml_dsa_87();
	assert!(verification.ref_time() > 0, "weights are generated, not zero");
	assert!(base.all_gte(verification));
}
