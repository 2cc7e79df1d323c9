//! Which runtime code each runtime call executes, told to the host functions
//! ([`ExecutingCode`]): what the node remembers of committees' signer sets is scoped to it.

use polkadot_sdk::{
	sc_client_api::{execution_extensions::ExtensionsFactory, Backend, StorageProvider},
	sp_core::storage::{well_known_keys::CODE, StorageKey},
	sp_externalities::Extensions,
	sp_runtime::traits::{Block as BlockT, NumberFor},
};
use pq_crypto::host::node::ExecutingCode;
use std::{
	marker::PhantomData,
	sync::{Arc, Weak},
};

/// Registers [`ExecutingCode`] for every runtime call: the hash of `:code` in the state the call
/// starts from, which is the code the executor loads (a chain spec's code substitutes and
/// `--wasm-runtime-overrides` aside: the operator's choice, for the whole run). Read only when
/// a committee's signature asks. A weak handle, since the client owns its extensions factory.
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
			let hash = client.upgrade()?.storage_hash(at, &StorageKey(CODE.to_vec())).ok()??;
			hash.as_ref().try_into().ok()
		}));
		extensions
	}
}
