//! The weights of the key calls whose cost their key decides beyond a single benchmark: how
//! many account-derivation candidates deriving its account tries (`k` of them take about `2^k`
//! hashes to find: a key whose `t1` is zero needs no secret and is ground by its `ρ` alone),
//! charged up to a bound before the call and refunded to the count after it.
//!
//! The count is not taken before the call: a weight is computed for every transaction a node
//! sees — in the pool before its fee is asked for, in a fee quote, and inside calls that wrap
//! another, such as `sudo_unchecked_weight`, which reads the inner call's dispatch class and
//! charges its own weight — so deriving there would give anyone the derivation for free.

use crate::{authorization::candidates_beyond_the_first, WeightInfo};
use polkadot_sdk::frame_support::weights::Weight;

/// The account-derivation candidates a key call is charged before it runs. A key whose
/// derivation tries more takes about `2^64` hashes to find, beyond any attacker; one
/// that did would be charged this many. A key derived at the first candidate, as half of all
/// keys are (and the benchmarks' keys), is refunded all but its one benchmarked candidate.
pub const CHARGED_CANDIDATES: u32 = 64;

/// [`Pallet::register_key`](crate::Pallet::register_key) before it runs: a migration or the
/// registration of the sender's own derived key — which one depends on whether the key derives
/// the sender, found in the call — the larger of the two, part by part, and the key's
/// derivation at its bound ([`CHARGED_CANDIDATES`]).
pub fn registration<W: WeightInfo>() -> Weight {
	registered::<W>(true, CHARGED_CANDIDATES)
}

/// [`Pallet::register_key`](crate::Pallet::register_key) once it ran: a migration (the larger
/// of the two benchmarks, as before it ran) or the registration of the derived key (no proof
/// verified), and the key's derivation, `candidates` of them.
pub fn registered<W: WeightInfo>(migrated: bool, candidates: u32) -> Weight {
	let call = if migrated { W::migrate_key().max(W::register_key()) } else { W::register_key() };
	call.saturating_add(key_derivation::<W>(candidates))
}

/// [`Pallet::rotate_key`](crate::Pallet::rotate_key) before it runs: [`rotated`] at the
/// derivation's bound ([`CHARGED_CANDIDATES`]).
pub fn rotation<W: WeightInfo>(only_registered_key: bool) -> Weight {
	rotated::<W>(only_registered_key, CHARGED_CANDIDATES)
}

/// [`Pallet::rotate_key`](crate::Pallet::rotate_key) with a key whose derivation tried
/// `candidates`: the benchmarked rotation; with `only_registered_key`, reading and writing the
/// rule (at most what setting it in its own call costs); and the key's derivation.
pub fn rotated<W: WeightInfo>(only_registered_key: bool, candidates: u32) -> Weight {
	let rule = if only_registered_key { W::set_only_registered_key() } else { Weight::zero() };
	W::rotate_key()
		.saturating_add(rule)
		.saturating_add(key_derivation::<W>(candidates))
}

/// A key call's derivation of its key's account, `candidates` of them (at most
/// [`CHARGED_CANDIDATES`]), beyond the one its benchmark's key took — as a key sent inline is
/// charged ([`crate::derivation_weight`]).
pub fn key_derivation<W: WeightInfo>(candidates: u32) -> Weight {
	candidates_beyond_the_first::<W>(candidates.min(CHARGED_CANDIDATES))
}
