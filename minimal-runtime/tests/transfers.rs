//! The minimal runtime, natively: its dev accounts are the `//Alice` keys' accounts, an
//! ML-DSA-44 and an ML-DSA-87 transfer apply and the pool accepts them, an altered one is a bad
//! proof, an unfunded sender is refused before verification, no Ed25519 key authorizes a
//! post-quantum account nor is given the sudo key, and it offers the runtime APIs a stock node and stock clients call.

use codec::{Decode, Encode};
use pallet_pq_verifier::PqInvalidTransaction;
use polkadot_sdk::{
	frame_support::genesis_builder_helper::build_state,
	frame_system, pallet_transaction_payment,
	sp_genesis_builder::DEV_RUNTIME_PRESET,
	sp_io::TestExternalities,
	sp_runtime::{
		generic::Era,
		traits::{Header as _, TransactionExtension},
		transaction_validity::{InvalidTransaction, TransactionSource, TransactionValidityError},
		AccountId32, MultiAddress,
	},
};
use pq_crypto::{
	statement::{signing_payload, Signatory, TransactionStatement},
	Scheme, TransactionSignature,
};
use pq_minimal_runtime::{
	genesis_config_presets::{self, DEV_ACCOUNTS, ENDOWMENT},
	Balances, Executive, Header, Runtime, RuntimeCall, RuntimeExtrinsic, RuntimeGenesisConfig,
	System, TxExtension, UncheckedExtrinsic, UNIT,
};
use pq_signer::signing::Keypair;

fn alice(scheme: Scheme) -> Keypair {
	Keypair::from_suri(scheme, "//Alice").expect("a dev URI")
}

/// The `development` preset's state, with block 1 initialized.
fn development_chain() -> TestExternalities {
	let mut chain = TestExternalities::default();
	chain.execute_with(|| {
		// A preset is a patch of the default configuration, as a node merges it.
		let mut config = serde_json::to_value(RuntimeGenesisConfig::default()).unwrap();
		let preset = genesis_config_presets::get_preset(&DEV_RUNTIME_PRESET.into()).unwrap();
		merge(&mut config, serde_json::from_slice(&preset).unwrap());
		build_state::<RuntimeGenesisConfig>(serde_json::to_vec(&config).unwrap())
			.expect("the preset builds");
		let header = Header::new(
			1,
			Default::default(),
			Default::default(),
			System::block_hash(0),
			Default::default(),
		);
		Executive::initialize_block(&header);
	});
	chain
}

/// Merges a preset into the default configuration, as a node does (JSON merge-patch, whose
/// `null` removal no preset here uses).
fn merge(target: &mut serde_json::Value, patch: serde_json::Value) {
	match (target, patch) {
		(serde_json::Value::Object(target), serde_json::Value::Object(patch)) => {
			for (key, value) in patch {
				merge(target.entry(key).or_insert(serde_json::Value::Null), value);
			}
		},
		(target, patch) => *target = patch,
	}
}

fn extension(nonce: u32) -> TxExtension {
	(
		frame_system::CheckNonZeroSender::new(),
		frame_system::CheckSpecVersion::new(),
		frame_system::CheckTxVersion::new(),
		frame_system::CheckGenesis::new(),
		frame_system::CheckEra::from(Era::Immortal),
		frame_system::CheckNonce::from(nonce),
		frame_system::CheckWeight::new(),
		pallet_transaction_payment::ChargeTransactionPayment::from(0),
		frame_system::WeightReclaim::new(),
	)
}

/// `signer`'s key-inline transaction of `call` from `account`, as it arrives in a block.
fn key_inline(signer: &Keypair, account: &AccountId32, call: RuntimeCall) -> RuntimeExtrinsic {
	decoded(signed(signer, account, call))
}

fn decoded(extrinsic: UncheckedExtrinsic) -> RuntimeExtrinsic {
	RuntimeExtrinsic::decode(&mut &extrinsic.encode()[..]).expect("the runtime decodes it")
}

/// `signer`'s key-inline transaction of `call` from `account`.
fn signed(signer: &Keypair, account: &AccountId32, call: RuntimeCall) -> UncheckedExtrinsic {
	let extension = extension(System::account_nonce(account));
	let implicit = extension.implicit().expect("the extensions' implicit data");
	let payload = signing_payload(&(&call, &extension, implicit).encode());
	let statement = TransactionStatement { signatory: Signatory::Key, signing_payload: &payload };
	let signature = TransactionSignature::key_inline(
		signer.public(),
		signer.sign_deterministic(&statement.message(), statement.purpose()),
	)
	.expect("a key signs key inline");
	UncheckedExtrinsic::new_signed(call, MultiAddress::Id(account.clone()), signature, extension)
}

fn transfer(to: &AccountId32, amount: u128) -> RuntimeCall {
	polkadot_sdk::pallet_balances::Call::<Runtime>::transfer_keep_alive {
		dest: MultiAddress::Id(to.clone()),
		value: amount,
	}
	.into()
}

#[test]
fn the_dev_accounts_are_those_of_the_alice_keys() {
	let derived = [Scheme::MlDsa44, Scheme::MlDsa87, Scheme::Ed25519]
		.map(|scheme| <[u8; 32]>::from(alice(scheme).account_id()));
	assert_eq!(derived, DEV_ACCOUNTS);
}

#[test]
fn ml_dsa_transfers_apply() {
	development_chain().execute_with(|| {
		let receiver = AccountId32::new(DEV_ACCOUNTS[2]);
		for scheme in [Scheme::MlDsa44, Scheme::MlDsa87] {
			let signer = alice(scheme);
			let sender = signer.account_id();
			let before = Balances::free_balance(&sender);
			let transfer = key_inline(&signer, &sender, transfer(&receiver, 5 * UNIT));
			assert_eq!(Executive::apply_extrinsic(transfer), Ok(Ok(())), "{scheme:?}");
			let fee = before - 5 * UNIT - Balances::free_balance(&sender);
			assert!(fee > 0, "{scheme:?} pays a fee");
		}
		assert_eq!(Balances::free_balance(&receiver), ENDOWMENT + 10 * UNIT);
	});
}

#[test]
fn an_ed25519_key_never_authorizes_a_post_quantum_account() {
	development_chain().execute_with(|| {
		let post_quantum = alice(Scheme::MlDsa44).account_id();
		let classical = alice(Scheme::Ed25519);
		let transfer =
			key_inline(&classical, &post_quantum, transfer(&classical.account_id(), UNIT));
		// The account is no edwards25519 point, so no Ed25519 key is its key.
		assert_eq!(
			Executive::apply_extrinsic(transfer),
			Err(TransactionValidityError::from(PqInvalidTransaction::InvalidKey))
		);
		assert_eq!(Balances::free_balance(&post_quantum), ENDOWMENT);
	});
}

#[test]
fn the_pool_accepts_an_ml_dsa_transfer() {
	development_chain().execute_with(|| {
		let signer = alice(Scheme::MlDsa44);
		let transfer = key_inline(&signer, &signer.account_id(), transfer(&bob(), UNIT));
		let validity = Executive::validate_transaction(
			TransactionSource::External,
			transfer,
			System::block_hash(0),
		);
		assert!(validity.is_ok(), "{validity:?}");
	});
}

#[test]
fn an_altered_transfer_is_a_bad_proof() {
	development_chain().execute_with(|| {
		let signer = alice(Scheme::MlDsa87);
		let mut transfer = signed(&signer, &signer.account_id(), transfer(&bob(), UNIT));
		// The same signature over another amount.
		transfer.function = self::transfer(&bob(), 2 * UNIT);
		assert_eq!(
			Executive::apply_extrinsic(decoded(transfer)),
			Err(InvalidTransaction::BadProof.into())
		);
	});
}

#[test]
fn an_unfunded_sender_is_refused_before_verification() {
	development_chain().execute_with(|| {
		let stranger = Keypair::from_seed(Scheme::MlDsa87, &[7; 32]).unwrap();
		let transfer = key_inline(&stranger, &stranger.account_id(), transfer(&bob(), UNIT));
		// Refused for its fee, not for its signature: nothing was verified.
		assert_eq!(Executive::apply_extrinsic(transfer), Err(InvalidTransaction::Payment.into()));
	});
}

#[test]
fn it_offers_the_runtime_apis_stock_nodes_and_clients_call() {
	use polkadot_sdk::{
		frame_system_rpc_runtime_api::AccountNonceApi,
		pallet_transaction_payment_rpc_runtime_api::TransactionPaymentApi,
		sp_api::{Core, Metadata, RuntimeApiInfo},
		sp_block_builder::BlockBuilder,
		sp_consensus_aura::AuraApi,
		sp_genesis_builder::GenesisBuilder,
		sp_transaction_pool::runtime_api::TaggedTransactionQueue,
	};
	use pq_minimal_runtime::Block;
	type AuraId = polkadot_sdk::sp_consensus_aura::sr25519::AuthorityId;
	let offered: Vec<_> = pq_minimal_runtime::VERSION.apis.iter().map(|(id, _)| *id).collect();
	for (name, id) in [
		("Core", <dyn Core<Block>>::ID),
		("Metadata", <dyn Metadata<Block>>::ID),
		("BlockBuilder", <dyn BlockBuilder<Block>>::ID),
		("TaggedTransactionQueue", <dyn TaggedTransactionQueue<Block>>::ID),
		("AccountNonceApi", <dyn AccountNonceApi<Block, AccountId32, u32>>::ID),
		("TransactionPaymentApi", <dyn TransactionPaymentApi<Block, u128>>::ID),
		("GenesisBuilder", <dyn GenesisBuilder<Block>>::ID),
		// polkadot-omni-node's dev mode asks for the slot duration.
		("AuraApi", <dyn AuraApi<Block, AuraId>>::ID),
		("PqVerifierApi", <dyn pallet_pq_verifier::runtime_api::PqVerifierApi<Block>>::ID),
	] {
		assert!(offered.contains(&id), "{name} is not offered");
	}
}

fn bob() -> AccountId32 {
	AccountId32::new(DEV_ACCOUNTS[2])
}

/// Root acts for every account: the sudo key is never handed to an account an Ed25519 key
/// signs for (`NoClassicalSudoKey`), and once held by a migrated one it keeps that account's
/// rule (`PostQuantumRoles`, tested in the pallet and pq-runtime).
#[test]
fn the_sudo_key_cannot_be_handed_to_a_classical_key() {
	development_chain().execute_with(|| {
		let sudo = alice(Scheme::MlDsa44);
		let set_key = |new: AccountId32| -> RuntimeCall {
			polkadot_sdk::pallet_sudo::Call::<Runtime>::set_key { new: MultiAddress::Id(new) }
				.into()
		};
		let classical =
			key_inline(&sudo, &sudo.account_id(), set_key(alice(Scheme::Ed25519).account_id()));
		let filtered = frame_system::Error::<Runtime>::CallFiltered.into();
		assert_eq!(Executive::apply_extrinsic(classical), Ok(Err(filtered)));
		let post_quantum = alice(Scheme::MlDsa87).account_id();
		let handed_on = key_inline(&sudo, &sudo.account_id(), set_key(post_quantum.clone()));
		assert_eq!(Executive::apply_extrinsic(handed_on), Ok(Ok(())));
		assert_eq!(polkadot_sdk::pallet_sudo::Key::<Runtime>::get(), Some(post_quantum));
	});
}
