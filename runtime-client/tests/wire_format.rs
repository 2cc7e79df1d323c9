//! The reference vectors of `docs/wire-format.md`: keys, accounts and one complete transaction
//! of every scheme and form, signed deterministically by this crate's builder, with every
//! intermediate value — the signed payload and what is signed of it, the signed message, the
//! FIPS 204 context, `tr` and `μ` — so a client author can find the first step that differs. The
//! committed file must be what the builder makes today; the JavaScript client checks it makes
//! the same bytes. `scripts/wire-vectors.sh` rewrites the file.

use codec::Encode;
use pallet_pq_verifier::PqInvalidTransaction;
use polkadot_sdk::sp_runtime::generic::Preamble;
use polkadot_sdk::{
	sp_core::{crypto::Ss58Codec, H256},
	sp_runtime::traits::TransactionExtension,
};
use pq_crypto::{
	account::{self, edwards::decodes_as_point},
	message::pure_message,
	params::{MlDsa44, MlDsa65, MlDsa87, MlDsaParams, COMMITTEE_ACCOUNT_TAG},
	statement::{signing_payload, TransactionStatement},
	AccountSigner, Scheme, TransactionSignature,
};
use pq_runtime::{TxExtension, UncheckedExtrinsic, UNIT};
use pq_runtime_client::transactions::{self, ChainIdentity, Checkpoint, Form, Randomness, Sender};
use pq_signer::{aggregator::Committee, signing::Keypair};
use serde_json::{json, Value};
use sha3::{
	digest::{ExtendableOutput, Update},
	Shake256,
};

/// The committed vectors, found from the manifest directory cargo gives the running test — not
/// `env!`'s, fixed at compile time: clones sharing one target directory can share a binary.
fn vectors_path() -> std::path::PathBuf {
	std::path::Path::new(&std::env::var_os("CARGO_MANIFEST_DIR").expect("run by cargo test"))
		.join("../docs/wire-format-vectors.json")
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

/// SHAKE256 of `parts`, 64 bytes: FIPS 204's `H(·, 64)`.
fn shake256_64(parts: &[&[u8]]) -> [u8; 64] {
	let mut hasher = Shake256::default();
	for part in parts {
		hasher.update(part);
	}
	let mut output = [0; 64];
	hasher.finalize_xof_into(&mut output);
	output
}

/// Every step from `extrinsic` back to what its signature signs: the signed payload, what of it
/// is signed (hashed when longer than 256 bytes), the signed message of its form, and for ML-DSA
/// (whose verifying key is `key`) the context, `M′`, `tr` and `μ` of FIPS 204 Algorithm 3.
fn signing_steps(
	extrinsic: &UncheckedExtrinsic,
	chain: &ChainIdentity,
	key: Option<&AccountSigner>,
) -> Value {
	let Preamble::Signed(address, signature, extensions) = &extrinsic.preamble else {
		panic!("a signed extrinsic")
	};
	let payload = transactions::transaction_payload(&extrinsic.function, extensions, chain);
	let signed_payload = signing_payload(&payload);
	let account = match address {
		polkadot_sdk::sp_runtime::MultiAddress::Id(account) => account,
		other => panic!("an account address, not {other:?}"),
	};
	let signatory = signature.signatory(account).expect("a form that signs");
	let statement = TransactionStatement { signatory, signing_payload: &signed_payload };
	let message = statement.message();
	let mut steps = json!({
		"payload": hex(&payload),
		"signing_payload": hex(&signed_payload),
		"message": hex(&message),
	});
	if let Some(key) = key.filter(|key| key.scheme() != Scheme::Ed25519) {
		let context = statement.purpose().context();
		let m_prime = pure_message(context, &message).expect("a purpose's context fits");
		let tr = shake256_64(&[key.key_bytes()]);
		steps["context"] = json!(String::from_utf8(context.to_vec()).unwrap());
		steps["m_prime"] = json!(hex(&m_prime));
		steps["tr"] = json!(hex(tr));
		steps["mu"] = json!(hex(shake256_64(&[&tr, &m_prime])));
		if !matches!(
			signature,
			TransactionSignature::MlDsa44(..)
				| TransactionSignature::MlDsa65(..)
				| TransactionSignature::MlDsa87(..)
		) {
			steps["verifying_key"] = json!(hex(key.key_bytes()));
		}
	}
	steps
}

fn vectors() -> Value {
	let chain = chain();
	let checkpoint = chain.checkpoint.expect("mortal");
	let bob = Keypair::from_suri(Scheme::Ed25519, "//Bob").unwrap().account_id();
	let call = transactions::transfer_call(bob.clone(), UNIT);
	let sign = |sender: Sender, form, key: Option<&AccountSigner>| {
		let extrinsic = transactions::sign_with(
			sender,
			call.clone(),
			NONCE,
			TIP,
			form,
			&chain,
			Randomness::Zero,
		)
		.unwrap();
		let mut vector = signing_steps(&extrinsic, &chain, key);
		vector["extrinsic"] = json!(hex(extrinsic.encode()));
		vector
	};
	let with = |mut vector: Value, steps: Value| {
		for (name, value) in steps.as_object().unwrap() {
			vector[name] = value.clone();
		}
		vector
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
			&[Form::KeyInline, Form::KeyRegistered]
		} else {
			&[Form::KeyInline]
		};
		for &form in forms {
			let vector = json!({
				"scheme": scheme.name(),
				"form": form.label(),
				"sender_suri": "//Alice",
				"account_id": hex(alice.account_id()),
			});
			transfers.push(with(vector, sign(Sender::Key(&alice), form, Some(&alice.public()))));
		}
	}
	// An Ed25519 account migrated to an ML-DSA-65 key: the key signs for the old account.
	let migrated = Keypair::from_suri(Scheme::Ed25519, "//Alice").unwrap().account_id();
	let key = Keypair::from_suri(Scheme::MlDsa65, "//Alice").unwrap();
	let vector = json!({
		"scheme": Scheme::MlDsa65.name(),
		"form": Form::KeyRegistered.label(),
		"sender_suri": "//Alice",
		"account_id": hex(&migrated),
	});
	transfers.push(with(
		vector,
		sign(
			Sender::Migrated { account: &migrated, key: &key },
			Form::KeyRegistered,
			Some(&key.public()),
		),
	));
	// A committee of 3 from a fixed seed, members 0 and 2 signing.
	let committee = Committee::from_seed(&[0x33; 32], 3, 2);
	let signers = committee.signers([0, 2]).unwrap();
	let vector = json!({
		"scheme": Scheme::AggregateMlDsa87.name(),
		"form": Form::Committee.label(),
		"committee_seed": hex([0x33; 32]),
		"committee_size": 3,
		"threshold": 2,
		"signers": [0, 2],
		"committee": hex(committee.id()),
		"signer_bitfield": hex(signers.encode()),
		"account_id": hex(committee.id().account_id()),
		"account_derivation": derivation(COMMITTEE_ACCOUNT_TAG, committee.id().as_ref()),
	});
	let aggregate_key = AccountSigner::MlDsa87(committee.aggregate_key(&signers));
	transfers.push(with(
		vector,
		sign(
			Sender::Committee { committee: &committee, signers: &signers },
			Form::Committee,
			Some(&aggregate_key),
		),
	));

	// A payload longer than 256 bytes, signed as its hash: ML-DSA-44 //Alice registers its key.
	let alice = Keypair::from_suri(Scheme::MlDsa44, "//Alice").unwrap();
	let register = transactions::register_key_call(&alice, &alice.account_id(), false, &chain);
	let extrinsic = transactions::sign_with(
		&alice,
		register.clone(),
		NONCE,
		TIP,
		Form::KeyInline,
		&chain,
		Randomness::Zero,
	)
	.unwrap();
	let mut long_payload = json!({
		"description": "PqVerifier::register_key of ML-DSA-44 //Alice's own key, key inline: the payload is hashed",
		"scheme": Scheme::MlDsa44.name(),
		"form": Form::KeyInline.label(),
		"sender_suri": "//Alice",
		"account_id": hex(alice.account_id()),
		"call": hex(register.encode()),
	});
	long_payload = with(long_payload, signing_steps(&extrinsic, &chain, Some(&alice.public())));
	long_payload["extrinsic"] = json!(hex(extrinsic.encode()));

	// The pallet's reasons, as the node reports them: `Custom error: <code>`.
	let refusals: serde_json::Map<String, Value> = (0..=u8::MAX)
		.filter_map(|code| {
			PqInvalidTransaction::from_code(code)
				.map(|reason| (code.to_string(), json!(format!("{reason:?}"))))
		})
		.collect();
	let extensions: Vec<String> = TxExtension::metadata()
		.into_iter()
		.map(|extension| extension.identifier.to_owned())
		.collect();
	json!({
		"about": "Reference vectors of docs/wire-format.md, from scripts/wire-vectors.sh (runtime-client/tests/wire_format.rs). ML-DSA signatures are deterministic (FIPS 204 rnd = 0^32). Each transfer gives its signed payload (call, explicit then implicit extension data), the signing payload (the payload, or its blake2-256 when longer than 256 bytes), the signed message of its form, and for ML-DSA the FIPS 204 context, M' = 0 || len(ctx) || ctx || message, tr = SHAKE256(pk, 64) and mu = SHAKE256(tr || M', 64).",
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
		"long_payload": long_payload,
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
	assert!(
		committed == current,
		"{} is stale: run scripts/wire-vectors.sh",
		vectors_path().display()
	);
}
