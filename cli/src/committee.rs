//! Dev committees: every member of an aggregate ML-DSA-87 committee simulated in this process.
//!
//! A committee is named by a text seed, its size and its threshold; its `ρ` and all members'
//! secrets derive from `blake2_256(seed)`, so anyone with the seed can sign for it. That is
//! what a dev chain, a demo or a test wants — and exactly what a real committee must not do:
//! there, each member keeps its own secret and runs the two signing rounds on its own machine.

use anyhow::{anyhow, bail};
use polkadot_sdk::sp_crypto_hashing::blake2_256;
use pq_crypto::aggregate::{SignerBitfield, MAX_COMMITTEE_SIZE};
use pq_signer::aggregator::Committee;

/// Which dev committee.
#[derive(Debug, clap::Args)]
pub struct CommitteeArgs {
	/// Text from which the committee's seed `ρ` and every member's secret derive.
	#[arg(long)]
	pub seed: String,
	/// Number of members, 1 to 128.
	#[arg(long)]
	pub size: u32,
	/// Fewest members that must sign, 1 to `--size`.
	#[arg(long)]
	pub threshold: u32,
}

impl CommitteeArgs {
	/// Generates every member's keys (about a millisecond per member).
	pub fn committee(&self) -> anyhow::Result<Committee> {
		if !(1..=MAX_COMMITTEE_SIZE).contains(&self.size) {
			bail!("--size must be from 1 to {MAX_COMMITTEE_SIZE}, not {}", self.size);
		}
		if !(1..=self.size).contains(&self.threshold) {
			bail!("--threshold must be from 1 to --size ({}), not {}", self.size, self.threshold);
		}
		Ok(Committee::from_seed(&blake2_256(self.seed.as_bytes()), self.size, self.threshold))
	}
}

/// The account `committee` controls on chain.
pub fn account(committee: &Committee) -> polkadot_sdk::sp_runtime::AccountId32 {
	committee.id().account_id()
}

/// The signer set `indices` names (`0,3,7`, or `all`), checked against the committee.
pub fn signers(committee: &Committee, indices: &str) -> anyhow::Result<SignerBitfield> {
	let members: Vec<u32> = if indices == "all" {
		(0..committee.size()).collect()
	} else {
		indices
			.split(',')
			.map(|index| {
				index.trim().parse().map_err(|_| anyhow!("`{index}` is not a member index"))
			})
			.collect::<anyhow::Result<_>>()?
	};
	let mut distinct = members.clone();
	distinct.sort_unstable();
	if let Some(twice) = distinct.windows(2).find(|pair| pair[0] == pair[1]) {
		// Named twice, a member would count twice against the threshold but sign once.
		bail!("member {} is named twice", twice[0]);
	}
	if (members.len() as u32) < committee.threshold() {
		bail!(
			"{} signers are fewer than the committee's threshold of {}",
			members.len(),
			committee.threshold()
		);
	}
	committee
		.signers(members)
		.map_err(|_| anyhow!("member indices run from 0 to {}", committee.size() - 1))
}

#[cfg(test)]
mod tests {
	use super::*;

	fn args(size: u32, threshold: u32) -> CommitteeArgs {
		CommitteeArgs { seed: "council".into(), size, threshold }
	}

	#[test]
	fn sizes_and_thresholds_are_checked() {
		assert!(args(0, 1).committee().is_err());
		assert!(args(129, 1).committee().is_err());
		assert!(args(4, 0).committee().is_err());
		assert!(args(4, 5).committee().is_err());
		assert_eq!(args(4, 2).committee().unwrap().id(), args(4, 2).committee().unwrap().id());
	}

	#[test]
	fn signer_lists_parse_and_are_checked() {
		let committee = args(4, 2).committee().unwrap();
		assert_eq!(signers(&committee, "0, 3").unwrap().members().collect::<Vec<_>>(), vec![0, 3]);
		assert_eq!(signers(&committee, "all").unwrap().count(), 4);
		assert!(signers(&committee, "1").is_err(), "below the threshold");
		assert!(signers(&committee, "0,4").is_err(), "not a member");
		assert!(signers(&committee, "0,x").is_err());
	}

	/// A signer named twice would meet the threshold by the list's length while the bitfield,
	/// and the aggregate signature, have one member fewer: the chain would refuse it.
	#[test]
	fn a_signer_named_twice_is_refused() {
		let committee = args(4, 3).committee().unwrap();
		let error = signers(&committee, "0,0,1").unwrap_err().to_string();
		assert!(error.contains("member 0 is named twice"), "{error}");
		assert_eq!(signers(&committee, "0,2,1").unwrap().count(), 3);
	}
}
