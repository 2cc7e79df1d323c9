//! The JSON-RPC methods beyond those every node has (`system_*`, `chain_*`, `state_*`,
//! `author_*`): account nonces, fee queries, and block sealing on demand. Generic over the
//! client, as in the node templates, so this module depends on the runtime's APIs only.

use futures::channel::mpsc;
use jsonrpsee::RpcModule;
use polkadot_sdk::{
	pallet_transaction_payment_rpc::{
		TransactionPayment, TransactionPaymentApiServer, TransactionPaymentRuntimeApi,
	},
	sc_consensus_manual_seal::{
		rpc::{ManualSeal, ManualSealApiServer},
		EngineCommand,
	},
	sc_transaction_pool_api::TransactionPool,
	sp_api::ProvideRuntimeApi,
	sp_block_builder::BlockBuilder,
	sp_blockchain::{Error as BlockChainError, HeaderBackend, HeaderMetadata},
	substrate_frame_rpc_system::{AccountNonceApi, System, SystemApiServer},
};
use pq_runtime::{opaque::Block, AccountId, Balance, Hash, Nonce};
use std::sync::Arc;

/// What the RPC methods need.
pub struct FullDeps<C, P> {
	/// The client.
	pub client: Arc<C>,
	/// The transaction pool.
	pub pool: Arc<P>,
	/// With `--sealing manual`: where `engine_createBlock` and `engine_finalizeBlock` send
	/// their commands.
	pub sealing_commands: Option<mpsc::Sender<EngineCommand<Hash>>>,
}

/// The RPC module with `system_accountNextIndex`, `payment_*` and, with manual sealing,
/// `engine_*`.
pub fn create_full<C, P>(
	deps: FullDeps<C, P>,
) -> Result<RpcModule<()>, Box<dyn std::error::Error + Send + Sync>>
where
	C: ProvideRuntimeApi<Block>
		+ HeaderBackend<Block>
		+ HeaderMetadata<Block, Error = BlockChainError>
		+ Send
		+ Sync
		+ 'static,
	C::Api: AccountNonceApi<Block, AccountId, Nonce>
		+ TransactionPaymentRuntimeApi<Block, Balance>
		+ BlockBuilder<Block>,
	P: TransactionPool<Block = Block> + 'static,
{
	let FullDeps { client, pool, sealing_commands } = deps;
	let mut module = RpcModule::new(());
	module.merge(System::new(client.clone(), pool).into_rpc())?;
	module.merge(TransactionPayment::new(client).into_rpc())?;
	if let Some(commands) = sealing_commands {
		module.merge(ManualSeal::new(commands).into_rpc())?;
	}
	Ok(module)
}
