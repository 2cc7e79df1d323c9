//! Which runtime code each runtime call executes, told to the host functions
//! ([`ExecutingCode`]): what the node remembers of committees' signer sets is scoped to it.

use polkadot_sdk::{
	sc_client_api::{execution_extensions::ExtensionsFactory, Backend, StorageProvider},
	sp_core::storage::{
		well_known_keys::{CODE, PENDING_CODE},
		StorageKey,
	},
	sp_externalities::Extensions,
	sp_runtime::traits::{Block as BlockT, NumberFor},
};
use pq_crypto::host::node::ExecutingCode;
use std::{
	marker::PhantomData,
	sync::{Arc, Weak},
};

/// Registers [`ExecutingCode`] for every runtime call: the hash of the code the executor loads
/// from the state the call starts at ([`executing_code_hash`]). Read only when a committee's
/// signature asks. A weak handle, since the client owns its extensions factory. A node whose
/// chain spec substitutes code must not register it (`service`): a substitute runs from a
/// block number on under the hash of the code it replaces.
pub struct ExecutingCodeFactory<Client, B>(Weak<Client>, PhantomData<fn() -> B>);

impl<Client, B> ExecutingCodeFactory<Client, B> {
	pub fn new(client: &Arc<Client>) -> Self {
		Self(Arc::downgrade(client), PhantomData)
	}
}

impl<Block, Client, B> ExtensionsFactory<Block> for ExecutingCodeFactory<Client, B>
where
	Block: BlockT,
	Client: StorageProvider<Block, B> + Send + Sync + 'static,
	B: Backend<Block>,
{
	fn extensions_for(&self, at: Block::Hash, _: NumberFor<Block>) -> Extensions {
		let client = self.0.clone();
		let mut extensions = Extensions::new();
		extensions.register(ExecutingCode::new(move || {
			let client = client.upgrade()?;
			executing_code_hash(|key| {
				let hash = client.storage_hash(at, &StorageKey(key.to_vec())).ok()??;
				Some(hash.as_ref().to_vec())
			})
		}));
		extensions
	}
}

/// The hash of the code every runtime call at a state executes, from the state's stored hashes
/// (`storage_hash`): `:code`'s, unless `:pending_code` is set — then block import and building
/// run the pending code and other calls `:code` (sp-state-machine's `BackendRuntimeCode`), so
/// no one hash names the code and none is given (nothing is remembered; the runtime derives).
fn executing_code_hash(storage_hash: impl Fn(&[u8]) -> Option<Vec<u8>>) -> Option<[u8; 32]> {
	if storage_hash(PENDING_CODE).is_some() {
		return None;
	}
	storage_hash(CODE)?.try_into().ok()
}

#[cfg(test)]
mod tests {
	use super::*;

	/// docs/security.md, "A signer set filed under code that did not derive it": a state with
	/// `:pending_code` names no executing code, whatever `:code` is.
	#[test]
	fn a_state_with_pending_code_names_no_executing_code() {
		let state = |code: Option<[u8; 32]>, pending: Option<[u8; 32]>| {
			executing_code_hash(move |key| match key {
				CODE => code.map(Vec::from),
				PENDING_CODE => pending.map(Vec::from),
				_ => None,
			})
		};
		assert_eq!(state(Some([1; 32]), None), Some([1; 32]));
		assert_eq!(state(Some([1; 32]), Some([2; 32])), None);
		assert_eq!(state(None, Some([2; 32])), None);
		assert_eq!(state(None, None), None);
	}
}
