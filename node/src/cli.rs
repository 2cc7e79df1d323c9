//! Command-line arguments.

use polkadot_sdk::sc_cli;

/// `pq-node`: runs a pq-runtime chain, or one of the subcommands.
#[derive(Debug, clap::Parser)]
pub struct Cli {
	#[command(subcommand)]
	pub subcommand: Option<Subcommand>,

	#[command(flatten)]
	pub run: sc_cli::RunCmd,

	/// How blocks are made. `instant`: a block as soon as a transaction enters the pool,
	/// finalized at once. `manual`: only when asked over JSON-RPC (`engine_createBlock`,
	/// `engine_finalizeBlock`), so a harness decides what goes into each block. `aura`: by the
	/// chain's validators in turn, one per slot, finalized by GRANDPA. A chain whose state
	/// (at the best block) names Aura authorities is made by `aura` only; one without (`--dev`,
	/// `dev-pure-wasm`) is sealed on demand, `instant` by default.
	#[arg(long, value_enum)]
	pub sealing: Option<Sealing>,

	/// MiB the node keeps across blocks for the runtime's signature host functions, one budget
	/// for everything: decoded verifying keys, committee matrices, decoded aggregate keys and
	/// the signer sets that signed (at most 16,384 entries in all). 0 disables the cache; it
	/// changes speed only.
	#[arg(long, value_name = "MIB", default_value_t = 256)]
	pub key_cache_mib: usize,
}

/// How the node makes blocks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Sealing {
	/// A single-node chain: a block for every pool import, finalized immediately.
	Instant,
	/// A single-node chain: blocks on request over JSON-RPC.
	Manual,
	/// A network: Aura block production by the validators (`--validator` with its keys in the
	/// keystore, or `--alice` …), GRANDPA finality.
	Aura,
}

impl Sealing {
	/// `flag`, or the default, for a chain whose state at the best block names Aura authorities
	/// (`validators`) or none — the same rule by which its runtime accepts blocks. A chain of
	/// validators is made by Aura alone: its runtime refuses blocks without an Aura slot, and a
	/// node sealing on demand would refuse its peers' blocks and make a fork of its own. A chain
	/// without validators is sealed on demand: Aura would never find an author.
	pub fn resolve(flag: Option<Self>, validators: bool) -> Result<Self, String> {
		match (validators, flag) {
			(true, None | Some(Self::Aura)) => Ok(Self::Aura),
			(false, None) => Ok(Self::Instant),
			(false, Some(on_demand @ (Self::Instant | Self::Manual))) => Ok(on_demand),
			(true, Some(on_demand)) => Err(format!(
				"--sealing {} is for a chain without validators; this chain's state \
				 names Aura authorities (`aura.authorities`): its blocks are made by Aura",
				format!("{on_demand:?}").to_lowercase()
			)),
			(false, Some(Self::Aura)) => {
				Err("--sealing aura needs validators; this chain's state names no Aura authority \
				 (`aura.authorities`): its blocks are sealed on demand (instant or manual)"
					.into())
			},
		}
	}
}

#[derive(Debug, clap::Subcommand)]
pub enum Subcommand {
	/// Writes the chain specification (`--raw` for the genesis storage) to stdout.
	BuildSpec(sc_cli::BuildSpecCmd),

	/// Writes a chain specification to a file or stdout.
	ExportChainSpec(sc_cli::ExportChainSpecCmd),

	/// Removes the chain's database.
	PurgeChain(sc_cli::PurgeChainCmd),

	/// Writes blocks to a file (SCALE or JSON).
	ExportBlocks(sc_cli::ExportBlocksCmd),

	/// Imports and executes blocks from a file, as a node receiving them would.
	ImportBlocks(sc_cli::ImportBlocksCmd),

	/// Runtime benchmarks.
	#[cfg(feature = "runtime-benchmarks")]
	#[command(subcommand)]
	Benchmark(Benchmark),
}

/// What `pq-node benchmark` measures.
#[cfg(feature = "runtime-benchmarks")]
#[derive(Debug, clap::Subcommand)]
pub enum Benchmark {
	/// Runs a pallet's benchmarks on the runtime and writes its weights.
	Pallet(Box<polkadot_sdk::frame_benchmarking_cli::PalletCmd>),
	/// Measures reading and writing the chain's state in its database and writes the runtime's
	/// database weights.
	Storage(Box<polkadot_sdk::frame_benchmarking_cli::StorageCmd>),
}

#[cfg(test)]
mod tests {
	use super::Sealing::{self, *};

	/// The rule as data: (the chain's state names validators, `--sealing`) → how blocks are
	/// made, or refused at startup.
	#[test]
	fn sealing_follows_the_chains_validators() {
		let cases: [(bool, Option<Sealing>, Option<Sealing>); 8] = [
			(true, None, Some(Aura)),
			(true, Some(Aura), Some(Aura)),
			(true, Some(Instant), None),
			(true, Some(Manual), None),
			(false, None, Some(Instant)),
			(false, Some(Instant), Some(Instant)),
			(false, Some(Manual), Some(Manual)),
			(false, Some(Aura), None),
		];
		for (validators, flag, expected) in cases {
			let resolved = Sealing::resolve(flag, validators);
			assert_eq!(resolved.clone().ok(), expected, "{validators} {flag:?}: {resolved:?}");
			if let Err(refusal) = resolved {
				assert!(refusal.contains("`aura.authorities`"), "{refusal}");
			}
		}
	}
}
