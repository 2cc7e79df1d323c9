//! Rust clients on subxt, both ways (issue #33). A transfer in each scheme and form — Ed25519
//! and ML-DSA-44/65/87 with the key inline, ML-DSA-44/65/87 by a registered key, a committee's
//! aggregate — is built, signed and submitted by `pq-client` (subxt, from the chain's metadata;
//! no `pq-runtime` types), the keys registered through it too, and read back from its block by
//! stock subxt: an `OnlineClient<PolkadotConfig>` made from nothing but the node's URL. Every
//! extrinsic of the block decodes, and ours shows its signer, its `TransactionSignature`
//! variant, its call and the call's fields, its nonce and tip, and its events; the runtime's own
//! extrinsic type decodes the bytes `pq-client` sent to the signature it signed.

use super::*;
use codec::DecodeAll;
use polkadot_sdk::sp_runtime::AccountId32;
use pq_client::chain::{self as pq_chain, Client};
use pq_runtime::{Balance, Nonce};
use subxt::{
	ext::scale_decode::DecodeAsType,
	utils::{AccountId32 as StockAccountId, MultiAddress},
	OnlineClient, PolkadotConfig,
};

/// The runtime's address type as subxt's own types spell it (the runtime has no account index).
type StockAddress = MultiAddress<StockAccountId, ()>;

/// The fields of `Balances::transfer_keep_alive`, matched by name against the metadata's.
#[derive(DecodeAsType)]
#[decode_as_type(crate_path = "subxt::ext::scale_decode")]
struct TransferKeepAlive {
	dest: StockAddress,
	value: Balance,
}

/// The fields of `Balances::Transfer`, matched by name against the metadata's.
#[derive(DecodeAsType)]
#[decode_as_type(crate_path = "subxt::ext::scale_decode")]
struct Transfer {
	from: StockAccountId,
	to: StockAccountId,
	amount: Balance,
}

/// `account` as subxt's own type.
fn stock(account: &AccountId32) -> StockAccountId {
	StockAccountId(account.clone().into())
}

/// A transfer this test sent, and what subxt must read back from its block.
struct Sent {
	label: String,
	block: H256,
	/// The extrinsic as `pq-client` submitted it.
	extrinsic: Vec<u8>,
	/// The `TransactionSignature` variant index (primitives/pq-crypto/src/transaction.rs).
	signature_variant: u8,
	from: AccountId32,
	to: AccountId32,
	amount: Balance,
	nonce: Nonce,
	tip: Balance,
}

/// Signs a transfer from `sender` in `form` to a fresh account with `pq-client`, with `tip`,
/// and waits until its block is final.
async fn send(
	client: &Client,
	sender: Sender<'_>,
	form: Form,
	signature_variant: u8,
	amount: Balance,
	tip: Balance,
	label: String,
) -> Sent {
	let from = sender.account();
	let to = fresh_account(&format!("subxt-{label}")).account_id();
	let nonce = client.next_nonce(&from).await.unwrap() as Nonce;
	let signed = client
		.sign(sender, &client.calls().transfer(&to, amount), form, tip)
		.await
		.unwrap();
	let block = submit_with_pq_client(client, &signed).await;
	Sent {
		label,
		block,
		extrinsic: signed.encoded().to_vec(),
		signature_variant,
		from,
		to,
		amount,
		nonce,
		tip,
	}
}

/// Submits `signed` with `pq-client` and waits until its block is final.
async fn submit_with_pq_client(client: &Client, signed: &pq_chain::Signed) -> H256 {
	let included = client
		.submit(signed, pq_chain::WaitFor::Finalized, &mut std::io::sink())
		.await
		.unwrap();
	H256(included.expect("followed to a block").block.0)
}

#[tokio::test]
async fn pq_client_sends_and_stock_subxt_decodes_a_transfer_of_every_scheme_and_form() {
	let node = NodeProcess::start_dev(pq_node()).await;
	let pq_client = Client::connect(node.url()).await.unwrap();
	let mut sent = Vec::new();
	// Each transfer its own amount, so that a field read from the wrong transaction shows; the
	// first without a tip, every other with its own.
	let amount_and_tip = |count: usize| (UNIT + count as Balance, count as Balance * UNIT / 1_000);

	for (scheme, signature_variant) in
		[(Scheme::Ed25519, 0), (Scheme::MlDsa44, 3), (Scheme::MlDsa65, 4), (Scheme::MlDsa87, 5)]
	{
		let (amount, tip) = amount_and_tip(sent.len());
		let sender = dev_key(scheme, "Alice");
		sent.push(
			send(
				&pq_client,
				(&sender).into(),
				Form::KeyInline,
				signature_variant,
				amount,
				tip,
				format!("{}-inline", scheme.name()),
			)
			.await,
		);
	}

	for (scheme, signature_variant) in
		[(Scheme::MlDsa44, 6), (Scheme::MlDsa65, 7), (Scheme::MlDsa87, 8)]
	{
		let sender = dev_key(scheme, "Bob");
		let register = pq_client.calls().register_key(&sender, &sender.account_id(), false);
		submit_with_pq_client(
			&pq_client,
			&pq_client.sign((&sender).into(), &register, Form::KeyInline, 0).await.unwrap(),
		)
		.await;
		let (amount, tip) = amount_and_tip(sent.len());
		let label = format!("{}-registered", scheme.name());
		sent.push(
			send(
				&pq_client,
				(&sender).into(),
				Form::KeyRegistered,
				signature_variant,
				amount,
				tip,
				label,
			)
			.await,
		);
	}

	// subxt's own signing flow with pq-client's `KeySigner` (subxt's `Signer` interface): a
	// second ML-DSA-65 registered transfer, built by `create_signed`.
	let (amount, tip) = amount_and_tip(sent.len());
	let sender = dev_key(Scheme::MlDsa65, "Bob");
	let signer = pq_chain::KeySigner::new((&sender).into(), Form::KeyRegistered).unwrap();
	let to = fresh_account("subxt-signer").account_id();
	let nonce = pq_client.next_nonce(&sender.account_id()).await.unwrap();
	let params = subxt::config::DefaultExtrinsicParamsBuilder::<pq_chain::PqConfig>::new()
		.nonce(nonce)
		.tip(tip)
		.build();
	let mut at = pq_client.api().at_current_block().await.unwrap().tx();
	let signed = at
		.create_signed(&pq_client.calls().transfer(&to, amount), &signer, params)
		.await
		.unwrap();
	let block = submit_with_pq_client(&pq_client, &signed).await;
	let (from, extrinsic, label) = (
		sender.account_id(),
		signed.encoded().to_vec(),
		"ml-dsa-65-registered-subxt-signer".into(),
	);
	sent.push(Sent {
		label,
		block,
		extrinsic,
		signature_variant: 7,
		from,
		to,
		amount,
		nonce: nonce as Nonce,
		tip,
	});

	// The committee is created and funded through pq-cli, as `a_committee_signed_transfer_through_the_cli`
	// does; its transfer is signed here, to choose its tip.
	let args =
		pq_cli::committee::CommitteeArgs { seed: "subxt council".into(), size: 16, threshold: 9 };
	let create = [
		"committee",
		"create",
		"--seed",
		args.seed.as_str(),
		"--size",
		"16",
		"--threshold",
		"9",
		"--from",
		"ml-dsa-87://Alice",
	];
	let created = cli(&node, &create).await.unwrap();
	assert!(created.contains("CommitteeCreated"), "{created}");
	let committee = args.committee().unwrap();
	let account = pq_cli::committee::account(&committee).to_ss58check();
	cli(&node, &["transfer", "--from", "ed25519://Alice", "--to", &account, "--amount", "50"])
		.await
		.unwrap();
	let signers = committee.signers([0, 2, 3, 5, 7, 8, 11, 13, 15]).unwrap();
	let (amount, tip) = amount_and_tip(sent.len());
	let sender = Sender::Committee { committee: &committee, signers: &signers };
	sent.push(send(&pq_client, sender, Form::Committee, 9, amount, tip, "committee".into()).await);

	let client = OnlineClient::<PolkadotConfig>::from_url(node.url()).await.unwrap();
	for sent in &sent {
		check_decoded(&client, sent).await;
	}
}

/// Reads `sent`'s block with `client` and checks everything a wallet or an explorer shows.
async fn check_decoded(client: &OnlineClient<PolkadotConfig>, sent: &Sent) {
	let label = &sent.label;
	let block = client.at_block(sent.block).await.unwrap();
	let extrinsics = block.extrinsics().fetch().await.unwrap();
	// Every extrinsic of the block, the inherents too: a client that fails on one cannot show
	// the block at all.
	let extrinsics: Vec<_> = extrinsics
		.iter()
		.collect::<Result<_, _>>()
		.unwrap_or_else(|error| panic!("{label}: subxt cannot decode its block: {error}"));
	let extrinsic = extrinsics
		.iter()
		.find(|extrinsic| extrinsic.bytes() == sent.extrinsic)
		.unwrap_or_else(|| panic!("{label}: not in its block"));

	assert!(extrinsic.is_signed(), "{label}");
	let address = StockAddress::decode_all(&mut extrinsic.address_bytes().unwrap()).unwrap();
	assert_eq!(address, MultiAddress::Id(stock(&sent.from)), "{label}");
	// The whole signature, so that its end (where the extensions start) is checked as well: the
	// runtime's own extrinsic type reads the same signature from the bytes pq-client sent.
	let ours = UncheckedExtrinsic::decode_all(&mut &sent.extrinsic[..])
		.unwrap_or_else(|error| panic!("{label}: {error}"));
	let Preamble::Signed(_, signature, _) = &ours.preamble else { panic!("{label}: signed") };
	let signature_bytes = extrinsic.signature_bytes().unwrap();
	assert_eq!(signature_bytes[0], sent.signature_variant, "{label}");
	assert_eq!(signature_bytes, signature.encode(), "{label}");

	assert_eq!(
		(extrinsic.pallet_name(), extrinsic.call_name()),
		("Balances", "transfer_keep_alive"),
		"{label}"
	);
	let call: TransferKeepAlive = extrinsic.decode_call_data_fields_unchecked_as().unwrap();
	assert_eq!(call.dest, MultiAddress::Id(stock(&sent.to)), "{label}");
	assert_eq!(call.value, sent.amount, "{label}");

	let extensions = extrinsic.transaction_extensions().unwrap();
	assert_eq!(extensions.nonce(), Some(u64::from(sent.nonce)), "{label}");
	assert_eq!(extensions.tip(), Some(sent.tip), "{label}");

	let events = extrinsic.events().await.unwrap();
	let events: Vec<_> = events.iter().collect::<Result<_, _>>().unwrap();
	let named = |pallet: &str, name: &str| {
		events
			.iter()
			.find(|event| (event.pallet_name(), event.event_name()) == (pallet, name))
	};
	let transfer: Transfer = named("Balances", "Transfer")
		.unwrap_or_else(|| panic!("{label}: no Balances::Transfer"))
		.decode_fields_unchecked_as()
		.unwrap();
	assert_eq!(
		(transfer.from, transfer.to, transfer.amount),
		(stock(&sent.from), stock(&sent.to), sent.amount),
		"{label}"
	);
	assert!(named("System", "ExtrinsicSuccess").is_some(), "{label}");
}

/// A JSON-RPC client that forwards to a node but fails every request naming the storage key
/// of `System::Events`: a transaction's events that cannot be read once it is in a block, as
/// when the connection drops or its block's events do not decode.
struct EventsUnreadable(subxt::rpcs::RpcClient);

impl EventsUnreadable {
	fn events_key() -> String {
		use polkadot_sdk::sp_io::hashing::twox_128;
		let key = [twox_128(b"System"), twox_128(b"Events")].concat();
		key.iter().map(|byte| format!("{byte:02x}")).collect()
	}
}

impl subxt::rpcs::RpcClientT for EventsUnreadable {
	fn request_raw<'a>(
		&'a self,
		method: &'a str,
		params: Option<Box<serde_json::value::RawValue>>,
	) -> subxt::rpcs::client::RawRpcFuture<'a, Box<serde_json::value::RawValue>> {
		if params.as_ref().is_some_and(|params| params.get().contains(&Self::events_key())) {
			return Box::pin(async { Err(subxt::rpcs::Error::Client("events withheld".into())) });
		}
		self.0.request_raw(method, params)
	}

	fn subscribe_raw<'a>(
		&'a self,
		method: &'a str,
		params: Option<Box<serde_json::value::RawValue>>,
		unsubscribe: &'a str,
	) -> subxt::rpcs::client::RawRpcFuture<'a, subxt::rpcs::client::RawRpcSubscription> {
		self.0.subscribe_raw(method, params, unsubscribe)
	}
}

/// A transaction in a block whose events cannot be read is reported with its block, not as a
/// plain failure: a script that sent it again would pay twice.
#[tokio::test]
async fn a_transaction_whose_events_cannot_be_read_is_reported_with_its_block() {
	let node = NodeProcess::start_dev(pq_node()).await;
	let rpc = subxt::rpcs::RpcClient::from_insecure_url(node.url()).await.unwrap();
	let client = Client::from_rpc_client(subxt::rpcs::RpcClient::new(EventsUnreadable(rpc)))
		.await
		.unwrap();
	let sender = dev_key(Scheme::MlDsa44, "Alice");
	let to = fresh_account("events-unreadable").account_id();
	let signed = client
		.sign((&sender).into(), &client.calls().transfer(&to, UNIT), Form::KeyInline, 0)
		.await
		.unwrap();
	let error = client
		.submit(&signed, pq_chain::WaitFor::InBlock, &mut std::io::sink())
		.await
		.expect_err("its events are withheld");
	let error = format!("{error:#}");

	// Applied, in the node's best block (sealed for it alone), which the error names.
	assert_eq!(client.account(&to).await.unwrap().data.free, UNIT);
	let node_rpc = node.rpc().await;
	let best = node_rpc.best_number().await.unwrap();
	let block: H256 = node_rpc
		.request("chain_getBlockHash", jsonrpsee::rpc_params![best])
		.await
		.unwrap();
	let body = node_rpc.block(block).await.unwrap().extrinsics;
	assert!(body.iter().any(|extrinsic| extrinsic.0 == signed.encoded()), "the named block has it");
	assert!(error.contains(&format!("the transaction is in block {block:?}")), "{error}");
	assert!(error.contains("events withheld"), "{error}");
}
