//! The runtime natively: genesis presets, and transfers signed with every scheme and form, each
//! an ordinary signed (v4) extrinsic whose signature carries the form.

use polkadot_sdk::{
	frame_support::traits::fungible::Inspect,
	frame_system,
	sp_genesis_builder::{DEV_RUNTIME_PRESET, LOCAL_TESTNET_RUNTIME_PRESET},
	sp_io::TestExternalities,
	sp_runtime::{generic::Preamble, transaction_validity::InvalidTransaction, BuildStorage},
};
use pq_crypto::Scheme;
use pq_runtime::{
	genesis_config_presets::{self as presets, DEV_NAMES, ENDOWMENT},
	Address, Balances, Executive, Runtime, RuntimeCall, RuntimeExtrinsic, RuntimeGenesisConfig,
	System, UncheckedExtrinsic, UNIT,
};
use pq_runtime_client::transactions::{self, ChainIdentity, Form, Sender};
use pq_signer::signing::Keypair;

use pq_runtime_client::genesis::merge_patch;

const SCHEMES: [Scheme; 4] = Scheme::SINGLE_KEY;

/// Externalities at block 1 on top of the `development` genesis.
fn dev_chain() -> TestExternalities {
	let patch = presets::get_preset(&DEV_RUNTIME_PRESET.into()).expect("development preset");
	let patch: serde_json::Value = serde_json::from_slice(&patch).unwrap();
	let mut config = serde_json::to_value(RuntimeGenesisConfig::default()).unwrap();
	merge_patch(&mut config, patch);
	let config: RuntimeGenesisConfig =
		serde_json::from_value(config).expect("the preset is a valid genesis patch");
	let mut ext = TestExternalities::new(config.build_storage().unwrap());
	ext.execute_with(|| {
		let header = <pq_runtime::Header as polkadot_sdk::sp_runtime::traits::Header>::new(
			1,
			Default::default(),
			Default::default(),
			System::parent_hash(),
			Default::default(),
		);
		Executive::initialize_block(&header);
	});
	ext
}

fn chain() -> ChainIdentity {
	ChainIdentity {
		genesis_hash: System::block_hash(0),
		spec_version: pq_runtime::VERSION.spec_version,
		transaction_version: pq_runtime::VERSION.transaction_version,
		checkpoint: None,
	}
}

/// Applies `extrinsic` as a block author does.
fn apply(extrinsic: UncheckedExtrinsic) -> polkadot_sdk::sp_runtime::ApplyExtrinsicResult {
	Executive::apply_extrinsic(extrinsic.into())
}

fn transfer(to: &Keypair, amount: u128) -> RuntimeCall {
	transactions::transfer_call(to.account_id(), amount)
}

/// `sender`'s transaction of `call` with its key inline.
fn signed_extrinsic(sender: &Keypair, call: RuntimeCall, nonce: u32) -> UncheckedExtrinsic {
	transactions::sign(sender, call, nonce, 0, Form::KeyInline, &chain()).unwrap()
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
			let derived: [u8; 32] =
				Keypair::from_suri(scheme, &format!("//{name}")).unwrap().account_id().into();
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
		assert_eq!(polkadot_sdk::pallet_sudo::Key::<Runtime>::get(), Some(presets::sudo_key()));
		let alice = Keypair::from_suri(Scheme::MlDsa87, "//Alice").unwrap();
		assert_eq!(presets::sudo_key(), alice.account_id());
	});
}

/// The sudo key hands itself on with `Sudo::set_key`: to an ML-DSA key's account it may, to an
/// account an Ed25519 key signs for it may not (the call filter refuses it).
#[test]
fn the_sudo_key_cannot_be_handed_to_a_classical_key() {
	dev_chain().execute_with(|| {
		let sudo = Keypair::from_suri(Scheme::MlDsa87, "//Alice").unwrap();
		let set_key = |new: &Keypair| {
			RuntimeCall::Sudo(polkadot_sdk::pallet_sudo::Call::set_key {
				new: new.account_id().into(),
			})
		};
		let ed25519_bob = Keypair::from_suri(Scheme::Ed25519, "//Bob").unwrap();
		let refused = apply(signed_extrinsic(&sudo, set_key(&ed25519_bob), 0));
		let filtered = polkadot_sdk::frame_system::Error::<Runtime>::CallFiltered.into();
		assert_eq!(refused, Ok(Err(filtered)));
		let ml_dsa_bob = Keypair::from_suri(Scheme::MlDsa44, "//Bob").unwrap();
		assert_eq!(apply(signed_extrinsic(&sudo, set_key(&ml_dsa_bob), 1)), Ok(Ok(())));
		assert_eq!(polkadot_sdk::pallet_sudo::Key::<Runtime>::get(), Some(ml_dsa_bob.account_id()));
	});
}

/// A migrated Ed25519 account that accepts only its ML-DSA key may be handed the sudo key; while
/// it holds it, it can neither lift that rule nor remove its key — either would let its Ed25519
/// key act as Root again, for whoever takes that key's discrete logarithm. Once the sudo key
/// moves on, it can.
#[test]
fn the_sudo_key_cannot_return_to_a_classical_key() {
	dev_chain().execute_with(|| {
		let alice = Keypair::from_suri(Scheme::MlDsa87, "//Alice").unwrap();
		let bob = Keypair::from_suri(Scheme::Ed25519, "//Bob").unwrap();
		let bob_pq = Keypair::from_suri(Scheme::MlDsa44, "//Bob//migrated").unwrap();
		let set_key = |new: &polkadot_sdk::sp_runtime::AccountId32| {
			RuntimeCall::Sudo(polkadot_sdk::pallet_sudo::Call::set_key { new: new.clone().into() })
		};
		let migrate = transactions::register_key_call(&bob_pq, &bob.account_id(), true, &chain());
		assert_eq!(apply(signed_extrinsic(&bob, migrate, 0)), Ok(Ok(())));
		assert_eq!(apply(signed_extrinsic(&alice, set_key(&bob.account_id()), 0)), Ok(Ok(())));

		let as_bob = |call: pallet_pq_verifier::Call<Runtime>, nonce| {
			let sender = Sender::Migrated { account: &bob.account_id(), key: &bob_pq };
			let form = Form::KeyRegistered;
			apply(transactions::sign(sender, call.into(), nonce, 0, form, &chain()).unwrap())
		};
		let role: polkadot_sdk::sp_runtime::DispatchError =
			pallet_pq_verifier::Error::<Runtime>::PostQuantumRole.into();
		let lift = || pallet_pq_verifier::Call::set_only_registered_key { enabled: false };
		assert_eq!(as_bob(lift(), 1), Ok(Err(role)));
		assert_eq!(as_bob(pallet_pq_verifier::Call::remove_key {}, 2), Ok(Err(role)));
		assert!(pallet_pq_verifier::Pallet::<Runtime>::only_registered_key(&bob.account_id()));

		let charlie = Keypair::from_suri(Scheme::MlDsa44, "//Charlie").unwrap().account_id();
		let handed_on = transactions::sign(
			Sender::Migrated { account: &bob.account_id(), key: &bob_pq },
			set_key(&charlie),
			3,
			0,
			Form::KeyRegistered,
			&chain(),
		)
		.unwrap();
		assert_eq!(apply(handed_on), Ok(Ok(())));
		assert_eq!(as_bob(lift(), 4), Ok(Ok(())));
	});
}

/// Root acts for every account, so a chain whose sudo key is an Ed25519 key gives a quantum
/// attacker every post-quantum account: a genesis naming one is refused.
#[test]
fn a_genesis_with_a_classical_sudo_key_is_refused() {
	let ed25519_alice = Keypair::from_suri(Scheme::Ed25519, "//Alice").unwrap().account_id();
	let mut preset = presets::development();
	preset["sudo"]["key"] = serde_json::to_value(&ed25519_alice).unwrap();
	let error = genesis_state(preset, None).expect_err("refused");
	assert!(error.contains("sudo key"), "{error}");
	assert!(genesis_state(presets::development(), None).is_ok());
}

/// Balances pallet-balances' genesis would trap on without naming the account (an account
/// endowed twice, one below the existential deposit) or get wrong in silence (a sum beyond
/// `u128`, wrapped in the Wasm build; sr25519 `devAccounts`, funds no signature here moves) are
/// refused by name.
#[test]
fn a_genesis_with_malformed_balances_is_refused_by_name() {
	let endowed = |preset: &serde_json::Value| preset["balances"]["balances"].clone();
	let development = presets::development();
	let first = endowed(&development)[0].clone();
	let cases = [
		("endowed twice", {
			let mut preset = development.clone();
			preset["balances"]["balances"].as_array_mut().unwrap().push(first.clone());
			preset
		}),
		("below the existential deposit", {
			let mut preset = development.clone();
			preset["balances"]["balances"][0][1] = 1.into();
			preset
		}),
		("beyond the largest total issuance", {
			let mut preset = development.clone();
			let max: serde_json::Value = serde_json::from_str(&u128::MAX.to_string()).unwrap();
			preset["balances"]["balances"][0][1] = max.clone();
			preset["balances"]["balances"][1][1] = max;
			preset
		}),
		("devAccounts", {
			let mut preset = development.clone();
			preset["balances"]["devAccounts"] = serde_json::json!([4, 1_000_000_000_000u64, null]);
			preset
		}),
	];
	for (expected, preset) in cases {
		let error = genesis_state(preset, None).expect_err(expected);
		assert!(error.contains(expected), "{expected}: {error}");
	}
}

/// More authorities than the runtime holds trapped in pallet-aura's or pallet-grandpa's
/// genesis without naming the field.
#[test]
fn a_genesis_with_too_many_authorities_is_refused_by_name() {
	let local = presets::local_testnet();
	for field in ["aura", "grandpa"] {
		let mut preset = local.clone();
		let authorities = preset[field]["authorities"].as_array_mut().unwrap();
		let first = authorities[0].clone();
		authorities.resize(33, first);
		let error = genesis_state(preset, None).expect_err(field);
		assert!(error.contains(&format!("{field}.authorities: 33 authorities")), "{error}");
	}
}

/// Each scheme's `//Alice` sends `//Bob` (Ed25519) a transfer with its key inline.
#[test]
fn transfer_with_key_inline_works_with_every_scheme() {
	dev_chain().execute_with(|| {
		let bob = Keypair::from_suri(Scheme::Ed25519, "//Bob").unwrap();
		for scheme in SCHEMES {
			let alice = Keypair::from_suri(scheme, "//Alice").unwrap();
			let before = Balances::balance(&bob.account_id());
			let extrinsic = signed_extrinsic(&alice, transfer(&bob, 7 * UNIT), 0);
			assert_eq!(apply(extrinsic), Ok(Ok(())), "{scheme:?}");
			assert_eq!(Balances::balance(&bob.account_id()), before + 7 * UNIT, "{scheme:?}");
			assert_eq!(System::account_nonce(alice.account_id()), 1, "{scheme:?}");
		}
	});
}

#[test]
fn transfer_with_registered_key_works_with_every_ml_dsa_scheme() {
	dev_chain().execute_with(|| {
		let bob = Keypair::from_suri(Scheme::Ed25519, "//Bob").unwrap();
		for scheme in Scheme::ML_DSA {
			let alice = Keypair::from_suri(scheme, "//Alice").unwrap();
			let register =
				transactions::register_key_call(&alice, &alice.account_id(), false, &chain());
			let register =
				transactions::sign(&alice, register, 0, 0, Form::KeyInline, &chain()).unwrap();
			assert_eq!(apply(register), Ok(Ok(())), "{scheme:?}");
			let before = Balances::balance(&bob.account_id());
			let extrinsic = transactions::sign(
				&alice,
				transfer(&bob, UNIT),
				1,
				0,
				Form::KeyRegistered,
				&chain(),
			)
			.unwrap();
			assert_eq!(apply(extrinsic), Ok(Ok(())), "{scheme:?}");
			assert_eq!(Balances::balance(&bob.account_id()), before + UNIT, "{scheme:?}");
		}
	});
}

#[test]
fn ed25519_account_migrates_to_an_ml_dsa_key() {
	dev_chain().execute_with(|| {
		let alice = Keypair::from_suri(Scheme::Ed25519, "//Alice").unwrap();
		let new_key = Keypair::from_suri(Scheme::MlDsa65, "//Alice//migrated").unwrap();
		let register =
			transactions::register_key_call(&new_key, &alice.account_id(), true, &chain());
		let register =
			transactions::sign(&alice, register, 0, 0, Form::KeyInline, &chain()).unwrap();
		assert_eq!(apply(register), Ok(Ok(())));
		assert!(pallet_pq_verifier::Keys::<Runtime>::get(alice.account_id())
			.is_some_and(|key| key.migrated));
		// Only the new key signs for the account now; the old one is refused.
		let bob = Keypair::from_suri(Scheme::Ed25519, "//Bob").unwrap();
		let refused = Err(pallet_pq_verifier::PqInvalidTransaction::OnlyRegisteredKey.into());
		assert_eq!(apply(signed_extrinsic(&alice, transfer(&bob, UNIT), 1)), refused);
		let registered = transactions::sign(
			Sender::Migrated { account: &alice.account_id(), key: &new_key },
			transfer(&bob, UNIT),
			1,
			0,
			Form::KeyRegistered,
			&chain(),
		)
		.unwrap();
		assert_eq!(apply(registered), Ok(Ok(())));
	});
}

#[test]
fn forged_signed_transfer_is_bad_proof() {
	dev_chain().execute_with(|| {
		let alice = Keypair::from_suri(Scheme::MlDsa65, "//Alice").unwrap();
		let bob = Keypair::from_suri(Scheme::Ed25519, "//Bob").unwrap();
		// Same signature, different amount.
		let forged = with_signature_of(
			&signed_extrinsic(&alice, transfer(&bob, 1_000 * UNIT), 0),
			signed_extrinsic(&alice, transfer(&bob, UNIT), 0),
		);
		assert_eq!(apply(forged), Err(InvalidTransaction::BadProof.into()));
	});
}

#[test]
fn replayed_transfer_is_stale() {
	dev_chain().execute_with(|| {
		let alice = Keypair::from_suri(Scheme::MlDsa44, "//Alice").unwrap();
		let bob = Keypair::from_suri(Scheme::Ed25519, "//Bob").unwrap();
		let extrinsic = signed_extrinsic(&alice, transfer(&bob, UNIT), 0);
		assert_eq!(apply(extrinsic.clone()), Ok(Ok(())));
		assert_eq!(apply(extrinsic), Err(InvalidTransaction::Stale.into()));
	});
}

/// Each transaction is charged its own signature's check, by form and scheme, once (and a key
/// inline for its account derivation's candidates beyond the first), and its bytes: an Ed25519
/// transfer is not charged for ML-DSA-87, a registered key not for its key's decode twice, and
/// the pool, the fee and `CheckWeight` all see the same weight.
#[test]
fn every_form_is_charged_its_own_signature_once() {
	use codec::Encode;
	use pallet_pq_verifier::WeightInfo;
	use polkadot_sdk::frame_support::traits::Get;
	use polkadot_sdk::{frame_support::dispatch::GetDispatchInfo, sp_runtime::traits::Checkable};
	use pq_runtime::{configs::WeightPerExtrinsicByte, PqVerifierWeights as W};
	dev_chain().execute_with(|| {
		let bob = Keypair::from_suri(Scheme::Ed25519, "//Bob").unwrap();
		let call_weight = transfer(&bob, UNIT).get_dispatch_info().total_weight();
		let inline_charges = [
			W::verify_signed_ed25519(),
			W::verify_signed_ml_dsa_44(),
			W::verify_signed_ml_dsa_65(),
			W::verify_signed_ml_dsa_87(),
		];
		let registered_charges = [
			None,
			Some(W::authorize_registered_ml_dsa_44()),
			Some(W::authorize_registered_ml_dsa_65()),
			Some(W::authorize_registered_ml_dsa_87()),
		];
		let mut charged = Vec::new();
		for ((scheme, inline_charge), registered_charge) in
			SCHEMES.into_iter().zip(inline_charges).zip(registered_charges)
		{
			let alice = Keypair::from_suri(scheme, "//Alice").unwrap();
			let inline: RuntimeExtrinsic = signed_extrinsic(&alice, transfer(&bob, UNIT), 0).into();
			let info = inline.get_dispatch_info();
			let inline_bytes = WeightPerExtrinsicByte::get() * inline.encoded_size() as u64;
			let checked = inline.check(&frame_system::ChainContext::<Runtime>::default()).unwrap();
			assert_eq!(
				checked.get_dispatch_info(),
				info,
				"{scheme:?}: the pool, the fee and CheckWeight see the same"
			);
			// A dev key whose account derivation needs more than one candidate pays for each.
			let derivation = pallet_pq_verifier::derivation_weight::<Runtime>(
				alice.public().account_derivation().1,
			);
			let without_derivation = info.total_weight().saturating_sub(derivation);
			charged.push(without_derivation.ref_time());
			let shared =
				without_derivation.saturating_sub(inline_charge).saturating_sub(inline_bytes);
			assert!(shared.all_gte(call_weight), "{scheme:?}");
			if let Some(registered_charge) = registered_charge {
				// Same call, same extensions: only the signature's charge differs.
				let registered: RuntimeExtrinsic = transactions::sign(
					&alice,
					transfer(&bob, UNIT),
					0,
					0,
					Form::KeyRegistered,
					&chain(),
				)
				.unwrap()
				.into();
				assert_eq!(
					registered.get_dispatch_info().total_weight(),
					shared
						+ registered_charge
						+ WeightPerExtrinsicByte::get() * registered.encoded_size() as u64,
					"{scheme:?}"
				);
			}
		}
		// Ed25519 against ML-DSA-44 is a measurement, not a rule (ML-DSA-44 verifies about as
		// fast); the ML-DSA levels only rise.
		assert!(charged[1..].is_sorted(), "ML-DSA-44 ≤ ML-DSA-65 ≤ ML-DSA-87: {charged:?}");
		let base = <Runtime as frame_system::Config>::BlockWeights::get()
			.get(polkadot_sdk::frame_support::dispatch::DispatchClass::Normal)
			.base_extrinsic;
		let signed_remark = pq_runtime::IMPORT_COSTS.signed_remark;
		assert!(
			signed_remark.ref_time() > W::verify_signed_ed25519().ref_time() * 5 / 4,
			"a signed remark's measured import is more than its Ed25519 check's weight: \
			 calibrate again (charge-check.sh --calibrate) after regenerating weights"
		);
		assert_eq!(
			base.ref_time(),
			signed_remark.ref_time() - W::verify_signed_ed25519().ref_time(),
			"the measured base holds no signature check: the extrinsic type charges it"
		);
		assert!(WeightPerExtrinsicByte::get().ref_time() > 0, "bytes are charged");
		assert_eq!(
			pallet_pq_verifier::MeasuredWeightPerExtrinsicByte::get(),
			pq_runtime::weights::block_import::PURE_WASM.per_extrinsic_byte,
			"the pallet's default for stock runtimes is the pure-Wasm build's measurement"
		);
	});
}

/// The runtime builds charge different weights, so each has its own `spec_version`: a
/// transaction signed for the pure-Wasm build of the same release (its `spec_version` one more,
/// as `runtime_version!` in lib.rs says) is refused by this one (the host-function build, units
/// digit 0).
#[test]
fn a_transaction_signed_for_the_other_runtime_build_is_refused() {
	dev_chain().execute_with(|| {
		let this_build = pq_runtime::VERSION.spec_version;
		assert_eq!((this_build % 10, pq_runtime::VERSION.impl_name.as_ref()), (0, "pq-runtime"));
		let other_build = ChainIdentity { spec_version: this_build + 1, ..chain() };
		let alice = Keypair::from_suri(Scheme::MlDsa44, "//Alice").unwrap();
		let bob = Keypair::from_suri(Scheme::Ed25519, "//Bob").unwrap();
		let extrinsic =
			transactions::sign(&alice, transfer(&bob, UNIT), 0, 0, Form::KeyInline, &other_build)
				.unwrap();
		assert_eq!(apply(extrinsic), Err(InvalidTransaction::BadProof.into()));
	});
}

/// The runtime asks the payment pallet before it verifies: a sender that cannot pay is
/// refused with `Payment`, whatever its signature.
#[test]
fn a_sender_that_cannot_pay_is_refused_before_verification() {
	dev_chain().execute_with(|| {
		let pauper = Keypair::from_suri(Scheme::MlDsa87, "//nobody").unwrap();
		let bob = Keypair::from_suri(Scheme::Ed25519, "//Bob").unwrap();
		let extrinsic =
			transactions::sign(&pauper, transfer(&bob, UNIT), 0, 0, Form::KeyInline, &chain())
				.unwrap();
		assert_eq!(apply(extrinsic), Err(InvalidTransaction::Payment.into()));
	});
}

/// `transaction` with the signature of `other` (another call or nonce, from the same sender):
/// the same bytes but the signature's, which does not verify.
fn with_signature_of(
	transaction: &UncheckedExtrinsic,
	other: UncheckedExtrinsic,
) -> UncheckedExtrinsic {
	let Preamble::Signed(address, _, extension) = transaction.preamble.clone() else {
		panic!("a signed extrinsic has a signed preamble");
	};
	let Preamble::Signed(_, signature, _) = other.preamble else {
		panic!("a signed extrinsic has a signed preamble");
	};
	UncheckedExtrinsic::new_signed(transaction.function.clone(), address, signature, extension)
}

/// The extrinsic type refuses, before verification, a transaction a full block has no room for
/// exactly where the runtime's `CheckWeight` refuses it after: by length, for a Normal-class
/// transfer and an Operational-class call (which may fill the whole block), and by weight. A
/// transaction the room left fits is applied; one byte or one unit of weight more, and it is
/// refused with `ExhaustsResources` — before its signature is verified (the same transaction
/// with a signature that does not verify gets `ExhaustsResources`, not `BadProof`).
#[test]
fn a_full_block_refuses_before_verification_exactly_where_check_weight_would() {
	use codec::Encode;
	use polkadot_sdk::frame_support::{
		dispatch::{DispatchClass, GetDispatchInfo},
		weights::Weight,
	};
	use polkadot_sdk::sp_runtime::traits::Checkable;
	let alice = || Keypair::from_suri(Scheme::Ed25519, "//Alice").unwrap();
	let bob = Keypair::from_suri(Scheme::Ed25519, "//Bob").unwrap();
	let exhausts = Err(InvalidTransaction::ExhaustsResources.into());
	let bad_proof = Err(InvalidTransaction::BadProof.into());
	let set_heap_pages: RuntimeCall = frame_system::Call::set_heap_pages { pages: 64 }.into();
	// (genuine, forged) transactions of `call`
	let transactions = |call: &RuntimeCall| {
		let genuine = signed_extrinsic(&alice(), call.clone(), 0);
		let forged = with_signature_of(&genuine, signed_extrinsic(&alice(), call.clone(), 1));
		(genuine, forged)
	};

	for (call, class) in [
		(transfer(&bob, UNIT), DispatchClass::Normal),
		(set_heap_pages, DispatchClass::Operational),
	] {
		dev_chain().execute_with(|| {
			let (genuine, forged) = transactions(&call);
			assert_eq!(genuine.function.get_dispatch_info().class, class);
			let len = genuine.encoded_size() as u32;
			let lengths: frame_system::limits::BlockLength =
				<Runtime as frame_system::Config>::BlockLength::get();
			let limit = *lengths.max.get(class);

			frame_system::BlockSize::<Runtime>::put(limit - len + 1);
			assert_eq!(apply(forged.clone()), exhausts, "{class:?}: one byte short");
			assert_eq!(apply(genuine.clone()), exhausts, "{class:?}: one byte short");
			frame_system::BlockSize::<Runtime>::put(limit - len);
			assert_eq!(apply(forged), bad_proof, "{class:?}: the room left fits it");
			assert!(apply(genuine).is_ok(), "{class:?}: the room left fits it");
		});
	}

	dev_chain().execute_with(|| {
		let (genuine, forged) = transactions(&transfer(&bob, UNIT));
		let len = genuine.encoded_size();
		// The weight `CheckWeight` books for it: its charged dispatch info, its length as proof.
		let info = RuntimeExtrinsic::from(genuine.clone())
			.check(&frame_system::ChainContext::<Runtime>::default())
			.unwrap()
			.get_dispatch_info();
		let limits: frame_system::limits::BlockWeights =
			<Runtime as frame_system::Config>::BlockWeights::get();
		let booked =
			frame_system::calculate_consumed_extrinsic_weight::<RuntimeCall>(&limits, &info, len);
		let normal_total = limits.get(DispatchClass::Normal).max_total.unwrap();
		let consume = |weight| {
			frame_system::BlockWeight::<Runtime>::mutate(|consumed| {
				consumed.set(weight, DispatchClass::Normal)
			})
		};

		consume(normal_total - booked + Weight::from_parts(1, 0));
		assert_eq!(apply(forged.clone()), exhausts, "one unit of weight short");
		assert_eq!(apply(genuine.clone()), exhausts, "one unit of weight short");
		consume(normal_total - booked);
		assert_eq!(apply(forged), bad_proof, "the weight left fits it");
		assert_eq!(apply(genuine), Ok(Ok(())), "the weight left fits it");
	});
}

/// A general (v5) transaction is refused by name: every transaction here is signed (v4), its
/// signature carrying the form, and no extension authorizes a general one.
#[test]
fn a_general_transaction_is_refused() {
	use pallet_pq_verifier::PqInvalidTransaction;
	dev_chain().execute_with(|| {
		let bob = Keypair::from_suri(Scheme::Ed25519, "//Bob").unwrap();
		let alice = Keypair::from_suri(Scheme::Ed25519, "//Alice").unwrap();
		let UncheckedExtrinsic { function, preamble, .. } =
			signed_extrinsic(&alice, transfer(&bob, UNIT), 0);
		let Preamble::Signed(_, _, extension) = preamble else {
			panic!("a signed extrinsic has a signed preamble")
		};
		let general = UncheckedExtrinsic::new_transaction(function, extension);
		let refused: polkadot_sdk::sp_runtime::transaction_validity::TransactionValidityError =
			PqInvalidTransaction::GeneralTransaction.into();
		assert_eq!(validate(general.clone().into()), Err(refused));
		assert_eq!(apply(general), Err(refused));
	});
}

/// A stock wallet's sr25519 or ECDSA signature decodes (the classical variants keep
/// `sp_runtime::MultiSignature`'s indices) and is refused by name, unverified.
#[test]
fn a_stock_sr25519_or_ecdsa_signature_is_refused_by_name() {
	use pallet_pq_verifier::PqInvalidTransaction;
	use pq_crypto::{keys::*, TransactionSignature};
	dev_chain().execute_with(|| {
		let bob = Keypair::from_suri(Scheme::Ed25519, "//Bob").unwrap();
		let alice = Keypair::from_suri(Scheme::Ed25519, "//Alice").unwrap();
		for classical in [
			TransactionSignature::Sr25519(Sr25519Signature([1; 64])),
			TransactionSignature::Ecdsa(EcdsaSignature([1; 65])),
		] {
			let mut extrinsic = signed_extrinsic(&alice, transfer(&bob, UNIT), 0);
			let Preamble::Signed(_, signature, _) = &mut extrinsic.preamble else { unreachable!() };
			*signature = classical;
			assert_eq!(
				validate(extrinsic.into()),
				Err(PqInvalidTransaction::ClassicalSignature.into())
			);
		}
	});
}

/// Ends the current block (with its timestamp inherent) and starts the next, as a node does.
fn next_block() {
	let number = System::block_number();
	let now = RuntimeCall::Timestamp(polkadot_sdk::pallet_timestamp::Call::set {
		now: u64::from(number) * 6_000,
	});
	assert_eq!(apply(UncheckedExtrinsic::new_bare_legacy(now)), Ok(Ok(())));
	let header = Executive::finalize_block();
	let next = <pq_runtime::Header as polkadot_sdk::sp_runtime::traits::Header>::new(
		number + 1,
		Default::default(),
		Default::default(),
		polkadot_sdk::sp_runtime::traits::Header::hash(&header),
		Default::default(),
	);
	Executive::initialize_block(&next);
}

/// A transfer of everything reaps its sender, whose nonce then starts from 0 again. Once the
/// account is refunded, its old transactions carry valid nonces: an immortal one replays (the
/// hazard), a mortal one — what pq-cli signs — has expired and is refused.
#[test]
fn replaying_a_transfer_after_its_sender_was_reaped_needs_an_immortal_transaction() {
	dev_chain().execute_with(|| {
		let mallory = Keypair::from_suri(Scheme::Ed25519, "//Mallory").unwrap();
		let drain = |to: &Keypair| {
			RuntimeCall::Balances(polkadot_sdk::pallet_balances::Call::transfer_all {
				dest: Address::Id(to.account_id()),
				keep_alive: false,
			})
		};
		let refund = |who: &Keypair| {
			use polkadot_sdk::frame_support::traits::fungible::Mutate;
			Balances::set_balance(&who.account_id(), 10 * UNIT);
		};
		let genesis = transactions::Checkpoint { number: 0, hash: System::block_hash(0) };
		let mortal = ChainIdentity { checkpoint: Some(genesis), ..chain() };

		let (immortal_sender, mortal_sender) = (
			Keypair::from_suri(Scheme::MlDsa44, "//Alice").unwrap(),
			Keypair::from_suri(Scheme::MlDsa65, "//Alice").unwrap(),
		);
		let immortal_drain =
			transactions::sign(&immortal_sender, drain(&mallory), 0, 0, Form::KeyInline, &chain())
				.unwrap();
		let mortal_drain =
			transactions::sign(&mortal_sender, drain(&mallory), 0, 0, Form::KeyInline, &mortal)
				.unwrap();
		for (sender, extrinsic) in
			[(&immortal_sender, &immortal_drain), (&mortal_sender, &mortal_drain)]
		{
			assert_eq!(apply(extrinsic.clone()), Ok(Ok(())));
			assert!(!System::account_exists(&sender.account_id()), "reaped");
			refund(sender);
			assert_eq!(System::account_nonce(sender.account_id()), 0, "the nonce starts again");
		}
		for _ in 0..transactions::MORTAL_PERIOD {
			next_block();
		}

		assert_eq!(apply(immortal_drain), Ok(Ok(())), "the immortal transfer replays");
		assert_eq!(
			apply(mortal_drain),
			Err(InvalidTransaction::BadProof.into()),
			"the mortal one expired"
		);
	});
}

/// Wallets see the runtime's extrinsic as `UncheckedExtrinsic`: the same bytes both ways and
/// the same type in the metadata, so checking and charging by form changes nothing they build
/// or decode.
#[test]
fn the_runtime_extrinsic_is_the_unchecked_extrinsic_on_the_wire() {
	use codec::{Decode, Encode};
	dev_chain().execute_with(|| {
		let alice = Keypair::from_suri(Scheme::MlDsa65, "//Alice").unwrap();
		let bob = Keypair::from_suri(Scheme::Ed25519, "//Bob").unwrap();
		let registered =
			transactions::sign(&alice, transfer(&bob, UNIT), 0, 0, Form::KeyRegistered, &chain())
				.unwrap();
		for extrinsic in [signed_extrinsic(&alice, transfer(&bob, UNIT), 0), registered] {
			let wrapped = RuntimeExtrinsic::from(extrinsic.clone());
			assert_eq!(wrapped.encode(), extrinsic.encode());
			assert_eq!(RuntimeExtrinsic::decode(&mut &extrinsic.encode()[..]).unwrap(), wrapped);
		}
	});
	assert_eq!(
		scale_info::meta_type::<RuntimeExtrinsic>(),
		scale_info::meta_type::<UncheckedExtrinsic>()
	);
}

/// A higher ML-DSA level never costs less to check, in either runtime build's weights: a
/// regeneration that a drifting clock got wrong fails here rather than misprices a level.
#[test]
fn signature_weights_rise_with_the_security_level() {
	use pallet_pq_verifier::{weights::SubstrateWeight, SignatureCheck, WeightInfo};
	fn rising<W: WeightInfo>(build: &str) {
		type Form = fn(Scheme) -> SignatureCheck;
		let forms: [(&str, Form); 2] = [
			("key inline", SignatureCheck::KeyInline),
			("registered", SignatureCheck::KeyRegistered),
		];
		for (form, check) in forms {
			let weights = Scheme::ML_DSA.map(|scheme| check(scheme).weight::<W>().ref_time());
			assert!(weights.is_sorted(), "{build}, {form}: ML-DSA-44, -65, -87 weigh {weights:?}");
		}
	}
	rising::<pq_runtime::PqVerifierWeights>("host functions");
	rising::<SubstrateWeight<Runtime>>("pure Wasm");
}

#[test]
fn validators_aura_keys_are_the_dev_uris() {
	use polkadot_sdk::sp_core::{sr25519, Pair};
	for (name, key) in DEV_NAMES.iter().zip(presets::SR25519_DEV_KEYS) {
		assert_eq!(
			sr25519::Pair::from_string(&format!("//{name}"), None).unwrap().public().0,
			key,
			"//{name}"
		);
	}
}

/// `build_state` of `preset` merged into the default configuration, as a chain specification
/// does, with the block time field set to `slot`.
fn genesis_state(
	preset: serde_json::Value,
	slot: Option<serde_json::Value>,
) -> Result<TestExternalities, String> {
	let mut config = serde_json::to_value(RuntimeGenesisConfig::default()).unwrap();
	merge_patch(&mut config, preset);
	if let Some(slot) = slot {
		config[presets::SLOT_DURATION_FIELD] = slot;
	}
	let mut ext = TestExternalities::default();
	ext.execute_with(|| presets::build_state(serde_json::to_vec(&config).unwrap()))?;
	Ok(ext)
}

fn local_testnet_state(
	validators: usize,
	slot: Option<serde_json::Value>,
) -> Result<TestExternalities, String> {
	genesis_state(presets::local_testnet_of(validators)?, slot)
}

#[test]
fn a_local_testnet_has_its_validators_and_the_block_time_its_genesis_sets() {
	use polkadot_sdk::{pallet_aura, pallet_grandpa};
	local_testnet_state(4, None).unwrap().execute_with(|| {
		assert_eq!(pallet_aura::Authorities::<Runtime>::get().len(), 4);
		assert_eq!(pallet_grandpa::Pallet::<Runtime>::grandpa_authorities().len(), 4);
		assert_eq!(pq_runtime::Aura::slot_duration(), 6_000, "6 s by default");
	});
	local_testnet_state(3, Some(1_500.into())).unwrap().execute_with(|| {
		assert_eq!(pq_runtime::Aura::slot_duration(), 1_500);
	});
	for refused in [
		0.into(),
		99.into(),
		3_600_001.into(),
		u64::MAX.into(),
		(-5).into(),
		"6s".into(),
		1.5.into(),
	] {
		let error = local_testnet_state(3, Some(refused)).expect_err("refused");
		assert!(error.contains(presets::SLOT_DURATION_FIELD), "{error}");
	}
	for validators in [0, 7] {
		assert!(presets::local_testnet_of(validators).is_err(), "{validators}");
	}
}

/// Whether a block whose digest holds `aura` (each item an Aura pre-runtime payload) and whose
/// timestamp is `timestamp` executes on `state` (a chain with 1 s slots).
fn executes(state: impl Fn() -> TestExternalities, timestamp: u64, aura: &[Vec<u8>]) -> bool {
	use polkadot_sdk::{
		sp_consensus_aura::AURA_ENGINE_ID,
		sp_runtime::{traits::Header as _, Digest, DigestItem},
	};
	let logs: Vec<DigestItem> = aura
		.iter()
		.map(|payload| DigestItem::PreRuntime(AURA_ENGINE_ID, payload.clone()))
		.collect();
	std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
		state().execute_with(|| {
			let digest = Digest { logs: logs.clone() };
			let header = pq_runtime::Header::new(
				1,
				Default::default(),
				Default::default(),
				Default::default(),
				digest,
			);
			Executive::initialize_block(&header);
			pq_runtime::Timestamp::set(pq_runtime::RuntimeOrigin::none(), timestamp).unwrap();
		})
	}))
	.is_ok()
}

fn aura_slot(slot: u64) -> Vec<u8> {
	codec::Encode::encode(&polkadot_sdk::sp_consensus_aura::Slot::from(slot))
}

/// On a chain of validators every block is Aura's: one well-formed slot, its timestamp in it.
#[test]
fn a_validators_block_has_one_well_formed_slot_and_its_timestamp_in_it() {
	let validators = || local_testnet_state(3, Some(1_000.into())).unwrap();
	assert!(executes(validators, 10_000, &[aura_slot(10)]));
	assert!(executes(validators, 10_999, &[aura_slot(10)]));
	assert!(!executes(validators, 11_000, &[aura_slot(10)]), "a timestamp after the slot");
	assert!(!executes(validators, 9_999, &[aura_slot(10)]), "a timestamp before the slot");
	assert!(!executes(validators, 123_456_789, &[]), "no slot: a block Aura did not make");
}

/// An author puts a malformed Aura item before its real one, which the node skips but
/// pallet-aura reads: to claim a slot of its choosing (9 bytes, decoded leniently) or none (7
/// bytes: to author many blocks in one slot). Or two slots.
#[test]
fn a_malformed_or_second_aura_slot_is_refused() {
	let validators = || local_testnet_state(3, Some(1_000.into())).unwrap();
	let mut nine_bytes = aura_slot(50);
	nine_bytes.push(0);
	for (label, items) in [
		("a 9-byte slot first", vec![nine_bytes, aura_slot(10)]),
		("a 7-byte slot first", vec![aura_slot(50)[..7].to_vec(), aura_slot(10)]),
		("two slots", vec![aura_slot(10), aura_slot(10)]),
	] {
		assert!(!executes(validators, 10_000, &items), "{label}");
	}
}

/// The dev chain (no validators) seals on demand: no slot, any timestamp. A block builder that
/// always adds an Aura slot (chopsticks) may, with any timestamp; a malformed or second slot is
/// refused there too.
#[test]
fn a_dev_block_has_at_most_one_well_formed_slot_and_any_timestamp() {
	let dev = || genesis_state(presets::development(), None).unwrap();
	assert!(executes(dev, 123_456_789, &[]));
	assert!(executes(dev, 123_456_789, &[aura_slot(10)]));
	assert!(!executes(dev, 10_000, &[aura_slot(10), aura_slot(11)]), "two slots");
	assert!(!executes(dev, 10_000, &[aura_slot(10)[..7].to_vec()]), "a 7-byte slot");
	assert!(!executes(dev, 10_000, &[[aura_slot(10), vec![0]].concat()]), "a 9-byte slot");
}

/// Validates `extrinsic` as the transaction pool does.
fn validate(
	extrinsic: RuntimeExtrinsic,
) -> polkadot_sdk::sp_runtime::transaction_validity::TransactionValidity {
	use polkadot_sdk::sp_runtime::transaction_validity::TransactionSource;
	Executive::validate_transaction(TransactionSource::External, extrinsic, System::parent_hash())
}

/// `extrinsic` with one bit of its signature bytes flipped: garbage that only a verification
/// refuses.
fn with_garbage_signature(mut extrinsic: UncheckedExtrinsic) -> UncheckedExtrinsic {
	use pq_crypto::TransactionSignature;
	let Preamble::Signed(_, signature, _) = &mut extrinsic.preamble else {
		panic!("a signed extrinsic")
	};
	match signature {
		TransactionSignature::Ed25519(signature) => signature.0[0] ^= 1,
		TransactionSignature::MlDsa44(_, signature)
		| TransactionSignature::MlDsa44Registered(signature) => signature.0[0] ^= 1,
		TransactionSignature::MlDsa65(_, signature)
		| TransactionSignature::MlDsa65Registered(signature) => signature.0[0] ^= 1,
		TransactionSignature::MlDsa87(_, signature)
		| TransactionSignature::MlDsa87Registered(signature) => signature.0[0] ^= 1,
		other => panic!("no garbage made of {other:?}"),
	}
	extrinsic
}

/// A transaction from an account that cannot pay is refused as `Payment` before its signature
/// is verified: an unfunded account's garbage
/// costs a node a balance read, not an ML-DSA verification (which would say `BadProof`).
#[test]
fn an_unfunded_signed_extrinsic_is_refused_before_verification() {
	dev_chain().execute_with(|| {
		let bob = Keypair::from_suri(Scheme::Ed25519, "//Bob").unwrap();
		for scheme in SCHEMES {
			let pauper = Keypair::from_suri(scheme, "//nobody").unwrap();
			let garbage =
				with_garbage_signature(signed_extrinsic(&pauper, transfer(&bob, UNIT), 0));
			assert_eq!(
				validate(garbage.clone().into()),
				Err(InvalidTransaction::Payment.into()),
				"{scheme:?}"
			);
			assert_eq!(apply(garbage), Err(InvalidTransaction::Payment.into()), "{scheme:?}");
		}
		// A funded sender's garbage is verified, and refused as such.
		let alice = Keypair::from_suri(Scheme::MlDsa87, "//Alice").unwrap();
		let garbage = with_garbage_signature(signed_extrinsic(&alice, transfer(&bob, UNIT), 0));
		assert_eq!(validate(garbage.into()), Err(InvalidTransaction::BadProof.into()));
	});
}

/// An Ed25519-signed extrinsic naming a post-quantum account — funded, as an attacker with a
/// discrete-logarithm oracle would pick it — is refused as an invalid key before anything is
/// verified: the account is no Ed25519 key.
#[test]
fn a_classical_signature_for_a_post_quantum_account_is_refused_by_the_runtime() {
	use pallet_pq_verifier::PqInvalidTransaction;
	use pq_crypto::{keys::Ed25519Signature, TransactionSignature};
	dev_chain().execute_with(|| {
		let bob = Keypair::from_suri(Scheme::Ed25519, "//Bob").unwrap();
		for scheme in Scheme::ML_DSA {
			let victim = Keypair::from_suri(scheme, "//Alice").unwrap();
			let mut extrinsic = signed_extrinsic(&victim, transfer(&bob, UNIT), 0);
			let Preamble::Signed(_, signature, _) = &mut extrinsic.preamble else { unreachable!() };
			*signature = TransactionSignature::Ed25519(Ed25519Signature([0x11; 64]));
			assert_eq!(
				validate(extrinsic.into()),
				Err(PqInvalidTransaction::InvalidKey.into()),
				"{scheme:?}"
			);
		}
	});
}

/// A reproducible stream of test bytes (Marsaglia's xorshift64).
fn xorshift(mut state: u64) -> impl FnMut() -> u64 {
	move || {
		state ^= state << 13;
		state ^= state >> 7;
		state ^= state << 17;
		state
	}
}

/// Bytes as `author_submitExtrinsic` passes them on: a length prefix the node checked, and a
/// body nobody did. Every one decodes as the runtime's extrinsic — garbage as
/// `RuntimeExtrinsic::Undecodable` — and is refused with a reason, never a trap: truncated,
/// bit-flipped and re-prefixed extrinsics of every form and scheme, and random bodies, 100,000
/// cases. Validation must not panic, and nothing but the genuine extrinsics may be valid.
#[test]
fn no_transaction_bytes_trap_the_runtime() {
	use codec::{Compact, Decode, Encode};
	use pallet_pq_verifier::PqInvalidTransaction;
	use polkadot_sdk::sp_runtime::transaction_validity::{
		TransactionSource, TransactionValidityError,
	};
	dev_chain().execute_with(|| {
		let bob = Keypair::from_suri(Scheme::Ed25519, "//Bob").unwrap();
		let mut genuine = Vec::new();
		for scheme in SCHEMES {
			let alice = Keypair::from_suri(scheme, "//Alice").unwrap();
			genuine.push(signed_extrinsic(&alice, transfer(&bob, UNIT), 0).encode());
			if scheme.is_registerable() {
				genuine.push(
					transactions::sign(
						&alice,
						transfer(&bob, UNIT),
						0,
						0,
						Form::KeyRegistered,
						&chain(),
					)
					.unwrap()
					.encode(),
				);
			}
		}
		let bodies: Vec<Vec<u8>> = genuine
			.iter()
			.map(|bytes| {
				let mut input = &bytes[..];
				let _ = Compact::<u32>::decode(&mut input).unwrap();
				input.to_vec()
			})
			.collect();

		let mut next = xorshift(0x5eed_f00d_dead_beef);
		let mut refusals = std::collections::BTreeMap::<String, u32>::new();
		for case in 0..100_000u32 {
			let body = &bodies[case as usize % bodies.len()];
			let mut garbage = match case % 4 {
				// Truncated.
				0 => body[..(next() as usize % body.len())].to_vec(),
				// One to eight bits flipped.
				1 => {
					let mut flipped = body.clone();
					for _ in 0..=next() % 8 {
						let bit = next() as usize % (8 * flipped.len());
						flipped[bit / 8] ^= 1 << (bit % 8);
					}
					flipped
				},
				// Another extrinsic's head on this one's tail.
				2 => {
					let other = &bodies[next() as usize % bodies.len()];
					let cut = next() as usize % body.len().min(other.len());
					[&other[..cut], &body[cut..]].concat()
				},
				// Random bytes.
				_ => (0..next() % 8192).map(|_| next() as u8).collect(),
			};
			if case % 16 == 0 {
				garbage.extend((0..next() % 64).map(|_| next() as u8)); // Trailing bytes.
			}
			// The runtime API's own decoding of its arguments, which must not fail.
			let arguments = [
				TransactionSource::External.encode(),
				Compact(garbage.len() as u32).encode(),
				garbage.clone(),
				System::parent_hash().encode(),
			]
			.concat();
			let (source, extrinsic, block_hash) =
				<(TransactionSource, RuntimeExtrinsic, pq_runtime::Hash)>::decode(
					&mut &arguments[..],
				)
				.expect("a prefixed body decodes");
			// As a runtime API call, whose changes the node discards.
			polkadot_sdk::sp_io::storage::start_transaction();
			let validity = Executive::validate_transaction(source, extrinsic, block_hash);
			polkadot_sdk::sp_io::storage::rollback_transaction();
			if validity.is_ok() {
				assert!(genuine.iter().any(|bytes| bytes[..]
					== [Compact(garbage.len() as u32).encode(), garbage.clone()].concat()[..]));
				continue;
			}
			let reason = match validity.unwrap_err() {
				TransactionValidityError::Invalid(InvalidTransaction::Custom(code)) => {
					format!("{:?}", PqInvalidTransaction::from_code(code).expect("a named refusal"))
				},
				other => format!("{other:?}"),
			};
			*refusals.entry(reason).or_default() += 1;
		}
		println!("refusals: {refusals:?}");
		assert!(refusals.get("Undecodable").copied().unwrap_or(0) > 10_000, "{refusals:?}");
		assert!(
			refusals.keys().any(|reason| reason.contains("BadProof")),
			"some mutations decode and fail verification: {refusals:?}"
		);
	});
}

/// Bytes that decode as no extrinsic are refused by name, re-encode as they came, and are
/// weighed as a whole block for a fee estimate: `query_info` answers instead of trapping.
#[test]
fn undecodable_bytes_are_refused_by_name() {
	use codec::{Compact, Decode, Encode};
	use pallet_pq_verifier::PqInvalidTransaction;
	dev_chain().execute_with(|| {
		let bytes = [vec![0x10], vec![0x84, 0xff, 0x00, 0x01]].concat();
		let extrinsic = RuntimeExtrinsic::decode(&mut &bytes[..]).unwrap();
		assert!(
			matches!(&extrinsic, RuntimeExtrinsic::Undecodable(body, _) if body == &[0x84, 0xff, 0x00, 0x01])
		);
		assert_eq!(extrinsic.encode(), bytes);
		assert_eq!(validate(extrinsic.clone()), Err(PqInvalidTransaction::Undecodable.into()));
		let info = pq_runtime::TransactionPayment::query_info(extrinsic, bytes.len() as u32);
		assert_eq!(info.weight, pq_runtime::configs::RuntimeBlockWeights::get().max_block);
		// Calls nested beyond the executive's depth limit are no extrinsic either: decoding stops
		// at the limit instead of running out of stack. Built as bytes — a call within `sudo` is
		// the pallet's index and the call's own, then the inner call — since a Rust value that
		// deep would take this test's stack to encode and drop.
		let sudo = RuntimeCall::Sudo(polkadot_sdk::pallet_sudo::Call::sudo {
			call: Box::new(RuntimeCall::System(frame_system::Call::remark { remark: vec![] })),
		})
		.encode();
		let (sudo_prefix, remark) = sudo.split_at(2);
		let deep_call = [sudo_prefix.repeat(10_000), remark.to_vec()].concat();
		let body = [vec![4u8], deep_call].concat(); // Version 4, bare.
		let deep = [Compact(body.len() as u32).encode(), body].concat();
		assert!(matches!(
			RuntimeExtrinsic::decode(&mut &deep[..]).unwrap(),
			RuntimeExtrinsic::Undecodable(..)
		));
	});
}

/// Decoding a call nested in others keeps one `RuntimeCall` per level on the stack: a large one
/// would let an extrinsic nested within the decoding depth limit overflow the runtime's stack
/// — a trap. Large call arguments (keys, signatures) are boxed, so a level is small.
#[test]
fn a_runtime_call_is_small_enough_to_nest_to_the_depth_limit() {
	assert!(
		std::mem::size_of::<RuntimeCall>() <= 128,
		"RuntimeCall is {} bytes",
		std::mem::size_of::<RuntimeCall>()
	);
}

/// A block's extrinsics are decoded one at a time and moved by value through checking and
/// applying, each move a copy of the whole value (in Wasm, a byte loop): a decoded extrinsic
/// stays small whatever its signature's scheme. Its ML-DSA keys and signatures are boxed, as
/// large call arguments are; inline, every extrinsic, Ed25519 included, was over 7 kB.
#[test]
fn a_decoded_extrinsic_is_small_whatever_its_signature() {
	assert!(
		std::mem::size_of::<RuntimeExtrinsic>() <= 512,
		"RuntimeExtrinsic is {} bytes",
		std::mem::size_of::<RuntimeExtrinsic>()
	);
}

/// The pallet's invariants hold on the dev chain's genesis and after the calls that change its
/// state — a migration with its only-key rule, a key registered for its own account — as the
/// runtime dispatches them (`try_state`, here without the `try-runtime` feature).
#[test]
fn the_pallet_invariants_hold_on_the_dev_chain() {
	dev_chain().execute_with(|| {
		assert_eq!(pq_runtime::PqVerifier::do_try_state(), Ok(()));
		let chain = chain();
		let ed25519 = Keypair::from_suri(Scheme::Ed25519, "//Charlie").unwrap();
		let new_key = Keypair::from_suri(Scheme::MlDsa87, "//Charlie//pq").unwrap();
		let migrate =
			transactions::register_key_call(&new_key, &ed25519.account_id(), true, &chain);
		assert_eq!(
			apply(transactions::sign(&ed25519, migrate, 0, 0, Form::KeyInline, &chain).unwrap()),
			Ok(Ok(()))
		);
		let own = Keypair::from_suri(Scheme::MlDsa44, "//Charlie").unwrap();
		let register = transactions::register_key_call(&own, &own.account_id(), false, &chain);
		assert_eq!(
			apply(transactions::sign(&own, register, 0, 0, Form::KeyInline, &chain).unwrap()),
			Ok(Ok(()))
		);
		assert_eq!(pq_runtime::PqVerifier::do_try_state(), Ok(()));
	});
}
