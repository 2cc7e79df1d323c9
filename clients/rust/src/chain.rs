//! A chain with pallet-pq-verifier, through subxt: every call and storage item found by name in
//! the chain's metadata, every transaction built, signed in any [`Form`] and submitted the way
//! subxt does for any Substrate chain. Nothing here knows the runtime beyond its metadata: a
//! team that adds the pallet to its own runtime uses this client as it is.
//!
//! What the client assumes of the runtime is what the pallet's docs ask of it: accounts are
//! `AccountId32`, addresses `MultiAddress`, the signature type is
//! [`TransactionSignature`](pq_crypto::TransactionSignature), and balances fit a `u128`.
//!
//! The client trusts the node it connects to, as every metadata-driven client does: the
//! metadata says which pallet and call indices a call encodes to, and the chain spec's
//! properties how many decimals an amount has. Connect to a node you run. (A runtime with
//! `CheckMetadataHash` would let a signer check the metadata instead; pq-runtime has none.)

use crate::{
	amount::Token,
	refusal::Refusal,
	sender::{Form, Randomness, Sender, SignError},
};
use anyhow::{anyhow, bail, Context};
use pallet_pq_verifier::CommitteeMember;
use polkadot_sdk::sp_runtime::AccountId32;
use pq_crypto::{
	statement::PossessionStatement, AccountSignature, AccountSigner, Purpose, Scheme,
	TransactionSignature,
};
use pq_signer::{aggregator::Committee, signing::Keypair};
use std::io::Write;
use subxt::{
	backend::LegacyBackend,
	client::OnlineClientAtBlockImpl,
	config::{
		Config, DefaultExtrinsicParamsBuilder, DefaultTransactionExtensions, HashFor,
		SubstrateConfig,
	},
	dynamic::{self, Value},
	error::{BackendError, DispatchError, ExtrinsicError, RpcError},
	ext::{
		codec::Encode, scale_decode::DecodeAsType, scale_encode::EncodeAsType,
		scale_type_resolver::TypeResolver, scale_value::Composite,
	},
	rpcs::{methods::LegacyRpcMethods, RpcClient},
	transactions::{DynamicPayload, SubmittableTransaction, TransactionInBlock, TransactionStatus},
	utils::{AccountId32 as SubxtAccountId, MultiAddress, Static, H256},
	OnlineClient,
};

/// How many blocks a transaction stays valid after the block it is signed at, as most wallets
/// sign.
pub const MORTAL_PERIOD: u64 = 64;

/// subxt's configuration for a chain with pallet-pq-verifier: [`SubstrateConfig`] with the
/// pallet's [`TransactionSignature`] as the signature type and addresses without an account
/// index. Stock transaction extensions only — exactly what the runtime's metadata lists.
#[derive(Debug, Clone, Default)]
pub struct PqConfig(SubstrateConfig);

impl Config for PqConfig {
	type AccountId = SubxtAccountId;
	type Address = MultiAddress<SubxtAccountId, ()>;
	type Signature = Static<TransactionSignature>;
	type AssetId = <SubstrateConfig as Config>::AssetId;
	type Hasher = <SubstrateConfig as Config>::Hasher;
	type Header = <SubstrateConfig as Config>::Header;
	type TransactionExtensions = DefaultTransactionExtensions<PqConfig>;

	fn genesis_hash(&self) -> Option<HashFor<Self>> {
		self.0.genesis_hash()
	}
	fn metadata_for_spec_version(&self, spec_version: u32) -> Option<subxt::ArcMetadata> {
		self.0.metadata_for_spec_version(spec_version)
	}
	fn set_metadata_for_spec_version(&self, spec_version: u32, metadata: subxt::ArcMetadata) {
		self.0.set_metadata_for_spec_version(spec_version, metadata);
	}
	fn spec_and_transaction_version_for_block_number(
		&self,
		block_number: u64,
	) -> Option<(u32, u32)> {
		self.0.spec_and_transaction_version_for_block_number(block_number)
	}
}

/// A key signing in a given form, as subxt's [`Signer`](subxt::tx::Signer): hand it to subxt's
/// own `sign_and_submit_then_watch_default` and the like. Keys only — a committee's aggregate
/// signature can fail (a member set that is not the committee's), which subxt's signer
/// interface cannot report; [`Client::sign`] signs every form.
#[derive(Clone, Copy)]
pub struct KeySigner<'a> {
	sender: Sender<'a>,
	form: Form,
}

impl<'a> KeySigner<'a> {
	/// `sender` signing in `form`: an ML-DSA or Ed25519 key with its key inline, or an ML-DSA
	/// key registered for its own or a migrated account.
	pub fn new(sender: Sender<'a>, form: Form) -> Result<Self, SignError> {
		let signs = match (sender, form) {
			(Sender::Key(_), Form::KeyInline) => true,
			(Sender::Key(key) | Sender::Migrated { key, .. }, Form::KeyRegistered) => {
				key.scheme() != Scheme::Ed25519
			},
			_ => false,
		};
		signs.then_some(Self { sender, form }).ok_or(SignError::FormNotForSender(form))
	}
}

impl subxt::tx::Signer<PqConfig> for KeySigner<'_> {
	fn account_id(&self) -> SubxtAccountId {
		subxt_account(&self.sender.account())
	}

	fn sign(&self, signer_payload: &[u8]) -> Static<TransactionSignature> {
		// `new` admitted only the pairs a key signs in without fail.
		let signature = self.sender.sign(self.form, signer_payload, Randomness::Fresh);
		Static(signature.expect("a key signs in the forms KeySigner::new admits"))
	}
}

/// A transaction signed and ready to submit (or to print: [`SubmittableTransaction::encoded`]).
pub type Signed = SubmittableTransaction<PqConfig, OnlineClientAtBlockImpl<PqConfig>>;

/// `account` as subxt spells it.
pub fn subxt_account(account: &AccountId32) -> SubxtAccountId {
	SubxtAccountId(account.clone().into())
}

/// An account's nonce and balances, from `System::Account`.
#[derive(Clone, Debug, Default, PartialEq, Eq, DecodeAsType)]
#[decode_as_type(crate_path = "subxt::ext::scale_decode")]
pub struct AccountInfo {
	/// Transactions the account has sent.
	pub nonce: u64,
	/// Its balances.
	pub data: AccountData,
}

/// An account's balances, as pallet-balances stores them.
#[derive(Clone, Debug, Default, PartialEq, Eq, DecodeAsType)]
#[decode_as_type(crate_path = "subxt::ext::scale_decode")]
pub struct AccountData {
	/// What it can spend or hold.
	pub free: u128,
	/// What is reserved or held (a registered key's deposit among it).
	pub reserved: u128,
}

/// A key in pallet-pq-verifier's registry.
#[derive(Clone, Debug, PartialEq, Eq, DecodeAsType)]
#[decode_as_type(crate_path = "subxt::ext::scale_decode")]
pub struct RegisteredKey {
	/// The ML-DSA public key.
	pub key: Static<AccountSigner>,
	/// The deposit held for storing it.
	pub deposit: u128,
	/// Whether the account migrated to the key (it is not the key's derived account).
	pub migrated: bool,
}

/// How long [`Client::submit`] follows a transaction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WaitFor {
	/// Until the pool accepted it.
	Pool,
	/// Until it is in a block.
	InBlock,
	/// Until that block is final.
	Finalized,
}

/// Where a transaction ended up, and what it did.
#[derive(Debug)]
pub struct Included {
	/// The block that includes it.
	pub block: H256,
	/// That block's number.
	pub block_number: u64,
	/// Its events, each as `Pallet::Event { fields }`.
	pub events: Vec<String>,
	/// The fee it paid, tip included.
	pub fee: u128,
}

/// The fields of `TransactionPayment::TransactionFeePaid` this client reads.
#[derive(DecodeAsType)]
#[decode_as_type(crate_path = "subxt::ext::scale_decode")]
struct TransactionFeePaid {
	actual_fee: u128,
}

/// A connection to a node of a chain with pallet-pq-verifier.
pub struct Client {
	api: OnlineClient<PqConfig>,
	rpc: LegacyRpcMethods<subxt::config::RpcConfigFor<PqConfig>>,
	/// The pallet's name in this runtime (found by its call type, not assumed).
	pallet: String,
	token: Token,
}

impl Client {
	/// Connects to the node at `url` (`ws://127.0.0.1:9944` for a local dev node): `wss://` or
	/// `https://`, or an unencrypted loopback address (`localhost`, 127.0.0.0/8, `::1`). The node supplies what is signed
	/// — the metadata's call indices, the genesis hash, the runtime version, the decimals — so
	/// on an unencrypted connection to another host anyone on the network path could change
	/// it; [`Self::connect_insecure`] allows that when the path is trusted.
	///
	/// It uses the node's legacy JSON-RPC methods (`author_submitAndWatchExtrinsic`, …), which
	/// report why a transaction is refused as a JSON-RPC error with the pallet's code.
	pub async fn connect(url: &str) -> anyhow::Result<Self> {
		let secure = subxt::rpcs::utils::url_is_secure(url)
			.map_err(|_| anyhow::anyhow!("`{url}` is not a URL"))?;
		anyhow::ensure!(
			secure,
			"refusing the unencrypted address {url} of another host: anyone on the network path \
			 could change what is signed; use wss://, or allow it explicitly (pq-cli --insecure)"
		);
		Self::connect_insecure(url).await
	}

	/// [`Self::connect`], allowing an unencrypted (`ws://`, `http://`) address of another host.
	pub async fn connect_insecure(url: &str) -> anyhow::Result<Self> {
		let rpc = RpcClient::from_insecure_url(url).await.with_context(|| {
			format!("cannot connect to {url}: is the node running, with JSON-RPC on that address?")
		})?;
		Self::from_rpc_client(rpc).await
	}

	/// A client over `rpc`, a JSON-RPC client the caller built (its own transport, a light
	/// client): whether what the node supplies can be trusted is the caller's to decide, as with
	/// [`Self::connect_insecure`].
	pub async fn from_rpc_client(rpc: RpcClient) -> anyhow::Result<Self> {
		let backend = LegacyBackend::builder().build(rpc.clone());
		let api = OnlineClient::from_backend_with_config(
			PqConfig::default(),
			std::sync::Arc::new(backend),
		)
		.await?;
		let pallet = pallet_name(&api.at_current_block().await?.metadata())?;
		let rpc = LegacyRpcMethods::new(rpc);
		let token = token(&rpc).await?;
		Ok(Self { api, rpc, pallet, token })
	}

	/// The subxt client, for anything else.
	pub fn api(&self) -> &OnlineClient<PqConfig> {
		&self.api
	}

	/// pallet-pq-verifier's name in this runtime's metadata.
	pub fn pallet(&self) -> &str {
		&self.pallet
	}

	/// The nonce `account`'s next transaction needs, counting those waiting in the pool.
	pub async fn next_nonce(&self, account: &AccountId32) -> anyhow::Result<u64> {
		Ok(self.rpc.system_account_next_index(&subxt_account(account)).await?)
	}

	/// `account`'s nonce and balances at the finalized head.
	pub async fn account(&self, account: &AccountId32) -> anyhow::Result<AccountInfo> {
		let at = self.api.at_current_block().await?;
		let address = dynamic::storage::<(SubxtAccountId,), AccountInfo>("System", "Account");
		let value = at.storage().try_fetch(address, (subxt_account(account),)).await?;
		Ok(value.map(|value| value.decode()).transpose()?.unwrap_or_default())
	}

	/// The key `account` registered with the pallet, if any.
	pub async fn registered_key(
		&self,
		account: &AccountId32,
	) -> anyhow::Result<Option<RegisteredKey>> {
		let at = self.api.at_current_block().await?;
		let address =
			dynamic::storage::<(SubxtAccountId,), RegisteredKey>(self.pallet.as_str(), "Keys");
		let value = at.storage().try_fetch(address, (subxt_account(account),)).await?;
		Ok(value.map(|value| value.decode()).transpose()?)
	}

	/// Whether `account` accepts only its registered key.
	pub async fn only_registered_key(&self, account: &AccountId32) -> anyhow::Result<bool> {
		let at = self.api.at_current_block().await?;
		let address =
			dynamic::storage::<(SubxtAccountId,), Value>(self.pallet.as_str(), "OnlyRegisteredKey");
		Ok(at.storage().try_fetch(address, (subxt_account(account),)).await?.is_some())
	}

	/// The chain's token, from its chain spec's properties (`tokenSymbol`, `tokenDecimals`;
	/// a chain without them shows amounts in its smallest unit), read once at connection.
	pub fn token(&self) -> &Token {
		&self.token
	}

	/// The genesis hash: what proofs of possession name.
	pub fn genesis_hash(&self) -> H256 {
		self.api.genesis_hash()
	}

	/// Signs `call` from `sender` in `form`, with the account's next nonce and `tip`, mortal for
	/// [`MORTAL_PERIOD`] blocks from the finalized head.
	pub async fn sign(
		&self,
		sender: Sender<'_>,
		call: &Call,
		form: Form,
		tip: u128,
	) -> anyhow::Result<Signed> {
		let account = sender.account();
		let nonce = self.next_nonce(&account).await?;
		let params = DefaultExtrinsicParamsBuilder::<PqConfig>::new()
			.mortal(MORTAL_PERIOD)
			.nonce(nonce)
			.tip(tip)
			.build();
		let at = self.api.at_current_block().await?;
		// Format 4, whatever the metadata offers: the pallet's transactions are signed extrinsics.
		let mut signable =
			at.tx().create_v4_signable(call, &subxt_account(&account), params).await?;
		// subxt's signer payload is the standard one: hashed when longer than 256 bytes.
		let signature = sender.sign(form, &signable.signer_payload()?, Randomness::Fresh)?;
		Ok(signable
			.sign_with_account_and_signature(&subxt_account(&account), &Static(signature))?)
	}

	/// Submits `signed` and follows it as `wait` says, reporting progress on `progress`.
	/// Returns the including block unless `wait` is [`WaitFor::Pool`]. A transaction the node
	/// refuses is a [`Refusal`]; one whose call fails is an error naming the pallet's error.
	pub async fn submit(
		&self,
		signed: &Signed,
		wait: WaitFor,
		progress: &mut impl Write,
	) -> anyhow::Result<Option<Included>> {
		let size = signed.encoded().len();
		if wait == WaitFor::Pool {
			let hash = signed.submit().await.map_err(refusal)?;
			writeln!(progress, "submitted {hash:?} ({size} bytes)")?;
			return Ok(None);
		}
		let mut statuses = signed.submit_and_watch().await.map_err(refusal)?;
		writeln!(progress, "submitted {:?} ({size} bytes)", statuses.extrinsic_hash())?;
		// The last block the transaction was seen in: every error after it names it, since the
		// transaction may have been applied and sending it again would pay twice.
		let mut seen_in: Option<H256> = None;
		let mut included = None;
		let in_block = |error: anyhow::Error, seen_in: Option<H256>| match seen_in {
			Some(block) => error.context(format!(
				"the transaction was last seen in block {block:?}: look there before sending it again"
			)),
			None => error,
		};
		while let Some(status) = statuses.next().await {
			let status = status.map_err(|error| in_block(error.into(), seen_in))?;
			match status {
				TransactionStatus::Validated | TransactionStatus::Broadcasted => {},
				TransactionStatus::InBestBlock(block) => {
					seen_in = Some(block.block_hash());
					let inclusion = self.inclusion(&block).await?;
					report(progress, "in block", &inclusion, true, &self.token)
						.map_err(|error| in_block(error, seen_in))?;
					if wait == WaitFor::InBlock {
						return Ok(Some(inclusion));
					}
					included = Some(inclusion);
				},
				TransactionStatus::NoLongerInBestBlock => {
					writeln!(progress, "its block was retracted; waiting for another")
						.map_err(|error| in_block(error.into(), seen_in))?;
					included = None;
				},
				TransactionStatus::InFinalizedBlock(block) => {
					seen_in = Some(block.block_hash());
					let inclusion = match included.take() {
						Some(inclusion) if inclusion.block == block.block_hash() => inclusion,
						_ => self.inclusion(&block).await?,
					};
					report(progress, "finalized", &inclusion, false, &self.token)
						.map_err(|error| in_block(error, seen_in))?;
					return Ok(Some(inclusion));
				},
				TransactionStatus::Error { message } => {
					return Err(in_block(
						anyhow!("the node stopped following the transaction: {message}"),
						seen_in,
					))
				},
				TransactionStatus::Invalid { message } => {
					return Err(in_block(
						anyhow!("the transaction became invalid before it was included: {message}"),
						seen_in,
					))
				},
				TransactionStatus::Dropped { message } => {
					return Err(in_block(anyhow!("dropped from the pool: {message}"), seen_in))
				},
			}
		}
		Err(in_block(
			anyhow!("the node closed the subscription before the transaction was final"),
			seen_in,
		))
	}

	/// The events and fee of the transaction in `in_block`; an error if its call failed. Every
	/// error names the block: the transaction is in it, and may have been applied, so a caller
	/// that sent it again would send a second transaction (a new nonce, a second fee).
	async fn inclusion(
		&self,
		in_block: &TransactionInBlock<PqConfig, OnlineClientAtBlockImpl<PqConfig>>,
	) -> anyhow::Result<Included> {
		let block = in_block.block_hash();
		let read = async {
			let at = in_block.at().await?;
			let events = in_block.fetch_events().await?;
			let mut rendered = Vec::new();
			let mut fee = 0;
			let mut failure = None;
			for event in events.iter() {
				let event = event?;
				let fields: Composite<()> = event.decode_fields_unchecked_as()?;
				rendered.push(format!("{}::{} {fields}", event.pallet_name(), event.event_name()));
				match (event.pallet_name(), event.event_name()) {
					("TransactionPayment", "TransactionFeePaid") => {
						fee = event.decode_fields_unchecked_as::<TransactionFeePaid>()?.actual_fee;
					},
					("System", "ExtrinsicFailed") => {
						failure =
							Some(DispatchError::decode_from(event.field_bytes(), at.metadata())?);
					},
					_ => {},
				}
			}
			anyhow::Ok((at.block_number(), rendered, fee, failure))
		};
		let (block_number, events, fee, failure) = read.await.with_context(|| {
			format!(
				"the transaction is in block {block:?}, but its events could not be read: look \
				 there before sending it again"
			)
		})?;
		if let Some(error) = failure {
			bail!("the transaction is in block #{block_number} {block:?} but its call failed: {error}");
		}
		Ok(Included { block, block_number, events, fee })
	}

	/// The calls of pallet-pq-verifier and the transfer, for this chain.
	pub fn calls(&self) -> Calls<'_> {
		Calls { pallet: &self.pallet, genesis_hash: self.genesis_hash() }
	}
}

/// Writes where `inclusion` is (`what`: "in block", "finalized") and, with `events`, its events
/// and fee.
fn report(
	progress: &mut impl Write,
	what: &str,
	inclusion: &Included,
	events: bool,
	token: &Token,
) -> anyhow::Result<()> {
	writeln!(progress, "{what} #{} {:?}", inclusion.block_number, inclusion.block)?;
	if events {
		for event in &inclusion.events {
			writeln!(progress, "  {event}")?;
		}
		writeln!(progress, "  fee paid: {}", token.format(inclusion.fee))?;
	}
	Ok(())
}

/// The chain's token as its chain spec's properties name it.
async fn token(
	rpc: &LegacyRpcMethods<subxt::config::RpcConfigFor<PqConfig>>,
) -> anyhow::Result<Token> {
	Token::from_properties(&rpc.system_properties().await?)
}

/// The pallet whose call type is pallet-pq-verifier's: runtimes name their pallets as they like.
fn pallet_name(metadata: &subxt::Metadata) -> anyhow::Result<String> {
	metadata
		.pallets()
		.find(|pallet| {
			pallet
				.call_ty_id()
				.and_then(|id| metadata.types().resolve(id))
				.is_some_and(|ty| {
					ty.path.segments.first().map(String::as_str) == Some("pallet_pq_verifier")
						&& ty.path.segments.last().map(String::as_str) == Some("Call")
				})
		})
		.map(|pallet| pallet.name().to_owned())
		.ok_or_else(|| anyhow!("the chain's runtime has no pallet-pq-verifier"))
}

/// A JSON-RPC error from submitting as a [`Refusal`]; other errors as they are.
fn refusal(error: ExtrinsicError) -> anyhow::Error {
	match error {
		ExtrinsicError::ErrorSubmittingTransaction(BackendError::Rpc(RpcError::ClientError(
			subxt::rpcs::Error::User(error),
		))) => Refusal::from_rpc_error(
			error.code,
			&error.message,
			error.data.as_deref().map(|data| data.get()),
		)
		.into(),
		other => other.into(),
	}
}

/// The transactions a client of the pallet sends, built from the chain's metadata. Arguments of
/// the pallet's own types are SCALE-encoded with those types (from `pq-crypto` and the pallet);
/// the transfer's are encoded against the metadata's types.
pub struct Calls<'a> {
	pallet: &'a str,
	/// What proofs of possession name (a `[u8; 32]` encodes as the runtime's `H256` does).
	genesis_hash: H256,
}

/// A call built by [`Calls`].
pub type Call = DynamicPayload<Vec<Arg>>;

/// An argument of a [`Call`].
#[derive(Clone, Debug)]
pub enum Arg {
	/// Encoded against the metadata's type of the argument.
	Typed(Value),
	/// Already SCALE-encoded with the pallet's own type (pq-crypto's keys and signatures,
	/// committee members): written as it is.
	Scale(Vec<u8>),
}

impl EncodeAsType for Arg {
	fn encode_as_type_to<R: TypeResolver>(
		&self,
		type_id: R::TypeId,
		types: &R,
		out: &mut Vec<u8>,
	) -> Result<(), subxt::ext::scale_encode::Error> {
		match self {
			Arg::Typed(value) => value.encode_as_type_to(type_id, types, out),
			Arg::Scale(bytes) => {
				// The bytes must be one whole value of the argument's type in this metadata: a
				// client whose pq-crypto disagrees with the chain's fails here, not on chain.
				let rest = &mut &bytes[..];
				let decoded = subxt::ext::scale_value::scale::decode_as_type(rest, type_id, types);
				if decoded.is_err() || !rest.is_empty() {
					return Err(subxt::ext::scale_encode::Error::custom_str(
						"an argument's SCALE bytes are not one value of the metadata's type",
					));
				}
				out.extend_from_slice(bytes);
				Ok(())
			},
		}
	}
}

impl Calls<'_> {
	/// `Balances::transfer_keep_alive` of `value` to `dest`.
	pub fn transfer(&self, dest: &AccountId32, value: u128) -> Call {
		let dest = Value::unnamed_variant("Id", [Value::from_bytes(dest)]);
		dynamic::transaction(
			"Balances",
			"transfer_keep_alive",
			vec![Arg::Typed(dest), Arg::Typed(Value::u128(value))],
		)
	}

	/// Registers `key`'s public key for `account`, the sender of the call: with the key's proof
	/// of possession naming `account` and this chain unless `key` derives `account`. With
	/// `only_registered_key`, the migration is final at once.
	pub fn register_key(
		&self,
		key: &Keypair,
		account: &AccountId32,
		only_registered_key: bool,
	) -> Call {
		let proof = self.possession_proof(key, account);
		let args = vec![
			encoded(&key.public()),
			encoded(&proof),
			Arg::Typed(Value::bool(only_registered_key)),
		];
		dynamic::transaction(self.pallet, "register_key", args)
	}

	/// Replaces `account`'s registered key with `key` (with its proof unless `key` derives
	/// `account`); with `only_registered_key`, only `key` signs for `account` from then on.
	pub fn rotate_key(
		&self,
		key: &Keypair,
		account: &AccountId32,
		only_registered_key: bool,
	) -> Call {
		let args = vec![
			encoded(&key.public()),
			encoded(&self.possession_proof(key, account)),
			Arg::Typed(Value::bool(only_registered_key)),
		];
		dynamic::transaction(self.pallet, "rotate_key", args)
	}

	/// Sets whether only the sender's registered key signs for it.
	pub fn set_only_registered_key(&self, enabled: bool) -> Call {
		dynamic::transaction(
			self.pallet,
			"set_only_registered_key",
			vec![Arg::Typed(Value::bool(enabled))],
		)
	}

	/// Creates `committee`, sent by `owner`: every member's share with its proof of possession,
	/// which names `owner` and this chain.
	pub fn create_committee(&self, committee: &Committee, owner: &AccountId32) -> Call {
		let members: Vec<CommitteeMember> = (0..committee.size())
			.map(|index| CommitteeMember {
				share: committee.share(index),
				proof: committee.membership_proof(index, self.genesis_hash.0, owner),
			})
			.collect();
		let args = vec![
			encoded(&committee.rho()),
			Arg::Typed(Value::u128(committee.threshold().into())),
			encoded(&members),
		];
		dynamic::transaction(self.pallet, "create_committee", args)
	}

	fn possession_proof(&self, key: &Keypair, account: &AccountId32) -> Option<AccountSignature> {
		(key.account_id() != *account).then(|| {
			let statement = PossessionStatement { genesis_hash: self.genesis_hash.0, account };
			key.sign(&statement.encode(), Purpose::ProofOfPossession)
		})
	}
}

/// A value of the pallet's own type, as its SCALE bytes.
fn encoded(value: &impl Encode) -> Arg {
	Arg::Scale(value.encode())
}
