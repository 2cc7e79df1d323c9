//! The decoded-key cache on the verification path.
//!
//! A Wasm runtime instance lives for one runtime call — validating one transaction, or
//! authoring or importing one block — so this cache lets repeat signers within a block skip
//! decoding their key. It changes speed only: a hit verifies with the same decoded key a miss
//! would have built, and weights still charge a full decode. With our verifier in Wasm a key's
//! first signature in the call is verified without a decoded key and its second decodes it to
//! keep ([`KeyCache`]'s docs): a block of distinct signers allocates no decoded key.
//!
//! The runtime is single-threaded, so the lock never waits there; in native tests it keeps
//! parallel tests apart. One cache per backend type: another backend replaces it.

use alloc::boxed::Box;
use core::any::Any;
use pq_crypto::{
	backend::Backend,
	cache::{CacheLimits, KeyCache},
};

static CACHE: spin::Mutex<Option<Box<dyn Any + Send>>> = spin::Mutex::new(None);

/// Most entries, whatever the byte budget.
const MAX_ENTRIES: usize = 1024;

/// Runs `f` with the cache of backend `B`, made with a budget of `max_bytes` if there is none.
pub fn with_cache<B: Backend, R>(max_bytes: u32, f: impl FnOnce(&mut KeyCache<B>) -> R) -> R
where
	KeyCache<B>: Send,
{
	let mut slot = CACHE.lock();
	if let Some(cache) = slot.as_mut().and_then(|cache| cache.downcast_mut::<KeyCache<B>>()) {
		return f(cache);
	}
	let mut cache = KeyCache::<B>::new(limits(max_bytes));
	let result = f(&mut cache);
	*slot = Some(Box::new(cache));
	result
}

/// Empties the cache, so benchmarks measure a cold decode every time — and the costlier one:
/// the cache it leaves decodes every key to keep ([`KeyCache::decoding_every_key`]), where the
/// runtime's verifies a key's first signature without decoding it if that is lighter. The
/// cache it replaces is leaked, not freed: in a block the cache holds the keys decoded before,
/// so a key decoded to keep lands in fresh instance memory, and so must the benchmark's (a
/// freed cache's memory would serve the next decode). A benchmark's repeats leak one decoded
/// key each, within its runtime call.
#[cfg(feature = "runtime-benchmarks")]
pub fn clear<B: Backend>(max_bytes: u32) {
	let cache = KeyCache::<B>::decoding_every_key(limits(max_bytes));
	if let Some(previous) = CACHE.lock().replace(Box::new(cache)) {
		core::mem::forget(previous);
	}
}

fn limits(max_bytes: u32) -> CacheLimits {
	CacheLimits { max_entries: MAX_ENTRIES, max_bytes: max_bytes as usize }
}
