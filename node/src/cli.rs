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
	/// `engine_finalizeBlock`), so a harness decides what goes into each block.
	#[arg(long, value_enum, default_value_t = Sealing::Instant)]
	pub sealing: Sealing,

	/// MiB of decoded verifying keys the node keeps across blocks for the runtime's signature
	/// host functions (at most 16,384 keys), and again for each of committee matrices and
	/// decoded aggregate keys. 0 disables the caches; they change speed only.
	#[arg(long, value_name = "MIB", default_value_t = 64)]
	pub key_cache_mib: usize,
}

/// How the node makes blocks. There is no consensus: this is a single-node chain.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Sealing {
	/// A block for every pool import, finalized immediately.
	Instant,
	/// Blocks on request over JSON-RPC.
	Manual,
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
}
