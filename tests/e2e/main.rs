//! End to end: a real `pq-node --dev` on loopback ports with a temporary base path, driven over
//! JSON-RPC by pq-cli (its library, the same code as the binary).

mod attacks;
mod network;
mod subxt_decoding;

use codec::Encode;
use polkadot_sdk::{
	frame_system, pallet_balances,
	sp_core::{crypto::Ss58Codec, H256},
	sp_runtime::generic::Preamble,
};
use pq_crypto::Scheme;
use pq_runtime::{Address, RuntimeEvent, UncheckedExtrinsic, UNIT};
use pq_runtime_client::inclusion::{submit, Included, WaitFor};
use pq_runtime_client::{
	node_process::NodeProcess,
	rpc::{Refusal, RpcClient},
	transactions::{self, Form, Sender},
};
use pq_signer::signing::Keypair;
use std::path::Path;

fn pq_node() -> &'static Path {
	Path::new(env!("CARGO_BIN_EXE_pq-node"))
}

const ML_DSA: [Scheme; 3] = Scheme::ML_DSA;
const SCHEMES: [Scheme; 4] = Scheme::SINGLE_KEY;

fn dev_key(scheme: Scheme, name: &str) -> Keypair {
	Keypair::from_suri(scheme, &format!("//{name}")).unwrap()
}

/// A fresh account nobody else in the test uses.
fn fresh_account(label: &str) -> Keypair {
	Keypair::from_suri(Scheme::Ed25519, &format!("//e2e//{label}")).unwrap()
}

async fn signed_transfer(
	node: &RpcClient,
	from: &Keypair,
	to: &Keypair,
	amount: u128,
	form: Form,
) -> UncheckedExtrinsic {
	let chain = node.chain_identity().await.unwrap();
	let nonce = node.next_nonce(&from.account_id()).await.unwrap();
	transactions::sign(
		from,
		transactions::transfer_call(to.account_id(), amount),
		nonce,
		0,
		form,
		&chain,
	)
	.unwrap()
}

/// Submits `extrinsic`, waits until it is final, and returns where it went.
async fn include(node: &RpcClient, extrinsic: &UncheckedExtrinsic) -> Included {
	submit(node, extrinsic, WaitFor::Finalized, &mut std::io::sink())
		.await
		.unwrap()
		.expect("followed to a block")
}

/// Sends a transfer from `from` in `form` and checks both balances, the events and the fee.
async fn transfer_and_check(node: &RpcClient, from: &Keypair, form: Form, label: &str) {
	let to = fresh_account(label);
	let amount = 3 * UNIT;
	let sender_before = node.account(&from.account_id(), None).await.unwrap().data.free;

	let included = include(node, &signed_transfer(node, from, &to, amount, form).await).await;

	let at = Some(included.block);
	let sender_after = node.account(&from.account_id(), at).await.unwrap().data.free;
	let recipient_after = node.account(&to.account_id(), at).await.unwrap().data.free;
	assert_eq!(recipient_after, amount, "{label}");
	assert!(included.fee > 0, "{label}: a transaction pays a fee");
	assert_eq!(sender_before - sender_after, amount + included.fee, "{label}: amount plus fee");
	let transfer = RuntimeEvent::Balances(pallet_balances::Event::Transfer {
		from: from.account_id(),
		to: to.account_id(),
		amount,
	});
	assert!(included.events.contains(&transfer), "{label}: {:?}", included.events);
	assert!(
		included.events.iter().any(|event| matches!(
			event,
			RuntimeEvent::System(frame_system::Event::ExtrinsicSuccess { .. })
		)),
		"{label}"
	);
}

#[tokio::test]
async fn transfers_from_every_scheme_and_form_are_included_with_events_and_fees() {
	let node = NodeProcess::start_dev(pq_node()).await;
	let rpc = node.rpc().await;
	for scheme in SCHEMES {
		let sender = dev_key(scheme, "Alice");
		transfer_and_check(&rpc, &sender, Form::KeyInline, &format!("{}-inline", scheme.name()))
			.await;
	}
	for scheme in ML_DSA {
		let sender = dev_key(scheme, "Bob");
		let chain = rpc.chain_identity().await.unwrap();
		let register =
			transactions::register_key_call(&sender, &sender.account_id(), false, &chain);
		let nonce = rpc.next_nonce(&sender.account_id()).await.unwrap();
		let included = include(
			&rpc,
			&transactions::sign(&sender, register, nonce, 0, Form::KeyInline, &chain).unwrap(),
		)
		.await;
		assert!(included.events.iter().any(|event| matches!(
			event,
			RuntimeEvent::PqVerifier(pallet_pq_verifier::Event::KeyRegistered { .. })
		)));
		transfer_and_check(
			&rpc,
			&sender,
			Form::KeyRegistered,
			&format!("{}-registered", scheme.name()),
		)
		.await;
	}
}

/// Runs `pq-cli` with `args` against `node` and returns what it printed.
async fn cli(node: &NodeProcess, args: &[&str]) -> anyhow::Result<String> {
	use clap::Parser;
	let mut argv = vec!["pq-cli", "--url", node.url()];
	argv.extend_from_slice(args);
	let mut out = Vec::new();
	pq_cli::run(pq_cli::Cli::try_parse_from(argv)?, &mut out).await?;
	Ok(String::from_utf8(out).unwrap())
}

#[tokio::test]
async fn cli_round_trip_generate_fund_register_and_send_registered() {
	let node = NodeProcess::start_dev(pq_node()).await;
	let dir = tempfile::tempdir().unwrap();
	let key_file = dir.path().join("carol.json");
	let key_path = key_file.to_str().unwrap();

	let generated = cli(&node, &["key", "generate", "--scheme", "ml-dsa-87", "--output", key_path])
		.await
		.unwrap();
	let account = generated
		.lines()
		.find_map(|line| line.strip_prefix("account: "))
		.unwrap()
		.to_owned();
	let inspected = cli(&node, &["key", "inspect", key_path]).await.unwrap();
	assert!(inspected.contains(&format!("account: {account}")));
	assert!(inspected.contains("public key (2592 bytes)"));

	let funded = cli(
		&node,
		&["transfer", "--from", "ml-dsa-44://Charlie", "--to", &account, "--amount", "25"],
	)
	.await
	.unwrap();
	assert!(
		funded.contains("submitted 0x")
			&& funded.contains("in block #")
			&& funded.contains("finalized #"),
		"{funded}"
	);
	assert!(funded.contains("fee paid: 0."), "{funded}");

	// Before its key is registered, the registered form is refused, and pq-client names the
	// pallet's reason.
	let early = [
		"transfer",
		"--from",
		key_path,
		"--to",
		"ed25519://Dave",
		"--amount",
		"1",
		"--form",
		"registered",
	];
	let refused = cli(&node, &early).await.unwrap_err().downcast::<Refusal>().expect("a refusal");
	assert!(refused.reason.contains("NoRegisteredKey"), "{refused}");

	cli(&node, &["register-key", "--key", key_path, "--form", "key-inline"])
		.await
		.unwrap();
	let sent = cli(
		&node,
		&[
			"transfer",
			"--from",
			key_path,
			"--to",
			"ed25519://Dave",
			"--amount",
			"1.5",
			"--form",
			"registered",
		],
	)
	.await
	.unwrap();
	assert!(sent.contains("finalized #"), "{sent}");

	let balance = cli(&node, &["balance", &account]).await.unwrap();
	assert!(balance.contains("registered key: ml-dsa-87"), "{balance}");
	assert!(balance.contains("nonce: 2"), "{balance}");
	let units = |label: &str| -> f64 {
		let line = balance.lines().find_map(|line| line.strip_prefix(label)).unwrap();
		line.trim_end_matches(" UNIT").parse().unwrap()
	};
	let (free, held) = (units("free: "), units("reserved or held: "));
	assert!(held > 3.0, "the key deposit is held: {balance}");
	let fees = 25.0 - 1.5 - free - held;
	assert!(fees > 0.0 && fees < 0.1, "25 in, 1.5 out, the deposit held, two fees: {balance}");
}

#[tokio::test]
async fn migration_of_an_ed25519_account_through_the_cli() {
	let node = NodeProcess::start_dev(pq_node()).await;
	let out =
		cli(&node, &["register-key", "--key", "ml-dsa-65://Eve//pq", "--from", "ed25519://Eve"])
			.await
			.unwrap();
	assert!(out.contains("AccountMigrated"), "{out}");
	let balance = cli(&node, &["balance", "ed25519://Eve"]).await.unwrap();
	assert!(balance.contains("registered key: ml-dsa-65 (migrated"), "{balance}");
}

/// A 16-member committee is created, funded and sends a transfer signed by 9 of its members
/// with one aggregate signature; 8 members, below the threshold, are refused by the node.
#[tokio::test]
async fn a_committee_signed_transfer_through_the_cli() {
	let node = NodeProcess::start_dev(pq_node()).await;
	fn with<'a>(command: &'a str, rest: &[&'a str]) -> Vec<&'a str> {
		let mut args =
			vec!["committee", command, "--seed", "e2e council", "--size", "16", "--threshold", "9"];
		args.extend_from_slice(rest);
		args
	}

	let inspected = cli(&node, &with("inspect", &[])).await.unwrap();
	let account = inspected
		.lines()
		.find_map(|line| line.strip_prefix("account: "))
		.unwrap()
		.to_owned();
	assert!(inspected.contains("signature on the wire: 4662 bytes"), "{inspected}");

	let created = cli(&node, &with("create", &["--from", "ml-dsa-87://Alice"])).await.unwrap();
	assert!(created.contains("CommitteeCreated"), "{created}");
	cli(&node, &["transfer", "--from", "ed25519://Alice", "--to", &account, "--amount", "50"])
		.await
		.unwrap();

	let recipient = fresh_account("committee-recipient").account_id().to_ss58check();
	let signers = "0,2,3,5,7,8,11,13,15";
	let sent =
		cli(&node, &with("transfer", &["--signers", signers, "--to", &recipient, "--amount", "2"]))
			.await
			.unwrap();
	assert!(sent.contains("9 of 16 members signed") && sent.contains("finalized #"), "{sent}");
	assert!(sent.contains("Balances::Transfer"), "{sent}");
	let balance = cli(&node, &["balance", &recipient]).await.unwrap();
	assert!(balance.contains("free: 2 UNIT"), "{balance}");
	// The signer set's key, derived from the shares when the pool admitted the transfer, was
	// known by its bitfield when the block was built: the node tells the host functions which
	// code each call executes (`ExecutingCodeFactory`), which that memory is scoped to.
	let metrics = node.metrics().await;
	let signer_set_hits = metrics
		.lines()
		.find(|line| {
			line.starts_with("pq_verifier_committee_cache_events_total{")
				&& line.contains("kind=\"signer_set\"")
				&& line.contains("event=\"hit\"")
		})
		.and_then(|line| line.rsplit(' ').next()?.parse::<f64>().ok())
		.unwrap_or_else(|| panic!("signer-set hits are exported: {metrics}"));
	assert!(signer_set_hits >= 1.0, "{metrics}");

	// Eight members, built without the CLI's own threshold check: the node names the refusal.
	let rpc = node.rpc().await;
	let args =
		pq_cli::committee::CommitteeArgs { seed: "e2e council".into(), size: 16, threshold: 9 };
	let committee = args.committee().unwrap();
	let chain = rpc.chain_identity().await.unwrap();
	let nonce = rpc.next_nonce(&pq_cli::committee::account(&committee)).await.unwrap();
	let call = transactions::transfer_call(fresh_account("committee-recipient").account_id(), UNIT);
	let eight = committee.signers(0..8).unwrap();
	let below = transactions::sign(
		Sender::Committee { committee: &committee, signers: &eight },
		call,
		nonce,
		0,
		Form::Committee,
		&chain,
	)
	.unwrap();
	let below = refusal(rpc.submit(&below.encode()).await.unwrap_err());
	assert!(below.reason.contains("BelowThreshold"), "{below}");
}

fn refusal(error: anyhow::Error) -> Refusal {
	error.downcast::<Refusal>().expect("the node answered with a JSON-RPC error")
}

#[tokio::test]
async fn bad_transactions_get_json_rpc_errors_and_the_node_keeps_running() {
	let node = NodeProcess::start_dev(pq_node()).await;
	let rpc = node.rpc().await;
	let alice = dev_key(Scheme::MlDsa65, "Alice");
	let bob = fresh_account("bob");

	// Forged: a valid signature over another amount.
	let honest = signed_transfer(&rpc, &alice, &bob, UNIT, Form::KeyInline).await;
	let Preamble::Signed(address, signature, extension) = honest.preamble.clone() else {
		panic!("signed")
	};
	let forged = UncheckedExtrinsic::new_signed(
		transactions::transfer_call(bob.account_id(), 1_000 * UNIT),
		address,
		signature,
		extension,
	);
	let forged = refusal(rpc.submit(&forged.encode()).await.unwrap_err());
	assert_eq!(forged.code, 1010);
	assert!(forged.reason.contains("bad signature"), "{forged}");

	// Truncated: not an extrinsic at all.
	let encoded = honest.encode();
	let truncated = refusal(rpc.submit(&encoded[..encoded.len() / 2]).await.unwrap_err());
	assert!(truncated.reason.to_lowercase().contains("decode"), "{truncated}");

	// A registered-key transaction from an account without a key: named by the pallet.
	let unregistered = signed_transfer(&rpc, &alice, &bob, UNIT, Form::KeyRegistered).await;
	let unregistered = refusal(rpc.submit(&unregistered.encode()).await.unwrap_err());
	assert!(unregistered.reason.contains("NoRegisteredKey"), "{unregistered}");

	// Replayed, after it was included: the same bytes are banned by the pool; signed again
	// (ML-DSA signing is randomized: other bytes), its nonce is used up.
	include(&rpc, &honest).await;
	let replayed = refusal(rpc.submit(&honest.encode()).await.unwrap_err());
	assert_eq!(replayed.code, 1012, "{replayed}");
	assert!(replayed.reason.contains("banned"), "{replayed}");
	let chain = rpc.chain_identity().await.unwrap();
	let resigned = transactions::sign(
		&alice,
		transactions::transfer_call(bob.account_id(), UNIT),
		0,
		0,
		Form::KeyInline,
		&chain,
	)
	.unwrap();
	assert_ne!(resigned.encode(), honest.encode());
	let stale = refusal(rpc.submit(&resigned.encode()).await.unwrap_err());
	assert_eq!(stale.code, 1010);
	assert!(stale.reason.contains("outdated"), "{stale}");

	// Still running and still accepting good transactions.
	transfer_and_check(&rpc, &alice, Form::KeyInline, "after-refusals").await;
	assert!(node.is_running());
}

#[tokio::test]
async fn state_survives_a_restart_on_the_same_base_path() {
	let base = tempfile::tempdir().unwrap();
	let recipient = fresh_account("persisted");
	let (block, number) = {
		let node = NodeProcess::start(pq_node(), base.path(), &["--dev"]).await;
		let rpc = node.rpc().await;
		let transfer = signed_transfer(
			&rpc,
			&dev_key(Scheme::MlDsa44, "Ferdie"),
			&recipient,
			9 * UNIT,
			Form::KeyInline,
		)
		.await;
		let included = include(&rpc, &transfer).await;
		node.stop().await;
		(included.block, included.block_number)
	};

	let node = NodeProcess::start(pq_node(), base.path(), &["--dev"]).await;
	let rpc = node.rpc().await;
	let hash: Option<H256> =
		rpc.request("chain_getBlockHash", jsonrpsee::rpc_params![number]).await.unwrap();
	assert_eq!(hash, Some(block), "the block is still there");
	assert_eq!(rpc.account(&recipient.account_id(), None).await.unwrap().data.free, 9 * UNIT);
	assert_eq!(rpc.next_nonce(&dev_key(Scheme::MlDsa44, "Ferdie").account_id()).await.unwrap(), 1);
}

#[tokio::test]
async fn manual_sealing_makes_blocks_only_when_asked() {
	let base = tempfile::tempdir().unwrap();
	let node = NodeProcess::start(pq_node(), base.path(), &["--dev", "--sealing", "manual"]).await;
	let rpc = node.rpc().await;
	let transfer = signed_transfer(
		&rpc,
		&dev_key(Scheme::MlDsa87, "Alice"),
		&fresh_account("manual"),
		UNIT,
		Form::KeyInline,
	)
	.await;
	rpc.submit(&transfer.encode()).await.unwrap();
	tokio::time::sleep(std::time::Duration::from_millis(500)).await;
	let best: serde_json::Value =
		rpc.request("chain_getHeader", jsonrpsee::rpc_params![]).await.unwrap();
	assert_eq!(best["number"], "0x0", "no block without engine_createBlock");

	let created: serde_json::Value = rpc
		.request("engine_createBlock", jsonrpsee::rpc_params![true, true, Option::<H256>::None])
		.await
		.unwrap();
	let block: H256 = serde_json::from_value(created["hash"].clone()).unwrap();
	let body = rpc.block(block).await.unwrap();
	assert_eq!(body.number, 1);
	assert!(body.extrinsics.iter().any(|extrinsic| extrinsic.0 == transfer.encode()));
}

#[tokio::test]
async fn standard_rpc_methods_and_metrics_answer() {
	let node = NodeProcess::start_dev(pq_node()).await;
	let rpc = node.rpc().await;
	let methods: serde_json::Value =
		rpc.request("rpc_methods", jsonrpsee::rpc_params![]).await.unwrap();
	for method in [
		"system_name",
		"system_health",
		"chain_getHeader",
		"chain_getBlock",
		"state_getStorage",
		"state_getMetadata",
		"author_submitExtrinsic",
		"author_submitAndWatchExtrinsic",
		"payment_queryInfo",
		"system_accountNextIndex",
	] {
		assert!(
			methods["methods"].as_array().unwrap().iter().any(|name| name == method),
			"{method} is served"
		);
	}
	let name: String = rpc.request("system_name", jsonrpsee::rpc_params![]).await.unwrap();
	assert_eq!(name, "pq-node");
	let chain: String = rpc.request("system_chain", jsonrpsee::rpc_params![]).await.unwrap();
	assert_eq!(chain, "pq-verifier development");

	let alice = dev_key(Scheme::MlDsa87, "Alice");
	let transfer =
		signed_transfer(&rpc, &alice, &fresh_account("fee"), UNIT, Form::KeyInline).await;
	let info: serde_json::Value = rpc
		.request(
			"payment_queryInfo",
			jsonrpsee::rpc_params![polkadot_sdk::sp_core::Bytes(transfer.encode())],
		)
		.await
		.unwrap();
	assert!(
		info["partialFee"].as_str().is_some_and(|fee| fee.parse::<u128>().unwrap() > 0),
		"{info}"
	);
	let nonce: u32 = rpc
		.request(
			"system_accountNextIndex",
			jsonrpsee::rpc_params![alice.account_id().to_ss58check()],
		)
		.await
		.unwrap();
	assert_eq!(nonce, 0);

	let metrics = node.metrics().await;
	assert!(metrics.contains("substrate_block_height"), "{metrics}");

	// The runtime verifies through the node's host functions: the transfer's key is decoded
	// once, at pool admission, and found in the node's cache when the block is built.
	include(&rpc, &transfer).await;
	let metrics = node.metrics().await;
	// `name{label,chain="dev"} value`
	let value = |name_and_label: &str| -> f64 {
		metrics
			.lines()
			.find(|line| line.starts_with(name_and_label))
			.and_then(|line| line.rsplit(' ').next()?.parse().ok())
			.unwrap_or_else(|| panic!("{name_and_label} is exported: {metrics}"))
	};
	assert!(value("pq_verifier_key_cache_events_total{event=\"miss\"") >= 1.0);
	assert!(value("pq_verifier_key_cache_events_total{event=\"hit\"") >= 1.0);
	assert!(value("pq_verifier_key_cache_size{unit=\"keys\"") >= 1.0);
}

#[tokio::test]
async fn throughput_harness_measures_every_stage_of_a_small_run() {
	use pq_benchmarks::throughput::{
		measure, report,
		workload::{Case, Verifier},
	};
	let cases = [
		Case { verifier: Verifier::HostFunctions, scheme: Scheme::Ed25519, form: Form::KeyInline },
		Case {
			verifier: Verifier::HostFunctions,
			scheme: Scheme::MlDsa44,
			form: Form::KeyRegistered,
		},
		Case { verifier: Verifier::PureWasm, scheme: Scheme::MlDsa44, form: Form::KeyRegistered },
		Case {
			verifier: Verifier::HostFunctions,
			scheme: Scheme::AggregateMlDsa87,
			form: Form::Committee,
		},
	];
	let mut rows = Vec::new();
	let logs = tempfile::tempdir().unwrap();
	for (index, case) in cases.into_iter().enumerate() {
		let node_log = logs.path().join(format!("{index}.log"));
		let measurement = measure::run(pq_node(), case, 24, Some(&node_log), &mut std::io::sink())
			.await
			.unwrap();
		assert_eq!(measurement.transactions, 24);
		assert_eq!(measurement.blocks.iter().map(|block| block.transactions).sum::<usize>(), 24);
		// The kept log is the author's, with every measured block in it
		// (benchmarking/authoring-split.sh reads it block by block).
		let log = std::fs::read_to_string(&node_log).unwrap();
		for block in &measurement.blocks {
			let hash = format!("{:?}", block.hash);
			assert!(
				log.lines()
					.any(|line| line.contains("Prepared block for proposing")
						&& line.contains(&hash)),
				"block {hash} is not in the kept log"
			);
		}
		rows.push(report::Row::new(measurement));
	}
	let table = report::table(&rows);
	assert!(table.contains("| host functions | ml-dsa-44 registered | 2501 |"), "{table}");
	assert!(table.contains("| pure Wasm | ml-dsa-44 registered | 2501 |"), "{table}");
	// One committee account, its 24 transfers signed by changing signer sets.
	assert!(
		table.contains("| host functions | aggregate-ml-dsa-87 committee of 16 | 47"),
		"{table}"
	);
	assert!(table.contains("1.00×"), "Ed25519 is its own baseline: {table}");
	assert!(report::tps_chart(&rows).starts_with("<svg"));
}

/// A manually sealed block is bounded by the runtime's block length and weight, not by the
/// storage proof manual seal recorded of it (and the proposer counted into its size): 760
/// ML-DSA-87 registered transfers, 3.6 MB of the normal class's 3.75 MiB, whose 431 key reads
/// record about 1.3 MB of proof, are one block (two, of 674 and 86, before).
#[tokio::test]
async fn a_manually_sealed_block_is_not_closed_by_the_proof_it_never_ships() {
	use pq_benchmarks::throughput::{
		measure,
		workload::{Case, Verifier},
	};
	let case = Case {
		verifier: Verifier::HostFunctions,
		scheme: Scheme::MlDsa87,
		form: Form::KeyRegistered,
	};
	let measurement = measure::run(pq_node(), case, 760, None, &mut std::io::sink()).await.unwrap();
	let sizes: Vec<_> = measurement.blocks.iter().map(|block| block.transactions).collect();
	assert_eq!(sizes, [760], "transfers per block");
}

/// The charged-vs-measured check's machinery, short, on a real node: each kind's blocks are
/// executed again and timed, and the charge is the runtime's own — an ML-DSA-87 signed transfer
/// costs exactly its signature's weight more than an Ed25519 one, and its key's account
/// derivation candidates beyond the first. (Whether any kind is charged
/// less than it costs is a timing question for `benchmarking/charge-check.sh`, not a test.)
#[tokio::test]
async fn the_charge_check_charges_each_signed_transfer_its_own_signature() {
	use pallet_pq_verifier::WeightInfo;
	use pq_benchmarks::{
		charge::{self, Kind},
		throughput::workload::Verifier,
	};
	use pq_runtime::PqVerifierWeights as W;
	const TRANSFERS: usize = 50;
	let mut checks = Vec::new();
	for scheme in [Scheme::Ed25519, Scheme::MlDsa87] {
		let kind = Kind::Transfer(scheme, Form::KeyInline);
		checks.push(
			// A small state: the test checks what is charged, not what it costs.
			charge::run(
				pq_node(),
				Verifier::HostFunctions,
				kind,
				TRANSFERS,
				0,
				&mut std::io::sink(),
			)
			.await
			.unwrap(),
		);
	}
	let table =
		charge::table(&charge::verdicts(checks.iter().map(|check| vec![check.clone()]).collect()));
	assert!(checks.iter().all(|check| check.blocks == 1 && !check.measured.is_zero()), "{table}");
	assert!(
		checks
			.iter()
			.flat_map(|check| check.probes)
			.all(|probe| !probe.ml_dsa_87.is_zero() && !probe.ed25519.is_zero()),
		"the machine's state is probed around each kind's imports: {table}"
	);
	let per_signature =
		W::verify_signed_ml_dsa_87().ref_time() - W::verify_signed_ed25519().ref_time();
	let derivations: u64 = (0..TRANSFERS)
		.map(|index| {
			match charge::keypair(Scheme::MlDsa87, "sender", index)
				.unwrap()
				.public()
				.account_derivation()
				.1
			{
				0 | 1 => 0,
				candidates => W::account_candidates(candidates - 1).ref_time(),
			}
		})
		.sum();
	assert!(derivations > 0, "some of 50 keys need more than one candidate");
	let bytes = (checks[1].bytes - checks[0].bytes) as u64
		* pq_runtime::IMPORT_COSTS.per_extrinsic_byte.ref_time();
	assert!(bytes > 0, "the runtime charges each byte, and ML-DSA-87 transfers are longer");
	assert_eq!(
		checks[1].charged - checks[0].charged,
		TRANSFERS as u64 * per_signature + derivations + bytes,
		"{table}"
	);
}
