//! What each signature signs: every message this project signs, defined once.
//!
//! A signature must authorize exactly one thing — one transaction, from one account, on one
//! chain, for one purpose. Each statement here names all of it, and the [`Purpose`] a
//! statement is signed for is its FIPS 204 context (for Ed25519, a prefix), so a statement of
//! one kind never verifies as another. The pallet verifies these bytes; the runtime's
//! transaction builder, the CLI, the benchmarks and every client sign them. `docs/security.md`
//! writes the bytes out for implementers in other languages.
//!
//! | statement | purpose | binds |
//! |---|---|---|
//! | [`AuthorizationStatement`] | the form's `Extension*` purpose | chain, form, account or committee and signer set, the transaction |
//! | [`PossessionStatement`] | [`Purpose::ProofOfPossession`] | chain, the account a key is registered for |
//! | [`MembershipStatement`] | [`Purpose::CommitteeShare`] | chain, the committee's creator, the committee, the member's seat |
//!
//! The ordinary signed extrinsic ([`Purpose::Transaction`]) signs the runtime's standard
//! signed payload instead, which binds its account through the key (an Ed25519 key is its
//! account; an ML-DSA key must hash to it) and its chain through the runtime's `CheckGenesis`.

use crate::{
	aggregate::{CommitteeId, SignerBitfield},
	Purpose,
};
use alloc::vec::Vec;
use codec::Encode;
use polkadot_sdk::{sp_io::hashing::blake2_256, sp_runtime::AccountId32};

/// Who an `AuthorizePq` signature authorizes a transaction for, and in which form. The form
/// is encoded too (one byte), besides choosing the purpose.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Encode)]
pub enum Authorizer<'a> {
	/// The account whose key travels inline with the signature.
	KeyInline(&'a AccountId32),
	/// The account whose registered key signed.
	KeyRegistered(&'a AccountId32),
	/// A committee's account, signed by exactly this set of its members.
	Committee(&'a CommitteeId, &'a SignerBitfield),
}

impl Authorizer<'_> {
	/// The purpose (FIPS 204 context) the form is signed for.
	pub const fn purpose(&self) -> Purpose {
		match self {
			Self::KeyInline(_) => Purpose::ExtensionKeyInline,
			Self::KeyRegistered(_) => Purpose::ExtensionKeyRegistered,
			Self::Committee(..) => Purpose::ExtensionCommittee,
		}
	}
}

/// What an `AuthorizePq` signature signs: the chain, who is authorized in which form, and the
/// transaction — `blake2_256` of the *inherited implication* (the extension version, the call,
/// and the explicit then implicit data of every extension after `AuthorizePq`).
///
/// Encoded: `genesis_hash ‖ form byte ‖ account (32 B) | committee (32 B) ‖ signers
/// (compact length ‖ bytes) ‖ implication hash (32 B)`.
#[derive(Clone, Debug, PartialEq, Eq, Encode)]
pub struct AuthorizationStatement<'a, Hash> {
	/// Genesis hash of the chain: the signature is void on every other chain, whatever the
	/// runtime's other extensions check.
	pub genesis_hash: Hash,
	/// Who the transaction is from, and in which form it is authorized.
	pub authorizer: Authorizer<'a>,
	/// `blake2_256` of the inherited implication.
	pub implication: [u8; 32],
}

impl<'a, Hash: Encode> AuthorizationStatement<'a, Hash> {
	/// The statement authorizing the transaction whose inherited implication is `implication`.
	pub fn new(genesis_hash: Hash, authorizer: Authorizer<'a>, implication: &impl Encode) -> Self {
		Self { genesis_hash, authorizer, implication: implication.using_encoded(blake2_256) }
	}

	/// The purpose to sign and verify the statement for.
	pub const fn purpose(&self) -> Purpose {
		self.authorizer.purpose()
	}

	/// The signed bytes.
	pub fn message(&self) -> Vec<u8> {
		self.encode()
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
	fn an_authorization_statement_encodes_as_documented() {
		let account = AccountId32::new([0xaa; 32]);
		let statement = AuthorizationStatement::new([0x11u8; 32], Authorizer::KeyRegistered(&account), &(0u8,));
		let mut expected = vec![0x11; 32];
		expected.push(1);
		expected.extend_from_slice(&[0xaa; 32]);
		expected.extend_from_slice(&blake2_256(&[0]));
		assert_eq!(statement.message(), expected);
		assert_eq!(statement.purpose(), Purpose::ExtensionKeyRegistered);
	}

	#[test]
	fn a_committee_statement_names_the_committee_and_its_signers() {
		let committee = CommitteeId([0xcc; 32]);
		let signers = SignerBitfield::new(9, [0, 8]).unwrap();
		let statement = AuthorizationStatement::new([0u8; 32], Authorizer::Committee(&committee, &signers), &());
		let message = statement.message();
		assert_eq!(message[32], 2, "the form byte");
		assert_eq!(&message[33..65], &[0xcc; 32]);
		assert_eq!(&message[65..68], &[2 << 2, 0b1, 0b1], "compact length 2, then the bits");
		assert_eq!(message.len(), 32 + 1 + 32 + 3 + 32);
		assert_eq!(statement.purpose(), Purpose::ExtensionCommittee);
	}

	#[test]
	fn a_membership_statement_encodes_as_documented() {
		let owner = AccountId32::new([0xbb; 32]);
		let committee = CommitteeId([0xcc; 32]);
		let statement = MembershipStatement { genesis_hash: [0x11u8; 32], owner: &owner, committee: &committee, member: 3 };
		assert_eq!(statement.encode(), [&[0x11; 32][..], &[0xbb; 32], &[0xcc; 32], &[3, 0, 0, 0]].concat());
	}
}
