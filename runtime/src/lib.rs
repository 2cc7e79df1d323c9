//! # pq-runtime
//!
//! A development runtime whose transactions are signed with Ed25519, ML-DSA-44/65/87 or a
//! committee's aggregate ML-DSA-87, every one an ordinary signed (v4) extrinsic whose
//! `Signature` is [`pq_crypto::TransactionSignature`]: the key inline (Ed25519 accounts are
//! their key, as usual), a registered key, or a committee. Its extrinsic type is the pallet's
//! [`pallet_pq_verifier::Extrinsic`], which checks and charges each by form and scheme.
//!
//! Pallets: System, Timestamp, Balances, TransactionPayment, Sudo, PqVerifier, and Aura and
//! GRANDPA for the local testnet's validators (block production and finality; their keys are
//! classical, sr25519 and ed25519, as upstream's consensus requires). The dev chain's blocks are
//! sealed by the node on demand instead (instant or manual seal), with neither.

#![cfg_attr(not(feature = "std"), no_std)]
#![recursion_limit = "256"]

#[cfg(feature = "std")]
include!(concat!(env!("OUT_DIR"), "/wasm_binary.rs"));

/// The same runtime built with the `pure-wasm-verifier` feature: verifies in Wasm, so it runs on
/// nodes without this project's host functions. The dev node offers it as `--chain dev-pure-wasm`.
#[cfg(feature = "std")]
pub mod pure_wasm {
	include!(concat!(env!("OUT_DIR"), "/wasm_binary_pure_wasm.rs"));
}

/// The pure-Wasm runtime verifying with libcrux instead of our own verifier (feature
/// `pure-wasm-libcrux`), built only when `PQ_PURE_WASM_LIBCRUX` is set: for the benchmarks
/// that compare the two in Wasm. `WASM_BINARY` is `None` otherwise.
#[cfg(feature = "std")]
pub mod pure_wasm_libcrux {
	include!(concat!(env!("OUT_DIR"), "/wasm_binary_pure_wasm_libcrux.rs"));
}

extern crate alloc;

use alloc::vec::Vec;

mod apis;
#[cfg(feature = "runtime-benchmarks")]
mod benchmarks;
pub mod configs;
pub mod genesis_config_presets;
#[cfg(test)]
mod metadata_tests;
pub mod weights;

use polkadot_sdk::{
	frame_executive, frame_support, frame_system, pallet_aura, pallet_balances, pallet_grandpa,
	pallet_sudo, pallet_timestamp, pallet_transaction_payment, sp_consensus_aura,
	sp_runtime::{generic, impl_opaque_keys, traits::BlakeTwo256, MultiAddress},
	sp_version::RuntimeVersion,
};

pub use apis::RuntimeApi;
pub use pq_crypto;

/// A transaction's signature: its form (key inline, registered key, committee) and scheme.
pub type Signature = pq_crypto::TransactionSignature;
/// Account ids: Ed25519 keys, or derived from ML-DSA keys and committees (never a classical key).
pub type AccountId = polkadot_sdk::sp_runtime::AccountId32;
/// Balances.
pub type Balance = u128;
/// Transaction counter of an account.
pub type Nonce = u32;
/// Block numbers.
pub type BlockNumber = u32;
/// Block hashes.
pub type Hash = polkadot_sdk::sp_core::H256;
/// How an extrinsic names its sender.
pub type Address = MultiAddress<AccountId, ()>;
/// Block header.
pub type Header = generic::Header<BlockNumber, BlakeTwo256>;
/// Block, of extrinsics checked and charged by their signatures' forms and schemes.
pub type Block = generic::Block<Header, RuntimeExtrinsic>;

/// The transaction extensions: the stock ones, which every form's signature covers, so nonce
/// and mortality protect every post-quantum transaction from replay exactly as they do any
/// signed extrinsic. No extension of this project's: stock clients know every one.
pub type TxExtension = (
	frame_system::CheckNonZeroSender<Runtime>,
	frame_system::CheckSpecVersion<Runtime>,
	frame_system::CheckTxVersion<Runtime>,
	frame_system::CheckGenesis<Runtime>,
	frame_system::CheckEra<Runtime>,
	frame_system::CheckNonce<Runtime>,
	frame_system::CheckWeight<Runtime>,
	pallet_transaction_payment::ChargeTransactionPayment<Runtime>,
	frame_system::WeightReclaim<Runtime>,
);

/// The runtime's extrinsic: [`UncheckedExtrinsic`]'s bytes and metadata, checked and charged by
/// the pallet.
pub type RuntimeExtrinsic = pallet_pq_verifier::Extrinsic<Runtime, Address, TxExtension>;
/// Extrinsic as it travels, signed with [`Signature`]: what clients build.
pub type UncheckedExtrinsic = pallet_pq_verifier::UncheckedExtrinsic<Runtime, Address, TxExtension>;

/// Dispatches extrinsics to the pallets.
pub type Executive = frame_executive::Executive<
	Runtime,
	Block,
	frame_system::ChainContext<Runtime>,
	Runtime,
	AllPalletsWithSystem,
>;

/// Types the node needs without knowing the runtime's extrinsic format.
pub mod opaque {
	use super::*;
	use polkadot_sdk::sp_runtime::OpaqueExtrinsic;

	/// A block with opaque extrinsics.
	pub type Block = generic::Block<Header, OpaqueExtrinsic>;
}

/// The runtime's version: `spec_version` counts releases in its tens and names the build in its
/// units — 0 host functions, 1 pure Wasm, 2 the benchmarks' pure Wasm with libcrux —
/// since the builds differ in host-function imports, weights and so fees, and a signature for
/// one must not be valid on another (`CheckSpecVersion`); each has its own `impl_name` too.
/// `impl_version` counts changes within a release that leave consensus alone. Release 5: every
/// transaction a signed (v4) extrinsic whose signature carries the form (`transaction_version`
/// 3: the transaction extensions changed). Release 6: the pure-Wasm build verifies with our own
/// verifier, with its weights (so fees) measured on it. Release 7: the metadata names the
/// signature core's types for what they are (`pq_crypto::signer::AccountSigner` and
/// `AccountSignature`); encodings unchanged. Release 8: the block weights' base measured on
/// this runtime. Release 9: every weight regenerated and merged on the runs' measured times
/// (`merge-weights`), so fees changed; encodings unchanged. Release 10: the verifier pallet's
/// weights regenerated, `authorize_committee` benchmarked on the costlier way to a signer
/// set's key, so fees changed; encodings unchanged (its numbers first named a build with other
/// committee weights, `eed0077`, for 17 minutes; never released); its `impl_version` 1: Keccak
/// in Wasm reads each lane from memory as it uses it — faster, the same results. Release 11
/// (`transaction_version` 4): `rotate_key` takes `only_registered_key`; a committee's owner
/// must be post-quantum; registered keys and aggregate keys are looked up without deriving an
/// account; the committee form asks for the fee before deriving its account; tombstones pay for
/// their whole storage key; the dev presets' sudo key is ML-DSA-87 `//Alice`; its
/// `impl_version` 1: a decoded transaction holds its ML-DSA key and signature in boxes, so it
/// is moved by value without copying 7 kB — fewer instructions for every transaction, the same
/// encodings and metadata types (the signature's fields' type names read `Box<…>`); its
/// `impl_version` 2: Keccak in Wasm keeps θ's parities and column terms in memory too, the
/// NTTs run over slices without bounds checks and reduce lazily, and `w1Encode` packs words —
/// fewer instructions for every ML-DSA verification, the same results; its `impl_version` 3:
/// `UseHint` without divisions, the ring's results written in place, ExpandA's rejection
/// sampling by words — faster ML-DSA verification, the same results. Release 12 (pallet storage
/// version 2, `CommitteesOwned`): a migrated Ed25519 account holding the sudo key or owning a
/// committee cannot lift its only-registered-key rule nor remove its key (`PostQuantumRole`); a
/// signed transaction its dispatch class cannot carry (length, `max_extrinsic`, `Mandatory`) is
/// refused before its signature is verified; call encodings unchanged; its `impl_version` 1:
/// with our verifier in Wasm, a key's first signature in a runtime call is verified without a
/// decoded key (no matrix allocated) and its second decodes it to keep — faster, the same
/// results; its `impl_version` 2: a signed transaction the block's length so far leaves no room
/// for is refused before its signature is verified, as `CheckWeight` refuses it after — the
/// same blocks, and an author no longer verifies every transaction it tries once a block is
/// full; its `impl_version` 3: likewise one the block's weight so far leaves no room for, by
/// `CheckWeight`'s own functions; a transaction's body is decoded where it lies instead of
/// copied behind its length prefix first, and an ML-DSA signature decoded in place — the same
/// results; its `impl_version` 4: a boxed key or signature is decoded straight into its box
/// instead of onto the stack and moved — the same bytes, the same results; its `impl_version` 5:
/// the executive's copy of each extrinsic is written once into one buffer of its length, and
/// ML-DSA verification encodes `w1` a row at a time — the same bytes, the same results.
/// Release 13: `register_key` and `rotate_key` charged every account-derivation candidate their
/// key makes a node try (a key ground for a long derivation was charged one): 64 before the
/// call, refunded to the count after it (`rotate_key` now reports its actual weight). Those two
/// calls' quotes and the fee taken before they run rose; the fee kept is unchanged for a key
/// derived at the first candidate and higher for one ground for more. Encodings unchanged.
macro_rules! runtime_version {
	// `tt`, not `literal`: the attribute reads bare literal tokens, not wrapped ones.
	($impl_name:tt, $spec_version:tt) => {
		/// The runtime's version (see the macro that writes it; `runtime_version` reads literals
		/// only, so it is written out per build).
		#[polkadot_sdk::sp_version::runtime_version]
		pub const VERSION: RuntimeVersion = RuntimeVersion {
			spec_name: alloc::borrow::Cow::Borrowed("pq-runtime"),
			impl_name: alloc::borrow::Cow::Borrowed($impl_name),
			authoring_version: 1,
			spec_version: $spec_version,
			impl_version: 0,
			apis: crate::apis::RUNTIME_API_VERSIONS,
			transaction_version: 4,
			system_version: 1,
		};
	};
}

/// What tells this runtime's builds apart — the verifier backend, its weights, the in-block
/// key cache and the version — one module per build (`builds/`), chosen here and nowhere else:
/// host functions by default, our verifier in Wasm with `pure-wasm-verifier`, libcrux in Wasm
/// with `pure-wasm-libcrux` (build.rs enables each for its own blob).
#[cfg_attr(not(feature = "pure-wasm-verifier"), path = "builds/host_functions.rs")]
#[cfg_attr(
	all(feature = "pure-wasm-verifier", not(feature = "pure-wasm-libcrux")),
	path = "builds/pure_wasm.rs"
)]
#[cfg_attr(feature = "pure-wasm-libcrux", path = "builds/pure_wasm_libcrux.rs")]
mod build;
pub use build::{PqVerifierWeights, VerifierBackend, IMPORT_COSTS, VERSION};

/// Balance units: one token is 10^12 planck.
pub const UNIT: Balance = 1_000_000_000_000;

frame_support::construct_runtime!(
	pub enum Runtime {
		System: frame_system,
		Timestamp: pallet_timestamp,
		Balances: pallet_balances,
		TransactionPayment: pallet_transaction_payment,
		Sudo: pallet_sudo,
		PqVerifier: pallet_pq_verifier,
		Aura: pallet_aura,
		Grandpa: pallet_grandpa,
	}
);

/// A validator's Aura key (sr25519).
pub type AuraId = sp_consensus_aura::sr25519::AuthorityId;
/// A validator's GRANDPA key (ed25519).
pub use pallet_grandpa::AuthorityId as GrandpaId;

impl_opaque_keys! {
	/// A validator's session keys: Aura's and GRANDPA's, in that order.
	pub struct SessionKeys {
		/// Block production.
		pub aura: Aura,
		/// Finality.
		pub grandpa: Grandpa,
	}
}
