//! A connection to a pq-runtime node over JSON-RPC (WebSocket), and the node's answers decoded
//! with the runtime's own types.

use crate::transactions::{ChainIdentity, Checkpoint, MORTAL_PERIOD};
use anyhow::{anyhow, Context};
use codec::Decode;
use jsonrpsee::{
	core::{
		client::{ClientT, Subscription, SubscriptionClientT},
		ClientError,
	},
	rpc_params,
	ws_client::{WsClient, WsClientBuilder},
};
use polkadot_sdk::{
	frame_support, frame_system, pallet_balances,
	sc_transaction_pool_api::TransactionStatus,
	sp_core::{crypto::Ss58Codec, Bytes, H256},
	sp_runtime::AccountId32,
	sp_version::RuntimeVersion,
};
pub use pq_client::refusal::Refusal;
use pq_runtime::{Balance, Nonce, Runtime, RuntimeEvent};
use serde::Deserialize;

/// An account's nonce and balances, as `System::Account` stores them.
pub type AccountInfo = frame_system::AccountInfo<Nonce, pallet_balances::AccountData<Balance>>;
/// An event with the phase (which extrinsic) it belongs to.
pub type EventRecord = frame_system::EventRecord<RuntimeEvent, H256>;
/// What `author_submitAndWatchExtrinsic` reports.
pub type Status = TransactionStatus<H256, H256>;

/// Turns a JSON-RPC error into a [`Refusal`]; other failures (connection, parsing) keep their
/// own message.
fn refusal(error: ClientError) -> anyhow::Error {
	let ClientError::Call(object) = error else { return anyhow::Error::new(error) };
	Refusal::from_rpc_error(object.code(), object.message(), object.data().map(|data| data.get()))
		.into()
}

#[derive(Deserialize)]
struct SignedBlock {
	block: BlockBody,
}

#[derive(Deserialize)]
struct BlockBody {
	header: Header,
	extrinsics: Vec<Bytes>,
}

#[derive(Deserialize)]
struct Header {
	number: String,
}

impl Header {
	fn number(&self) -> anyhow::Result<u32> {
		u32::from_str_radix(self.number.trim_start_matches("0x"), 16)
			.context("block number is not hex")
	}
}

/// A block's number and its extrinsics, encoded.
pub struct Block {
	/// Block number.
	pub number: u32,
	/// Its extrinsics, SCALE-encoded, in order.
	pub extrinsics: Vec<Bytes>,
}

/// A connection to a node.
pub struct RpcClient {
	client: WsClient,
}

impl RpcClient {
	/// Connects to the node at `url` (`ws://127.0.0.1:9944` for a local dev node).
	pub async fn connect(url: &str) -> anyhow::Result<Self> {
		let client =
			WsClientBuilder::default()
				.max_request_size(16 * 1024 * 1024)
				.build(url)
				.await
				.with_context(|| {
					format!("cannot connect to {url}: is the node running, with JSON-RPC on that address?")
				})?;
		Ok(Self { client })
	}

	/// Genesis hash, runtime version and a checkpoint: what a transaction for this chain signs,
	/// mortal from the checkpoint. The checkpoint is the finalized head, which no fork can
	/// replace, unless finality lags so far that a transaction from there would expire soon;
	/// then the best block.
	pub async fn chain_identity(&self) -> anyhow::Result<ChainIdentity> {
		let genesis_hash: H256 = self.client.request("chain_getBlockHash", rpc_params![0]).await?;
		let (finalized, finalized_number) = self.finalized_head().await?;
		let best: H256 = self.client.request("chain_getBlockHash", rpc_params![]).await?;
		let best_number = self.block_number(best).await?;
		let lag = u64::from(best_number.saturating_sub(finalized_number));
		let checkpoint = if lag < MORTAL_PERIOD / 4 {
			Checkpoint { number: finalized_number, hash: finalized }
		} else {
			Checkpoint { number: best_number, hash: best }
		};
		// The runtime the pool validates with: the best block's.
		let version: RuntimeVersion =
			self.client.request("state_getRuntimeVersion", rpc_params![best]).await?;
		Ok(ChainIdentity {
			genesis_hash,
			spec_version: version.spec_version,
			transaction_version: version.transaction_version,
			checkpoint: Some(checkpoint),
		})
	}

	/// The number of block `hash`.
	async fn block_number(&self, hash: H256) -> anyhow::Result<u32> {
		let header: Option<Header> =
			self.client.request("chain_getHeader", rpc_params![hash]).await?;
		header.ok_or_else(|| anyhow!("the node does not have block {hash:?}"))?.number()
	}

	/// The best block's number.
	pub async fn best_number(&self) -> anyhow::Result<u32> {
		let header: Header = self.client.request("chain_getHeader", rpc_params![]).await?;
		header.number()
	}

	/// The finalized head and its number.
	pub async fn finalized_head(&self) -> anyhow::Result<(H256, u32)> {
		let finalized: H256 = self.client.request("chain_getFinalizedHead", rpc_params![]).await?;
		Ok((finalized, self.block_number(finalized).await?))
	}

	/// The nonce `account`'s next transaction needs, counting those waiting in the pool.
	pub async fn next_nonce(&self, account: &AccountId32) -> anyhow::Result<Nonce> {
		Ok(self
			.client
			.request("system_accountNextIndex", rpc_params![account.to_ss58check()])
			.await?)
	}

	/// `account`'s nonce and balances at `block` (the best block if `None`).
	pub async fn account(
		&self,
		account: &AccountId32,
		block: Option<H256>,
	) -> anyhow::Result<AccountInfo> {
		let key = frame_system::Account::<Runtime>::hashed_key_for(account);
		Ok(self.storage(&key, block).await?.unwrap_or_default())
	}

	/// Whether `account` accepts only its registered key.
	pub async fn only_registered_key(&self, account: &AccountId32) -> anyhow::Result<bool> {
		let key = pallet_pq_verifier::OnlyRegisteredKey::<Runtime>::hashed_key_for(account);
		Ok(self.storage::<()>(&key, None).await?.is_some())
	}

	/// The key `account` registered with pallet-pq-verifier, if any.
	pub async fn registered_key(
		&self,
		account: &AccountId32,
	) -> anyhow::Result<Option<pallet_pq_verifier::RegisteredKey<Balance>>> {
		let key = pallet_pq_verifier::Keys::<Runtime>::hashed_key_for(account);
		self.storage(&key, None).await
	}

	/// The events of `block`.
	pub async fn events(&self, block: H256) -> anyhow::Result<Vec<EventRecord>> {
		// `System::Events` is private to frame-system; its key is the standard storage prefix.
		let key = frame_support::storage::storage_prefix(b"System", b"Events");
		Ok(self.storage(&key, Some(block)).await?.unwrap_or_default())
	}

	/// The value at storage `key` at `block` (the best block if `None`), decoded as `T`.
	pub async fn storage<T: Decode>(
		&self,
		key: &[u8],
		block: Option<H256>,
	) -> anyhow::Result<Option<T>> {
		let value: Option<Bytes> = self
			.client
			.request("state_getStorage", rpc_params![Bytes(key.to_vec()), block])
			.await?;
		value
			.map(|bytes| {
				T::decode(&mut &bytes[..])
					.context("the node's storage does not decode as pq-runtime's")
			})
			.transpose()
	}

	/// The block with hash `hash`.
	pub async fn block(&self, hash: H256) -> anyhow::Result<Block> {
		let signed: Option<SignedBlock> =
			self.client.request("chain_getBlock", rpc_params![hash]).await?;
		let body = signed.ok_or_else(|| anyhow!("the node does not have block {hash:?}"))?.block;
		Ok(Block { number: body.header.number()?, extrinsics: body.extrinsics })
	}

	/// Submits an encoded extrinsic; returns its hash once the pool has accepted it.
	pub async fn submit(&self, extrinsic: &[u8]) -> anyhow::Result<H256> {
		self.client
			.request("author_submitExtrinsic", rpc_params![Bytes(extrinsic.to_vec())])
			.await
			.map_err(refusal)
	}

	/// Submits an encoded extrinsic and follows it through the pool and into blocks.
	pub async fn submit_and_watch(&self, extrinsic: &[u8]) -> anyhow::Result<Subscription<Status>> {
		self.client
			.subscribe(
				"author_submitAndWatchExtrinsic",
				rpc_params![Bytes(extrinsic.to_vec())],
				"author_unwatchExtrinsic",
			)
			.await
			.map_err(refusal)
	}

	/// Makes a JSON-RPC request of any other method.
	pub async fn request<T: serde::de::DeserializeOwned>(
		&self,
		method: &str,
		params: jsonrpsee::core::params::ArrayParams,
	) -> anyhow::Result<T> {
		self.client.request(method, params).await.map_err(refusal)
	}
}
