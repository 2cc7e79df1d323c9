//! Submitting one of this runtime's transactions and following it: submitted → in block →
//! finalized, with the events it caused (as the runtime's own `RuntimeEvent`s) and what it paid.

use crate::rpc::RpcClient;
use anyhow::{anyhow, bail};
use codec::Encode;
use polkadot_sdk::{
	frame_system::{self, Phase},
	pallet_transaction_payment,
	sc_transaction_pool_api::TransactionStatus,
	sp_core::H256,
	sp_crypto_hashing::blake2_256,
};
use pq_runtime::{Balance, RuntimeError, RuntimeEvent, UncheckedExtrinsic};
use std::io::Write;

/// Where a transaction ended up.
#[derive(Debug)]
pub struct Included {
	/// The block that includes it.
	pub block: H256,
	/// That block's number.
	pub block_number: u32,
	/// The events of this transaction, in order.
	pub events: Vec<RuntimeEvent>,
	/// The fee it paid, tip included.
	pub fee: Balance,
}

/// How long to follow a transaction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WaitFor {
	/// Return once the pool accepted it.
	Pool,
	/// Return once it is in a block.
	InBlock,
	/// Return once that block is final.
	Finalized,
}

/// Submits `extrinsic`, reporting progress on `progress`. Returns the including block unless
/// `wait` is [`WaitFor::Pool`]. A transaction the pool refuses, or whose call fails, is an
/// error naming the reason.
pub async fn submit(
	node: &RpcClient,
	extrinsic: &UncheckedExtrinsic,
	wait: WaitFor,
	progress: &mut impl Write,
) -> anyhow::Result<Option<Included>> {
	let encoded = extrinsic.encode();
	let hash = H256(blake2_256(&encoded));
	if wait == WaitFor::Pool {
		node.submit(&encoded).await?;
		writeln!(progress, "submitted {hash:?} ({} bytes)", encoded.len())?;
		return Ok(None);
	}

	let mut statuses = node.submit_and_watch(&encoded).await?;
	writeln!(progress, "submitted {hash:?} ({} bytes)", encoded.len())?;
	let mut included = None;
	while let Some(status) = statuses.next().await {
		match status? {
			TransactionStatus::Future => {
				writeln!(progress, "waiting in the pool for an earlier nonce")?
			},
			TransactionStatus::Ready | TransactionStatus::Broadcast(_) => {},
			TransactionStatus::InBlock((block, _)) => {
				let inclusion = inclusion(node, block, &encoded).await?;
				writeln!(progress, "in block #{} {block:?}", inclusion.block_number)?;
				for event in &inclusion.events {
					writeln!(progress, "  {event:?}")?;
				}
				writeln!(progress, "  fee paid: {} planck", inclusion.fee)?;
				if let Some(error) = dispatch_failure(&inclusion.events) {
					bail!(
						"the transaction is in block #{} but its call failed: {error}",
						inclusion.block_number
					);
				}
				if wait == WaitFor::InBlock {
					return Ok(Some(inclusion));
				}
				included = Some(inclusion);
			},
			TransactionStatus::Retracted(block) => {
				writeln!(progress, "block {block:?} was retracted; waiting for another")?;
				included = None;
			},
			TransactionStatus::Finalized((block, _)) => {
				let inclusion = match included.take() {
					Some(inclusion) if inclusion.block == block => inclusion,
					_ => inclusion(node, block, &encoded).await?,
				};
				writeln!(progress, "finalized #{} {block:?}", inclusion.block_number)?;
				return Ok(Some(inclusion));
			},
			TransactionStatus::FinalityTimeout(block) => {
				bail!("the node stopped following the transaction before block {block:?} was final")
			},
			TransactionStatus::Usurped(other) => {
				bail!("replaced in the pool by {other:?} (same sender and nonce)")
			},
			TransactionStatus::Dropped => bail!("dropped from the pool (the pool is full)"),
			TransactionStatus::Invalid => {
				bail!("the transaction became invalid before it was included")
			},
		}
	}
	bail!("the node closed the subscription before the transaction was final")
}

/// Finds the extrinsic in `block` and collects its events and fee.
async fn inclusion(node: &RpcClient, block: H256, encoded: &[u8]) -> anyhow::Result<Included> {
	let body = node.block(block).await?;
	let index =
		body.extrinsics
			.iter()
			.position(|extrinsic| extrinsic.0 == encoded)
			.ok_or_else(|| anyhow!("block {block:?} does not contain the transaction"))? as u32;
	let events: Vec<RuntimeEvent> = node
		.events(block)
		.await?
		.into_iter()
		.filter(|record| record.phase == Phase::ApplyExtrinsic(index))
		.map(|record| record.event)
		.collect();
	let fee = events
		.iter()
		.find_map(|event| match event {
			RuntimeEvent::TransactionPayment(
				pallet_transaction_payment::Event::TransactionFeePaid { actual_fee, .. },
			) => Some(*actual_fee),
			_ => None,
		})
		.unwrap_or_default();
	Ok(Included { block, block_number: body.number, events, fee })
}

/// The reason the call failed, named after the pallet error when it is one.
fn dispatch_failure(events: &[RuntimeEvent]) -> Option<String> {
	events.iter().find_map(|event| match event {
		RuntimeEvent::System(frame_system::Event::ExtrinsicFailed { dispatch_error, .. }) => {
			Some(match RuntimeError::from_dispatch_error(*dispatch_error) {
				Some(error) => format!("{error:?}"),
				None => format!("{dispatch_error:?}"),
			})
		},
		_ => None,
	})
}
