//! The JSON-RPC methods beyond those every node has (`system_*`, `chain_*`, `state_*`,
//! `author_*`): account nonces, fee queries, and block sealing on demand.

use crate::service::{FullClient, SealingCommands};
use jsonrpsee::RpcModule;
use polkadot_sdk::{
	pallet_transaction_payment_rpc::{TransactionPayment, TransactionPaymentApiServer},
	sc_consensus_manual_seal::rpc::{ManualSeal, ManualSealApiServer},
	sc_transaction_pool_api::TransactionPool,
	substrate_frame_rpc_system::{System, SystemApiServer},
};
use pq_runtime::opaque::Block;
use std::sync::Arc;

/// What the RPC methods need.
pub struct FullDeps<P> {
	/// The client.
	pub client: Arc<FullClient>,
	/// The transaction pool.
	pub pool: Arc<P>,
	/// With `--sealing manual`: where `engine_createBlock` and `engine_finalizeBlock` send
	/// their commands.
	pub sealing_commands: Option<SealingCommands>,
}

/// The RPC module with `system_accountNextIndex`, `payment_*` and, with manual sealing,
/// `engine_*`.
pub fn create_full<P>(deps: FullDeps<P>) -> Result<RpcModule<()>, Box<dyn std::error::Error + Send + Sync>>
where
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
