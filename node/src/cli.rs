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
	/// chain's validators in turn, one per slot, finalized by GRANDPA. Default: `instant` on
	/// development chains (`--dev`, `dev-pure-wasm`), `aura` on every other.
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
	/// `flag`, or the default for `chain`: on-demand blocks for development chains, consensus
	/// for every other. A chain of validators is never sealed on demand: its runtime accepts
	/// only Aura's blocks, and an on-demand node would import its peers' blocks unchecked.
	pub fn resolve(
		flag: Option<Self>,
		chain: &dyn polkadot_sdk::sc_service::ChainSpec,
	) -> Result<Self, String> {
		use polkadot_sdk::sc_service::ChainType;
		match (chain.chain_type(), flag) {
			(ChainType::Development, flag) => Ok(flag.unwrap_or(Self::Instant)),
			(_, None | Some(Self::Aura)) => Ok(Self::Aura),
			(chain_type, Some(sealing)) =>
				Err(format!("--sealing {sealing:?} is for development chains; this one is {chain_type:?} (Aura and GRANDPA)")),
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
