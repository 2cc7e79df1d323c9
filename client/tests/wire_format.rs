//! The reference vectors of `docs/wire-format.md`: keys, accounts and one complete transaction
//! of every scheme and form, signed deterministically by this crate's builder. The committed
//! file must be what the builder makes today; the JavaScript client checks it makes the same
//! bytes. `scripts/wire-vectors.sh` rewrites the file.

use codec::Encode;
use pallet_pq_verifier::PqInvalidTransaction;
use polkadot_sdk::{
	sp_core::{crypto::Ss58Codec, H256},
	sp_runtime::traits::TransactionExtension,
};
use pq_client::transactions::{self, ChainIdentity, Checkpoint, Form, Randomness, Sender};
use pq_crypto::{
	account::{self, edwards::decodes_as_point},
	aggregate::aggregator::Committee,
	params::{MlDsa44, MlDsa65, MlDsa87, MlDsaParams, COMMITTEE_ACCOUNT_TAG},
	signing::Keypair,
	Scheme,
};
use pq_runtime::{TxExtension, UNIT};
use serde_json::{json, Value};

/// The committed vectors, found from the manifest directory cargo gives the running test — not
/// `env!`'s, fixed at compile time: clones sharing one target directory can share a binary.
fn vectors_path() -> std::path::PathBuf {
	std::path::Path::new(&std::env::var_os("CARGO_MANIFEST_DIR").expect("run by cargo test")).join("../docs/wire-format-vectors.json")
}

fn hex(bytes: impl AsRef<[u8]>) -> String {
	format!("0x{}", hex_string(bytes.as_ref()))
}

fn hex_string(bytes: &[u8]) -> String {
	bytes.iter().map(|byte| format!("{byte:02x}")).collect()
}

/// The chain the transactions are signed for: made-up hashes, this runtime's versions.
fn chain() -> ChainIdentity {
	ChainIdentity {
		genesis_hash: H256::repeat_byte(0x11),
		spec_version: pq_runtime::VERSION.spec_version,
		transaction_version: pq_runtime::VERSION.transaction_version,
		checkpoint: Some(Checkpoint { number: 100, hash: H256::repeat_byte(0x22) }),
	}
}

const NONCE: u32 = 5;
const TIP: u128 = 7;

/// Every step of deriving the account id of `bytes` under `tag` (docs/wire-format.md, "Account
/// ids"): the seed, each candidate up to the first that is no edwards25519 encoding, the id.
fn derivation(tag: &[u8], bytes: &[u8]) -> Value {
	let mut candidates = Vec::new();
	for candidate in account::candidates(tag, bytes) {
		let is_point = decodes_as_point(&candidate);
		candidates.push(json!({ "candidate": hex(candidate), "edwards25519_point": is_point }));
		if !is_point {
			break;
		}
	}
	json!({
		"tag": String::from_utf8(tag.to_vec()).unwrap(),
		"seed": hex(account::version_1(tag, bytes)),
		"candidates": candidates,
		"account_id": hex(account::derive(tag, bytes)),
	})
}

fn account_tag(scheme: Scheme) -> Option<&'static [u8]> {
	match scheme {
		Scheme::MlDsa44 => Some(MlDsa44::ACCOUNT_TAG),
		Scheme::MlDsa65 => Some(MlDsa65::ACCOUNT_TAG),
		Scheme::MlDsa87 => Some(MlDsa87::ACCOUNT_TAG),
		Scheme::Ed25519 | Scheme::AggregateMlDsa87 => None,
	}
}

fn key_vector(key: &Keypair) -> Value {
	let public = key.public();
	let mut vector = json!({
		"public_key": hex(public.key_bytes()),
		"account_id": hex(key.account_id()),
		"address": key.account_id().to_ss58check(),
	});
	if let Some(tag) = account_tag(public.scheme()) {
		vector["account_derivation"] = derivation(tag, public.key_bytes());
	}
	vector
}

fn vectors() -> Value {
	let chain = chain();
	let checkpoint = chain.checkpoint.expect("mortal");
	let bob = Keypair::from_suri(Scheme::Ed25519, "//Bob").unwrap().account_id();
	let call = transactions::transfer_call(bob.clone(), UNIT);
	let sign = |sender: Sender, form| {
		let extrinsic = transactions::sign_with(sender, call.clone(), NONCE, TIP, form, &chain, Randomness::Zero).unwrap();
		hex(extrinsic.encode())
	};

	let mut keys = Vec::new();
	let mut transfers = Vec::new();
	for scheme in Scheme::SINGLE_KEY {
		let seed: [u8; 32] = core::array::from_fn(|i| i as u8);
		let mut from_seed = key_vector(&Keypair::from_seed(scheme, &seed).unwrap());
		from_seed["scheme"] = json!(scheme.name());
		from_seed["seed"] = json!(hex(seed));
		keys.push(from_seed);
		let alice = Keypair::from_suri(scheme, "//Alice").unwrap();
		let mut from_suri = key_vector(&alice);
		from_suri["scheme"] = json!(scheme.name());
		from_suri["suri"] = json!("//Alice");
		keys.push(from_suri);

		let forms: &[Form] = if scheme.is_registerable() {
			&[Form::Signed, Form::KeyInline, Form::KeyRegistered]
		} else {
			&[Form::Signed, Form::KeyInline]
		};
		for &form in forms {
			transfers.push(json!({
				"scheme": scheme.name(),
				"form": form.label(),
				"sender_suri": "//Alice",
				"account_id": hex(alice.account_id()),
				"extrinsic": sign(Sender::Key(&alice), form),
			}));
		}
	}
	// An Ed25519 account migrated to an ML-DSA-65 key: the key signs for the old account.
	let migrated = Keypair::from_suri(Scheme::Ed25519, "//Alice").unwrap().account_id();
	let key = Keypair::from_suri(Scheme::MlDsa65, "//Alice").unwrap();
	transfers.push(json!({
		"scheme": Scheme::MlDsa65.name(),
		"form": Form::KeyRegistered.label(),
		"sender_suri": "//Alice",
		"account_id": hex(&migrated),
		"extrinsic": sign(Sender::Migrated { account: &migrated, key: &key }, Form::KeyRegistered),
	}));
	// A committee of 3 from a fixed seed, members 0 and 2 signing.
	let committee = Committee::from_seed(&[0x33; 32], 3, 2);
	let signers = committee.signers([0, 2]).unwrap();
	transfers.push(json!({
		"scheme": Scheme::AggregateMlDsa87.name(),
		"form": Form::Committee.label(),
		"committee_seed": hex([0x33; 32]),
		"committee_size": 3,
		"threshold": 2,
		"signers": [0, 2],
		"account_id": hex(committee.id().account_id()),
		"account_derivation": derivation(COMMITTEE_ACCOUNT_TAG, committee.id().as_ref()),
		"extrinsic": sign(Sender::Committee { committee: &committee, signers: &signers }, Form::Committee),
	}));

	// The pallet's reasons, as the node reports them: `Custom error: <code>`.
	let refusals: serde_json::Map<String, Value> = (0..=u8::MAX)
		.filter_map(|code| PqInvalidTransaction::from_code(code).map(|reason| (code.to_string(), json!(format!("{reason:?}")))))
		.collect();
	let extensions: Vec<String> = TxExtension::metadata().into_iter().map(|extension| extension.identifier.to_owned()).collect();
	json!({
		"about": "Reference vectors of docs/wire-format.md, from scripts/wire-vectors.sh (client/tests/wire_format.rs). ML-DSA signatures are deterministic (FIPS 204 rnd = 0^32).",
		"chain": {
			"genesis_hash": hex(chain.genesis_hash),
			"spec_version": chain.spec_version,
			"transaction_version": chain.transaction_version,
			"checkpoint": { "number": checkpoint.number, "hash": hex(checkpoint.hash) },
			"mortal_period": transactions::MORTAL_PERIOD,
			"nonce": NONCE,
			"tip": TIP.to_string(),
			"extensions": extensions,
		},
		"call": {
			"description": "Balances::transfer_keep_alive to //Bob (Ed25519) of 1 UNIT",
			"encoded": hex(call.encode()),
		},
		"keys": keys,
		"transfers": transfers,
		"refusals": refusals,
	})
}

#[test]
fn the_committed_vectors_are_what_the_builder_signs() {
	let current = serde_json::to_string_pretty(&vectors()).unwrap() + "\n";
	if std::env::var_os("PQ_UPDATE_WIRE_VECTORS").is_some() {
		std::fs::write(vectors_path(), &current).unwrap();
	}
	let committed = std::fs::read_to_string(vectors_path()).unwrap_or_default();
	assert!(committed == current, "{} is stale: run scripts/wire-vectors.sh", vectors_path().display());
}
