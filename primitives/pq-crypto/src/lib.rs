//! # pq-crypto
//!
//! The signature core of pq-verifier: one [`AccountSigner`] / [`AccountSignature`] pair covering
//! Ed25519, ML-DSA-44, ML-DSA-65, ML-DSA-87 and aggregate ML-DSA-87, verified by pluggable
//! [`backend`]s, with a bounded [`cache`] of decoded verifying keys.
//!
//! ## Overview
//!
//! - [`keys`]: fixed-size keys and signatures; SCALE decoding reads exactly the scheme's size.
//! - [`AccountSigner`] / [`AccountSignature`]: every scheme behind one type; account ids.
//! - [`Purpose`]: domain separation — a signature made for one purpose never verifies for
//!   another (FIPS 204 context strings).
//! - [`backend`]: [`backend::RustCrypto`] (`ml-dsa`), [`backend::Libcrux`] (`libcrux-ml-dsa`),
//!   [`backend::Fips204`] (our own, [`fips204`]), [`backend::StrictEd25519`] (`ed25519-dalek`, the
//!   Ed25519 rule) and [`host::Host`] (the node's [`host`] functions), chosen as a type
//!   parameter.
//! - [`fips204`] (its own crate): our ML-DSA verifier, whose decoded key keeps `Â`,
//!   `NTT(t1·2^d)` and `tr`, so a cached key verifies without re-deriving them; the committee
//!   verifier uses it too.
//! - [`verify`]: the one dispatch from a key and signature of any scheme to a verdict, and
//!   the caches' index of keys ([`verify::KeyDigest`]); [`message`] formats what each scheme
//!   signs; [`transaction::bind`] binds a key to an account.
//! - [`cache::KeyCache`]: decoded keys kept within count and byte limits.
//! - [`host`]: host functions that verify natively in the node, with its process-wide cache;
//!   [`Domain`] names what a signature is checked over (a purpose, any context, or FIPS 204's
//!   internal interface).
//! - [`TransactionSignature`]: a runtime's extrinsic `Signature` type, carrying the form (key
//!   inline, registered key, committee) and the scheme, so every transaction is an ordinary
//!   signed extrinsic stock clients decode.
//! - [`aggregate`]: aggregate ML-DSA-87 — the wire form and its one-verification check,
//!   committee shares with proofs of possession, `pk*` derivation, and a verifier that expands
//!   a committee's `Â` once (the aggregator that signs is `pq-signer`'s).
//! - [`statement`]: what every signature signs — the chain, the account or committee, the
//!   transaction — defined once for the pallet, the transaction builder and every client.
//!
//! Signing — keys from seeds and dev URIs, every scheme's signatures, a committee's aggregate
//! — is the `pq-signer` crate's, on top of this one: a chain only verifies.
//!
//! ## Terminology
//!
//! - **Decode**: turning an encoded public key into what verification needs. For ML-DSA this
//!   is `pkDecode` plus ExpandA, `NTT(t1·2^d)` and `tr`, and can cost more than verifying.
//! - **Pure mode**: FIPS 204 `ML-DSA.Sign`/`Verify` (Algorithms 2 and 3) with a context
//!   string, as opposed to `*_internal` (Algorithms 7 and 8) or HashML-DSA.
//!
//! ## Usage
//!
//! ```
//! use pq_crypto::{backend::Libcrux, Purpose, Scheme};
//! use pq_signer::signing::Keypair;
//!
//! let alice = Keypair::from_suri(Scheme::MlDsa44, "//Alice").unwrap();
//! let signature = alice.sign(b"transfer 10 to Bob", Purpose::Transaction);
//! assert!(signature
//!     .verify::<Libcrux>(&alice.public(), b"transfer 10 to Bob", Purpose::Transaction)
//!     .is_ok());
//! // The same signature is not valid for another purpose.
//! assert!(signature
//!     .verify::<Libcrux>(&alice.public(), b"transfer 10 to Bob", Purpose::ProofOfPossession)
//!     .is_err());
//! ```
//!
//! ## Assumptions
//!
//! - Verification touches only public data; backends need not be constant-time for it.
//! - Backends agree on every input (tested against NIST ACVP and Wycheproof vectors and on
//!   random inputs), so the choice of backend never splits consensus.

#![cfg_attr(not(feature = "std"), no_std)]

// The host side of the host functions (see `host`) is native code and uses std.
#[cfg(all(not(substrate_runtime), not(feature = "std")))]
extern crate std;

extern crate alloc;

pub mod account;
pub mod aggregate;
pub mod backend;
mod bytes;
pub mod cache;
pub mod committee;
pub mod host;
pub mod keys;
pub mod message;
pub mod params;
mod purpose;
mod signer;
pub mod statement;
pub mod transaction;
pub mod verify;

pub use aggregate::AggregateSignature;
pub use bytes::MAX_DESCRIBED_ARRAY;
pub use purpose::{Domain, Purpose};
pub use signer::{AccountSignature, AccountSigner};
pub use transaction::TransactionSignature;

use codec::{Decode, DecodeWithMemTracking, Encode, MaxEncodedLen};
use scale_info::TypeInfo;

/// The signature schemes, in the order of the [`AccountSigner`] and [`AccountSignature`] variants.
#[derive(
	Clone,
	Copy,
	Debug,
	PartialEq,
	Eq,
	PartialOrd,
	Ord,
	Hash,
	Encode,
	Decode,
	DecodeWithMemTracking,
	MaxEncodedLen,
	TypeInfo,
)]
pub enum Scheme {
	/// Ed25519 (RFC 8032), under the strict rule of [`backend::StrictEd25519`].
	Ed25519,
	/// ML-DSA-44 (FIPS 204, security category 2).
	MlDsa44,
	/// ML-DSA-65 (FIPS 204, security category 3).
	MlDsa65,
	/// ML-DSA-87 (FIPS 204, security category 5).
	MlDsa87,
	/// One ML-DSA-87 signature by a committee, under a key aggregated from its members' shares.
	AggregateMlDsa87,
}

impl Scheme {
	/// Every scheme.
	pub const ALL: [Scheme; 5] = [
		Scheme::Ed25519,
		Scheme::MlDsa44,
		Scheme::MlDsa65,
		Scheme::MlDsa87,
		Scheme::AggregateMlDsa87,
	];

	/// The schemes of a single key (signing keys, the signed and key-inline forms): every one
	/// but the aggregate, whose key a committee derives from its members' shares.
	pub const SINGLE_KEY: [Scheme; 4] =
		[Scheme::Ed25519, Scheme::MlDsa44, Scheme::MlDsa65, Scheme::MlDsa87];

	/// The ML-DSA levels: the keys an account can register, the schemes an Ed25519 account can
	/// migrate to.
	pub const ML_DSA: [Scheme; 3] = [Scheme::MlDsa44, Scheme::MlDsa65, Scheme::MlDsa87];

	/// Whether a key of this scheme can be registered for an account: one of [`Self::ML_DSA`].
	pub fn is_registerable(self) -> bool {
		Self::ML_DSA.contains(&self)
	}

	/// The scheme's name as written in docs and command lines (`ml-dsa-44`, …).
	pub const fn name(self) -> &'static str {
		match self {
			Scheme::Ed25519 => "ed25519",
			Scheme::MlDsa44 => "ml-dsa-44",
			Scheme::MlDsa65 => "ml-dsa-65",
			Scheme::MlDsa87 => "ml-dsa-87",
			Scheme::AggregateMlDsa87 => "aggregate-ml-dsa-87",
		}
	}
}

/// Why a signature was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Encode, Decode, TypeInfo)]
pub enum VerifyError {
	/// The signature is of a different scheme than the key.
	SchemeMismatch,
	/// The key does not control the claimed account.
	AccountMismatch,
	/// The key cannot be used (an Ed25519 key that is not a curve point or of small order).
	InvalidKey,
	/// The signature does not verify (including malformed encodings inside a signature).
	BadSignature,
	/// An aggregate signature needs the aggregate key of its signer set to be verified.
	AggregateKeyRequired,
}
