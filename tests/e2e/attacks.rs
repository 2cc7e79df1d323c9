//! The attacks of `docs/security.md` that a third party mounts over JSON-RPC, against a real
//! `pq-node`: each is refused with its named reason, and the genuine transaction still works.

use super::*;
use pq_runtime_client::transactions::ChainIdentity;

/// Includes `extrinsic` and returns its events.
async fn events_of(node: &RpcClient, extrinsic: &UncheckedExtrinsic) -> Vec<RuntimeEvent> {
	include(node, extrinsic).await.events
}

fn succeeded(events: &[RuntimeEvent]) -> bool {
	events.iter().any(|event| {
		matches!(event, RuntimeEvent::System(frame_system::Event::ExtrinsicSuccess { .. }))
	})
}

/// `extrinsic` re-addressed to `account` with the same signature.
fn readdressed(
	extrinsic: &UncheckedExtrinsic,
	account: &polkadot_sdk::sp_runtime::AccountId32,
) -> UncheckedExtrinsic {
	let Preamble::Signed(_, signature, extensions) = &extrinsic.preamble else {
		panic!("a signed extrinsic")
	};
	UncheckedExtrinsic::new_signed(
		extrinsic.function.clone(),
		Address::Id(account.clone()),
		signature.clone(),
		extensions.clone(),
	)
}

/// One ML-DSA key is registered for its own account D and for an Ed25519 account E that
/// migrated to it; both have nonce 1. An observer takes D's next transfer and re-addresses it
/// to E: the node refuses it as a bad signature, and D's own transfer goes through.
#[tokio::test]
async fn cross_account_replay_is_refused_by_the_node() {
	let node = NodeProcess::start_dev(pq_node()).await;
	let rpc = node.rpc().await;
	let key = dev_key(Scheme::MlDsa65, "Dave");
	let derived = key.account_id();
	let migrated = dev_key(Scheme::Ed25519, "Dave");
	let chain = rpc.chain_identity().await.unwrap();

	let register = transactions::register_key_call(&key, &derived, false, &chain);
	assert!(succeeded(
		&events_of(
			&rpc,
			&transactions::sign(&key, register, 0, 0, Form::KeyInline, &chain).unwrap()
		)
		.await
	));
	let migrate = transactions::register_key_call(&key, &migrated.account_id(), false, &chain);
	assert!(succeeded(
		&events_of(
			&rpc,
			&transactions::sign(&migrated, migrate, 0, 0, Form::KeyInline, &chain).unwrap()
		)
		.await
	));
	assert_eq!(rpc.next_nonce(&derived).await.unwrap(), 1);
	assert_eq!(rpc.next_nonce(&migrated.account_id()).await.unwrap(), 1);

	let thief = fresh_account("thief");
	let genuine = transactions::sign(
		Sender::Migrated { account: &derived, key: &key },
		transactions::transfer_call(thief.account_id(), 5 * UNIT),
		1,
		0,
		Form::KeyRegistered,
		&chain,
	)
	.unwrap();
	let replayed = refusal(
		rpc.submit(&readdressed(&genuine, &migrated.account_id()).encode())
			.await
			.unwrap_err(),
	);
	assert_eq!(replayed.code, 1010, "{replayed}");
	assert!(replayed.reason.contains("bad signature"), "{replayed}");
	assert!(succeeded(&events_of(&rpc, &genuine).await));
	assert_eq!(rpc.account(&migrated.account_id(), None).await.unwrap().nonce, 1, "E sent nothing");
}

/// An Ed25519 account migrates to an ML-DSA key accepting only it, through the CLI; whoever
/// holds the old Ed25519 key tries to drain the account in every form, and to remove the new
/// key; each is refused as `OnlyRegisteredKey`. The new key sends, and can opt out again.
#[tokio::test]
async fn the_old_key_of_a_migrated_account_is_refused_by_the_node() {
	let node = NodeProcess::start_dev(pq_node()).await;
	let out = cli(
		&node,
		&[
			"register-key",
			"--key",
			"ml-dsa-87://Ferdie//pq",
			"--from",
			"ed25519://Ferdie",
			"--only-registered-key",
		],
	)
	.await
	.unwrap();
	assert!(out.contains("AccountMigrated") && out.contains("OnlyRegisteredKeySet"), "{out}");
	let balance = cli(&node, &["balance", "ed25519://Ferdie"]).await.unwrap();
	assert!(balance.contains("(migrated, only key, deposit"), "{balance}");

	let rpc = node.rpc().await;
	let old = dev_key(Scheme::Ed25519, "Ferdie");
	let thief = fresh_account("drain");
	let drain = signed_transfer(&rpc, &old, &thief, 100 * UNIT, Form::KeyInline).await;
	let refused = refusal(rpc.submit(&drain.encode()).await.unwrap_err());
	assert!(refused.reason.contains("OnlyRegisteredKey"), "{refused}");
	let chain = rpc.chain_identity().await.unwrap();
	let nonce = rpc.next_nonce(&old.account_id()).await.unwrap();
	let remove = pallet_pq_verifier::Call::<pq_runtime::Runtime>::remove_key {}.into();
	let undo = refusal(
		rpc.submit(
			&transactions::sign(&old, remove, nonce, 0, Form::KeyInline, &chain)
				.unwrap()
				.encode(),
		)
		.await
		.unwrap_err(),
	);
	assert!(undo.reason.contains("OnlyRegisteredKey"), "{undo}");

	let to = fresh_account("ferdie-pays").account_id().to_ss58check();
	let registered = [
		"--from",
		"ml-dsa-87://Ferdie//pq",
		"--account",
		"ed25519://Ferdie",
		"--form",
		"registered",
	];
	let sent = cli(&node, &[&["transfer", "--to", &to, "--amount", "1"][..], &registered].concat())
		.await
		.unwrap();
	assert!(sent.contains("Balances::Transfer"), "{sent}");

	// A rotation in one transaction keeps the old key out.
	let rotated = cli(
		&node,
		&[&["rotate-key", "--key", "ml-dsa-44://Ferdie//pq2"][..], &registered].concat(),
	)
	.await
	.unwrap();
	assert!(rotated.contains("KeyRotated"), "{rotated}");
	let balance = cli(&node, &["balance", "ed25519://Ferdie"]).await.unwrap();
	assert!(
		balance.contains("registered key: ml-dsa-44 (migrated, only key, deposit"),
		"{balance}"
	);
	let drain = signed_transfer(&rpc, &old, &thief, 100 * UNIT, Form::KeyInline).await;
	assert!(refusal(rpc.submit(&drain.encode()).await.unwrap_err())
		.reason
		.contains("OnlyRegisteredKey"));

	let registered = [
		"--from",
		"ml-dsa-44://Ferdie//pq2",
		"--account",
		"ed25519://Ferdie",
		"--form",
		"registered",
	];
	let opted_out =
		cli(&node, &[&["set-only-registered-key", "--disable"][..], &registered].concat())
			.await
			.unwrap();
	assert!(opted_out.contains("OnlyRegisteredKeySet"), "{opted_out}");
	transfer_and_check(&rpc, &old, Form::KeyInline, "old-key-after-opt-out").await;
}

/// An observer sees a pending `create_committee` and submits the same call first, from its own
/// account, to own the committee (and dissolve it once funds arrive). The members' proofs
/// name the creator they chose: the copy fails in its block with `InvalidMembershipProof`,
/// and the genuine creation succeeds.
#[tokio::test]
async fn a_front_run_committee_creation_fails_on_chain() {
	let node = NodeProcess::start_dev(pq_node()).await;
	let rpc = node.rpc().await;
	let chain: ChainIdentity = rpc.chain_identity().await.unwrap();
	let args = pq_cli::committee::CommitteeArgs { seed: "front-run".into(), size: 3, threshold: 2 };
	let committee = args.committee().unwrap();
	// A post-quantum observer: an Ed25519 one is refused sooner, as no committee's owner
	// (`ClassicalOwner`); this one gets as far as the members' proofs.
	let (creator, observer) =
		(dev_key(Scheme::MlDsa44, "Eve"), dev_key(Scheme::MlDsa65, "Charlie"));
	let call = transactions::create_committee_call(&committee, &creator.account_id(), &chain);

	let copied = transactions::sign(
		&observer,
		call.clone(),
		rpc.next_nonce(&observer.account_id()).await.unwrap(),
		UNIT,
		Form::KeyInline,
		&chain,
	)
	.unwrap();
	let failed = submit(&rpc, &copied, WaitFor::Finalized, &mut std::io::sink())
		.await
		.unwrap_err()
		.to_string();
	assert!(failed.contains("its call failed: PqVerifier(InvalidMembershipProof)"), "{failed}");

	let genuine = transactions::sign(
		&creator,
		call,
		rpc.next_nonce(&creator.account_id()).await.unwrap(),
		0,
		Form::KeyInline,
		&chain,
	)
	.unwrap();
	let events = events_of(&rpc, &genuine).await;
	assert!(
		events.iter().any(|event| matches!(
			event,
			RuntimeEvent::PqVerifier(pallet_pq_verifier::Event::CommitteeCreated { owner, .. }) if *owner == creator.account_id()
		)),
		"{events:?}"
	);
}

/// Whoever can take discrete logarithms signs Ed25519 for any account id that is an Ed25519
/// key. The dev chain's funded post-quantum accounts, `//Alice` of every ML-DSA level and a
/// committee's (funded here: an account that cannot pay is refused before its key is looked
/// at), are none: an Ed25519 transfer naming one is refused as an invalid key, before the node
/// verifies anything.
#[tokio::test]
async fn a_classical_signature_for_a_post_quantum_account_is_refused_by_the_node() {
	use pq_crypto::{keys::Ed25519Signature, TransactionSignature};
	let node = NodeProcess::start_dev(pq_node()).await;
	let rpc = node.rpc().await;
	let thief = fresh_account("quantum-thief");
	let forged = TransactionSignature::Ed25519(Ed25519Signature([0x11; 64]));
	let committee =
		pq_cli::committee::CommitteeArgs { seed: "quantum".into(), size: 2, threshold: 1 }
			.committee()
			.unwrap();
	let victims: Vec<_> = ML_DSA
		.iter()
		.map(|scheme| dev_key(*scheme, "Alice").account_id())
		.chain([committee.id().account_id()])
		.collect();
	// Some transfer's extensions: the refusal comes before they matter.
	let Preamble::Signed(_, _, extensions) =
		signed_transfer(&rpc, &dev_key(Scheme::MlDsa44, "Bob"), &thief, UNIT, Form::KeyInline)
			.await
			.preamble
	else {
		panic!("a signed extrinsic")
	};
	let funder = dev_key(Scheme::Ed25519, "Alice");
	let chain = rpc.chain_identity().await.unwrap();
	let nonce = rpc.next_nonce(&funder.account_id()).await.unwrap();
	let fund = transactions::transfer_call(committee.id().account_id(), 10 * UNIT);
	include(&rpc, &transactions::sign(&funder, fund, nonce, 0, Form::KeyInline, &chain).unwrap())
		.await;
	for victim in victims {
		let steal = transactions::transfer_call(thief.account_id(), UNIT);
		let stolen = UncheckedExtrinsic::new_signed(
			steal,
			Address::Id(victim.clone()),
			forged.clone(),
			extensions.clone(),
		);
		let refused = refusal(rpc.submit(&stolen.encode()).await.unwrap_err());
		assert!(refused.reason.contains("InvalidKey"), "{victim}: {refused}");
	}
	assert_eq!(rpc.account(&thief.account_id(), None).await.unwrap().data.free, 0);
}

/// An ML-DSA-87 transfer with a garbage signature from an account that holds nothing: refused
/// for its fee, before the node verifies it.
#[tokio::test]
async fn an_unfunded_signed_transaction_is_refused_before_verification_by_the_node() {
	let node = NodeProcess::start_dev(pq_node()).await;
	let rpc = node.rpc().await;
	let pauper = Keypair::from_suri(Scheme::MlDsa87, "//e2e//pauper").unwrap();
	let mut garbage =
		signed_transfer(&rpc, &pauper, &fresh_account("nobody"), UNIT, Form::KeyInline).await;
	let Preamble::Signed(_, signature, _) = &mut garbage.preamble else { panic!("signed") };
	let pq_crypto::TransactionSignature::MlDsa87(_, bytes) = signature else { panic!("ML-DSA-87") };
	bytes.0[100] ^= 1;
	let refused = refusal(rpc.submit(&garbage.encode()).await.unwrap_err());
	assert_eq!(refused.code, 1010, "{refused}");
	assert!(refused.reason.contains("Inability to pay"), "{refused}");
}

/// Bytes with a valid length prefix and a garbage body — random, truncated, bit-flipped and
/// re-prefixed transactions — sent to `author_submitExtrinsic`: each gets an invalid-transaction
/// refusal that says why (never a runtime trap, error 1002), and the chain goes on.
#[tokio::test]
async fn garbage_transactions_are_refused_with_a_reason_and_the_chain_goes_on() {
	let node = NodeProcess::start_dev(pq_node()).await;
	let rpc = node.rpc().await;
	let alice = dev_key(Scheme::MlDsa44, "Alice");
	let bob = fresh_account("garbage-bob");
	let genuine: Vec<Vec<u8>> = {
		let mut genuine = Vec::new();
		for form in [Form::KeyInline, Form::KeyRegistered] {
			let encoded = signed_transfer(&rpc, &alice, &bob, UNIT, form).await.encode();
			// Without its prefix: the body.
			genuine.push(encoded[2..].to_vec());
		}
		genuine
	};
	let mut state = 0x9e37_79b9_7f4a_7c15u64;
	let mut next = move || {
		state ^= state << 13;
		state ^= state >> 7;
		state ^= state << 17;
		state
	};
	let mut reasons = std::collections::BTreeMap::<String, u32>::new();
	for case in 0..200u32 {
		let body = &genuine[case as usize % genuine.len()];
		let garbage: Vec<u8> = match case % 3 {
			0 => (0..next() % 4096).map(|_| next() as u8).collect(),
			1 => body[..(next() as usize % body.len())].to_vec(),
			_ => {
				let mut flipped = body.clone();
				let bit = next() as usize % (8 * flipped.len());
				flipped[bit / 8] ^= 1 << (bit % 8);
				flipped
			},
		};
		let prefixed = [codec::Compact(garbage.len() as u32).encode(), garbage].concat();
		let refused = refusal(rpc.submit(&prefixed).await.unwrap_err());
		assert_eq!(refused.code, 1010, "case {case}: {refused}");
		*reasons.entry(refused.reason).or_default() += 1;
	}
	assert!(reasons.keys().any(|reason| reason.contains("Undecodable")), "{reasons:?}");
	assert!(node.is_running());
	assert!(!node.log().contains("panicked"), "the runtime panicked:\n{}", node.log());
	transfer_and_check(&rpc, &alice, Form::KeyInline, "after-garbage").await;
}

/// docs/security.md, "A call that decodes to many times its bytes": `System::kill_storage` of
/// one-byte keys takes 2 bytes a key on the wire and some 28 in the runtime's memory, and
/// validation holds two decoded copies. Sent bare (decoded before any origin or signature
/// check): a million keys (2 MB) are refused as a call nobody may send, 2.6 million (5.2 MB,
/// within a block's length) as undecodable — `sp_runtime` bounds the memory decoding a call
/// may allocate (`DEFAULT_MAX_CALL_SIZE`, 16 MiB, as the decoder counts it) — never a trap,
/// error 1002.
#[tokio::test]
async fn a_call_that_decodes_to_many_times_its_bytes_is_refused_not_trapped() {
	let node = NodeProcess::start_dev(pq_node()).await;
	let rpc = node.rpc().await;
	for (keys, expected) in [(1_000_000u32, "not expected"), (2_600_000, "Undecodable")] {
		// Version 4, bare; System (index 0), `kill_storage` (call 5), `keys` one byte each.
		let mut body = vec![0x04, 0x00, 0x05];
		codec::Compact(keys).encode_to(&mut body);
		for key in 0..keys {
			body.extend_from_slice(&[0x04, key as u8]);
		}
		let prefixed = [codec::Compact(body.len() as u32).encode(), body].concat();
		let refused = refusal(rpc.submit(&prefixed).await.unwrap_err());
		assert_eq!(refused.code, 1010, "{keys} keys: {refused}");
		assert!(refused.reason.contains(expected), "{keys} keys: {refused}");
	}
	assert!(!node.log().contains("panicked"), "the runtime panicked:\n{}", node.log());
}

/// A node sealing on demand takes no blocks from peers: two dev nodes, each the other's
/// reserved peer (a dev node refuses every other peer), connect; the second is offered the
/// first's blocks and refuses them.
#[tokio::test]
async fn a_node_sealed_on_demand_imports_no_blocks_from_peers() {
	let sealer = NodeProcess::start_dev(pq_node()).await;
	let rpc = sealer.rpc().await;
	include(
		&rpc,
		&signed_transfer(
			&rpc,
			&dev_key(Scheme::Ed25519, "Alice"),
			&fresh_account("peer"),
			UNIT,
			Form::KeyInline,
		)
		.await,
	)
	.await;
	assert!(rpc.best_number().await.unwrap() >= 1);

	let follower = NodeProcess::start_dev(pq_node()).await;
	let follower_rpc = follower.rpc().await;
	for (node, peer) in
		[(&rpc, follower.multiaddr().await), (&follower_rpc, sealer.multiaddr().await)]
	{
		let () = node
			.request("system_addReservedPeer", jsonrpsee::rpc_params![peer])
			.await
			.unwrap();
	}
	let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
	while !follower.log().contains(pq_node_refusal()) {
		assert!(
			std::time::Instant::now() < deadline,
			"the peer's blocks were not refused:\n{}",
			follower.log()
		);
		tokio::time::sleep(std::time::Duration::from_millis(200)).await;
	}
	assert_eq!(follower_rpc.best_number().await.unwrap(), 0, "imported nothing");
}

/// What a node sealing on demand says when it refuses a peer's block (`pq-node`'s
/// `service::PEER_BLOCK_REFUSAL`, which the e2e binary cannot import).
fn pq_node_refusal() -> &'static str {
	"a chain sealed on demand (instant or manual seal) imports no blocks from peers"
}
