//! What each signature signs: every message this project signs, defined once.
//!
//! A signature must authorize exactly one thing — one transaction, from one account, on one
//! chain, for one purpose. Each statement here names all of it, and the [`Purpose`] a
//! statement is signed for is its FIPS 204 context (for Ed25519, a prefix), so a statement of
//! one kind never verifies as another. The pallet verifies these bytes; the runtime's
//! transaction builder, the CLI, the benchmarks and every client sign them.
//! `docs/wire-format.md` writes the bytes out for implementers in other languages, and
//! `docs/security.md` the attacks each binding stops.
//!
//! | statement | purpose | binds |
//! |---|---|---|
//! | [`TransactionStatement`] | [`Signatory::purpose`] | the transaction (call, extensions, chain), and the account or committee and signer set |
//! | [`PossessionStatement`] | [`Purpose::ProofOfPossession`] | chain, the account a key is registered for |
//! | [`MembershipStatement`] | [`Purpose::CommitteeShare`] | chain, the committee's creator, the committee, the member's seat |

use crate::{
	aggregate::{CommitteeId, SignerBitfield},
	Purpose,
};
use alloc::vec::Vec;
use codec::Encode;
use polkadot_sdk::{sp_io::hashing::blake2_256, sp_runtime::AccountId32};

/// Payloads longer than this are signed as their `blake2_256` hash, as every Substrate
/// runtime's `SignedPayload` does.
pub const MAX_UNHASHED_PAYLOAD: usize = 256;

/// The bytes a transaction's signature covers, from the runtime's standard signed payload
/// `call ‖ explicit ‖ implicit` (the extensions' data: era, nonce, tip; spec and transaction
/// version, genesis hash, the era's block): the payload itself, or its `blake2_256` hash when
/// it is longer than [`MAX_UNHASHED_PAYLOAD`] bytes. Exactly what a stock wallet signs.
pub fn signing_payload(payload: &[u8]) -> Vec<u8> {
	if payload.len() > MAX_UNHASHED_PAYLOAD {
		blake2_256(payload).to_vec()
	} else {
		payload.to_vec()
	}
}

/// Who signed a transaction, as its signed message names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Signatory<'a> {
	/// The key that travels with the signature, which is (Ed25519) or derives (ML-DSA) the
	/// account: the key names the account, the message need not.
	Key,
	/// The registered key of this account. The account is signed, so one key registered for
	/// several accounts authorizes a transaction from one of them only.
	Registered(&'a AccountId32),
	/// These members of this committee. Both are signed, so an aggregate signature cannot be
	/// presented for another signer set (another aggregate key) or committee.
	Committee(&'a CommitteeId, &'a SignerBitfield),
}

impl Signatory<'_> {
	/// The purpose (FIPS 204 context; for Ed25519, the prefix) the form is signed for.
	pub const fn purpose(&self) -> Purpose {
		match self {
			Self::Key => Purpose::Transaction,
			Self::Registered(_) => Purpose::TransactionKeyRegistered,
			Self::Committee(..) => Purpose::TransactionCommittee,
		}
	}
}

/// What a transaction's signature signs: who signed ([`Signatory`]) then the
/// [`signing_payload`].
///
/// Encoded: key inline, `signing payload`; registered, `account (32 B) ‖ signing payload`;
/// committee, `committee (32 B) ‖ signers (compact length ‖ bytes) ‖ signing payload`. Each
/// form has its own purpose, so a signature made for one form never verifies as another; the
/// chain is bound by the payload's implicit genesis hash (`CheckGenesis`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TransactionStatement<'a> {
	/// Who signed.
	pub signatory: Signatory<'a>,
	/// The [`signing_payload`].
	pub signing_payload: &'a [u8],
}

impl TransactionStatement<'_> {
	/// The purpose to sign and verify the statement for.
	pub const fn purpose(&self) -> Purpose {
		self.signatory.purpose()
	}

	/// The signed bytes.
	pub fn message(&self) -> Vec<u8> {
		let mut message = match self.signatory {
			Signatory::Key => Vec::with_capacity(self.signing_payload.len()),
			Signatory::Registered(account) => account.encode(),
			Signatory::Committee(committee, signers) => (committee, signers).encode(),
		};
		message.extend_from_slice(self.signing_payload);
		message
	}
}

/// What a proof of possession signs when a key is registered for an account it does not
/// derive (a migration): the key consents to control `account`, on this chain only.
///
/// Encoded: `genesis_hash ‖ account (32 B)`.
#[derive(Clone, Debug, PartialEq, Eq, Encode)]
pub struct PossessionStatement<'a, Hash> {
	/// Genesis hash of the chain, so a proof cannot be replayed on another chain.
	pub genesis_hash: Hash,
	/// The account the key is being registered for.
	pub account: &'a AccountId32,
}

/// What a committee member's proof of possession signs: its seat in one committee, created by
/// one account, on one chain. A copied `create_committee` from another sender, or on another
/// chain, carries proofs that do not verify, so nobody but the creator the members chose can
/// create the committee and so own (and dissolve) it.
///
/// Encoded: `genesis_hash ‖ owner (32 B) ‖ committee (32 B) ‖ member (u32, little endian)`.
#[derive(Clone, Debug, PartialEq, Eq, Encode)]
pub struct MembershipStatement<'a, Hash> {
	/// Genesis hash of the chain.
	pub genesis_hash: Hash,
	/// The account that creates the committee, holds its deposit and may dissolve it.
	pub owner: &'a AccountId32,
	/// The committee being formed.
	pub committee: &'a CommitteeId,
	/// The member's index in the member list.
	pub member: u32,
}

#[cfg(test)]
mod tests {
	use super::*;

	#[test]
	fn a_long_payload_is_signed_as_its_hash() {
		assert_eq!(signing_payload(&[5; MAX_UNHASHED_PAYLOAD]), vec![5; MAX_UNHASHED_PAYLOAD]);
		assert_eq!(
			signing_payload(&[5; MAX_UNHASHED_PAYLOAD + 1]),
			blake2_256(&[5; MAX_UNHASHED_PAYLOAD + 1]).to_vec()
		);
	}

	#[test]
	fn a_key_inline_statement_is_the_payload() {
		let statement =
			TransactionStatement { signatory: Signatory::Key, signing_payload: &[1, 2, 3] };
		assert_eq!(statement.message(), [1, 2, 3]);
		assert_eq!(statement.purpose(), Purpose::Transaction);
	}

	#[test]
	fn a_registered_statement_names_the_account() {
		let account = AccountId32::new([0xaa; 32]);
		let statement = TransactionStatement {
			signatory: Signatory::Registered(&account),
			signing_payload: &[1, 2, 3],
		};
		assert_eq!(statement.message(), [&[0xaa; 32][..], &[1, 2, 3]].concat());
		assert_eq!(statement.purpose(), Purpose::TransactionKeyRegistered);
	}

	#[test]
	fn a_committee_statement_names_the_committee_and_its_signers() {
		let committee = CommitteeId([0xcc; 32]);
		let signers = SignerBitfield::new(9, [0, 8]).unwrap();
		let statement = TransactionStatement {
			signatory: Signatory::Committee(&committee, &signers),
			signing_payload: &[1, 2, 3],
		};
		let message = statement.message();
		assert_eq!(&message[..32], &[0xcc; 32]);
		assert_eq!(&message[32..35], &[2 << 2, 0b1, 0b1], "compact length 2, then the bits");
		assert_eq!(&message[35..], &[1, 2, 3]);
		assert_eq!(statement.purpose(), Purpose::TransactionCommittee);
	}

	#[test]
	fn a_membership_statement_encodes_as_documented() {
		let owner = AccountId32::new([0xbb; 32]);
		let committee = CommitteeId([0xcc; 32]);
		let statement = MembershipStatement {
			genesis_hash: [0x11u8; 32],
			owner: &owner,
			committee: &committee,
			member: 3,
		};
		assert_eq!(
			statement.encode(),
			[&[0x11; 32][..], &[0xbb; 32], &[0xcc; 32], &[3, 0, 0, 0]].concat()
		);
	}
}
