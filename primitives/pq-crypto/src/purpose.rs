//! Domain separation: what a signature is *for*.
//!
//! A signature made for one purpose must never verify for another, otherwise an attacker could,
//! for example, present a user's proof of possession as a transaction. ML-DSA has this built in:
//! FIPS 204 pure mode (Algorithm 2 `ML-DSA.Sign` / Algorithm 3 `ML-DSA.Verify`) hashes a
//! context string of up to 255 bytes into μ, so we give every purpose its own context string.
//!
//! Ed25519 (RFC 8032 "pure" Ed25519) has no context input. For [`Purpose::Transaction`] it
//! signs the payload as-is, exactly like `sp_runtime::MultiSignature::Ed25519`, so existing
//! Substrate wallets keep working; for every other purpose the context string is prepended to
//! the message, which separates the purposes because no transaction payload starts with
//! `pq-verifier/`.

use codec::{Decode, DecodeWithMemTracking, Encode, MaxEncodedLen};
use scale_info::TypeInfo;

/// The purpose a signature is made for; each has its own domain-separation context.
#[derive(
	Clone,
	Copy,
	Debug,
	PartialEq,
	Eq,
	Encode,
	Decode,
	DecodeWithMemTracking,
	MaxEncodedLen,
	TypeInfo,
)]
pub enum Purpose {
	/// A transaction whose key travels with its signature: the runtime's standard signed
	/// payload, as it is (see [`crate::statement`]).
	Transaction,
	/// A transaction signed by the sender's registered key: the account, then the payload.
	TransactionKeyRegistered,
	/// Proof that the holder of a key controls it, when registering it for an account.
	ProofOfPossession,
	/// A committee member's proof of possession of its aggregate-signature share.
	CommitteeShare,
	/// A committee's aggregate signature of a transaction, verified under the key derived from
	/// its signers' shares: the committee, the signer set, then the payload.
	TransactionCommittee,
}

impl Purpose {
	/// Every purpose, for tests and tools that must cover them all.
	pub const ALL: [Purpose; 5] = [
		Purpose::Transaction,
		Purpose::TransactionKeyRegistered,
		Purpose::ProofOfPossession,
		Purpose::CommitteeShare,
		Purpose::TransactionCommittee,
	];

	/// The FIPS 204 context string (at most 255 bytes) for this purpose.
	pub const fn context(self) -> &'static [u8] {
		match self {
			Purpose::Transaction => b"pq-verifier/transaction/v1",
			Purpose::TransactionKeyRegistered => b"pq-verifier/transaction-key-registered/v1",
			Purpose::ProofOfPossession => b"pq-verifier/proof-of-possession/v1",
			Purpose::CommitteeShare => b"pq-verifier/committee-share/v2",
			Purpose::TransactionCommittee => b"pq-verifier/transaction-committee/v1",
		}
	}

	/// The prefix Ed25519 puts before the message (empty for transactions; see module docs).
	pub const fn ed25519_prefix(self) -> &'static [u8] {
		match self {
			Purpose::Transaction => b"",
			other => other.context(),
		}
	}
}

/// Where a signature is checked: one of the project's purposes, or, for conformance tests and
/// tools, any FIPS 204 context or the internal interface. A SCALE type, so clients can ask a
/// runtime to check a signature the way it would.
#[derive(Clone, Debug, PartialEq, Eq, Encode, Decode, DecodeWithMemTracking, TypeInfo)]
pub enum Domain {
	/// A [`Purpose`]: its FIPS 204 context; for Ed25519, its prefix.
	Purpose(Purpose),
	/// FIPS 204 pure mode with this context (more than 255 bytes never verify); for Ed25519,
	/// these bytes before the message.
	Context(alloc::vec::Vec<u8>),
	/// FIPS 204 Algorithm 8 `Verify_internal` over an already formatted `M′` (what the NIST ACVP
	/// vectors test); for Ed25519, the message as it is.
	Internal,
}
