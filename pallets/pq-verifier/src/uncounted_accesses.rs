//! Storage accesses release 12 added to calls whose committed weights (`weights.rs`, measured
//! before it) do not count them, charged beside those weights until they are regenerated.
//!
//! Lifting the key rule ([`Pallet::set_only_registered_key`] with `false`,
//! [`Pallet::remove_key`]) reads the rule, `Version1Accounts`, [`CommitteesOwned`] and
//! [`Config::PostQuantumRoles`] (one read assumed: pq-runtime's is the sudo key), of which
//! `set_only_registered_key`'s weight counts none and `remove_key`'s the first two (nor the
//! rule's removal, which its benchmark did not make); a committee call reads and writes
//! [`CommitteesOwned`]. The benchmarks measure all of these (their migrated account is an
//! Ed25519 one that accepts only its key), so a regenerated `weights.rs` (and pq-runtime's own
//! `runtime/src/weights/pallet_pq_verifier.rs`) counts them, and the test below fails until this
//! module goes: charged here too, they would be charged twice.

#[cfg(doc)]
use crate::CommitteesOwned;
use crate::{Config, Pallet};
use polkadot_sdk::frame_support::{traits::Get, weights::Weight};

/// Reads and writes a call makes beyond what its committed weight counts.
#[derive(Clone, Copy)]
pub(crate) struct Accesses {
	reads: u64,
	writes: u64,
}

/// `set_only_registered_key(false)`: the rule, `Version1Accounts`, `CommitteesOwned`, the role.
pub(crate) const SET_ONLY_REGISTERED_KEY: Accesses = Accesses { reads: 4, writes: 0 };
/// `remove_key`: `CommitteesOwned` and the role, and the rule's removal (its committed weight
/// was measured on an account without the rule, where removing it writes nothing).
pub(crate) const REMOVE_KEY: Accesses = Accesses { reads: 2, writes: 1 };
/// `create_committee` and `dissolve_committee`: `CommitteesOwned`.
pub(crate) const COMMITTEE: Accesses = Accesses { reads: 1, writes: 1 };

impl<T: Config> Pallet<T> {
	/// What `accesses` cost: the database weight of each, and for each read the estimated proof
	/// size of a map entry holding a `u32` (`crate::map_read_proof`; the largest read here).
	pub(crate) fn uncounted_weight(accesses: Accesses) -> Weight {
		const READ_PROOF: u64 = crate::map_read_proof(4);
		T::DbWeight::get()
			.reads_writes(accesses.reads, accesses.writes)
			.saturating_add(Weight::from_parts(0, READ_PROOF.saturating_mul(accesses.reads)))
	}
}

#[cfg(test)]
mod tests {
	/// The committed weights count what they counted when release 12 added the accesses this
	/// module charges: once `weights.rs` is regenerated, it counts them, and this module goes.
	/// `weights.rs` and pq-runtime's own (host functions), which the same regeneration writes.
	#[test]
	fn the_committed_weights_lack_the_accesses_charged_beside_them() {
		// pq-runtime's pure-Wasm build and the minimal runtime use the pallet's weights.
		lacks_the_accesses(include_str!("weights.rs"), "weights.rs");
		lacks_the_accesses(
			include_str!("../../../runtime/src/weights/pallet_pq_verifier.rs"),
			"pq-runtime's runtime/src/weights/pallet_pq_verifier.rs",
		);
	}

	fn lacks_the_accesses(weights: &str, file: &str) {
		let generated = &weights[weights
			.find("WeightInfo for ")
			.expect("the implementation with the runtime's database weights")..];
		// (reads, writes) each call's weight counts, not proportional to a component.
		let counted = |call: &str| {
			let body = &generated[generated.find(&format!("fn {call}(")).expect(call)..];
			let body = &body[..body.find("\n\t}").expect("the function's end")];
			let count = |access: &str| -> u64 {
				body.match_indices(&format!(".{access}("))
					.map(|(at, _)| &body[at + access.len() + 2..])
					.filter_map(|rest| rest.split("_u64)").next()?.parse::<u64>().ok())
					.sum()
			};
			(count("reads"), count("writes"))
		};
		let regenerated = format!(
			"{file} counts other accesses than when release 12 added its own: if it was \
			regenerated, regenerate the other weights file too, then remove uncounted_accesses.rs"
		);
		assert_eq!(counted("set_only_registered_key"), (1, 1), "{regenerated}");
		assert_eq!(counted("remove_key"), (5, 3), "{regenerated}");
		assert_eq!(counted("create_committee"), (5, 3), "{regenerated}");
		assert_eq!(counted("dissolve_committee"), (4, 4), "{regenerated}");
	}
}
