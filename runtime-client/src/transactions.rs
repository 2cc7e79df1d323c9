//! Building this runtime's transactions off chain: what the CLI, the tests and the throughput
//! harness sign, in one place so they cannot disagree with the runtime.
//!
//! A transaction commits to its call, its extensions' explicit data (nonce, tip, era) and their
//! implicit data (spec and transaction version, genesis hash, the era's checkpoint block),
//! which the signer learns from the chain as a [`ChainIdentity`]. With a checkpoint, a
//! transaction is mortal: valid for [`MORTAL_PERIOD`] blocks, as wallets sign. Without one it
//! is immortal, and its nonce is all that stops a replay — which fails once the account is
//! reaped, since a reaped account's nonce starts again from 0 (`docs/security.md`).
//!
//! ```
//! use pq_crypto::Scheme;
//! use pq_signer::signing::Keypair;
//! use pq_runtime_client::transactions::{self, ChainIdentity, Checkpoint, Form};
//!
//! let alice = Keypair::from_suri(Scheme::MlDsa44, "//Alice").unwrap();
//! let bob = Keypair::from_suri(Scheme::Ed25519, "//Bob").unwrap();
//! // From the node: `chain_getBlockHash(0)` and `state_getRuntimeVersion`.
//! let chain = ChainIdentity {
//!     genesis_hash: Default::default(),
//!     spec_version: pq_runtime::VERSION.spec_version,
//!     transaction_version: pq_runtime::VERSION.transaction_version,
//!     // From the node: the finalized head (`chain_getFinalizedHead`) and its number.
//!     checkpoint: Some(Checkpoint { number: 0, hash: Default::default() }),
//! };
//! let call = transactions::transfer_call(bob.account_id(), 10 * pq_runtime::UNIT);
//! let nonce = 0;
//! let tip = 0;
//! let extrinsic = transactions::sign(&alice, call, nonce, tip, Form::KeyInline, &chain).unwrap();
//! assert!(extrinsic.preamble.to_signed().is_some(), "every form is a signed (v4) extrinsic");
//! ```

use codec::Encode;
use pallet_pq_verifier::CommitteeMember;
use polkadot_sdk::{
	frame_system, pallet_transaction_payment,
	sp_runtime::{generic::Era, AccountId32},
};
pub use pq_client::sender::{Form, Randomness, Sender, SignError};
use pq_crypto::{
	statement::{signing_payload, PossessionStatement},
	AccountSignature, Purpose,
};
use pq_signer::{aggregator::Committee, signing::Keypair};

use pq_runtime::{
	Address, Balance, BlockNumber, Hash, Nonce, RuntimeCall, TxExtension, UncheckedExtrinsic,
};

/// How many blocks a mortal transaction stays valid after its checkpoint, as most wallets sign.
pub const MORTAL_PERIOD: u64 = 64;

/// What the implicit data of a transaction names: the chain and runtime it is valid for, and
/// from which block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChainIdentity {
	/// Hash of block 0.
	pub genesis_hash: Hash,
	/// `spec_version` of the runtime the transaction is signed for.
	pub spec_version: u32,
	/// `transaction_version` of that runtime.
	pub transaction_version: u32,
	/// The block a mortal transaction's lifetime starts at (a recent finalized block); `None`
	/// signs immortal transactions.
	pub checkpoint: Option<Checkpoint>,
}

/// A block a mortal transaction is anchored to: it is valid from there for [`MORTAL_PERIOD`]
/// blocks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Checkpoint {
	/// The block's number.
	pub number: BlockNumber,
	/// The block's hash.
	pub hash: Hash,
}

impl ChainIdentity {
	/// The transaction's era: mortal from the checkpoint, or immortal.
	fn era(&self) -> Era {
		match self.checkpoint {
			Some(checkpoint) => Era::mortal(MORTAL_PERIOD, checkpoint.number.into()),
			None => Era::Immortal,
		}
	}

	/// The era's implicit data: the checkpoint's hash (for an immortal era, the genesis hash).
	fn era_block_hash(&self) -> Hash {
		self.checkpoint.map_or(self.genesis_hash, |checkpoint| checkpoint.hash)
	}
}

/// The transaction extensions' data: the explicit (era, nonce, tip) and, by their `implicit`,
/// the chain's (versions, genesis hash, the era's block).
fn extensions(nonce: Nonce, tip: Balance, chain: &ChainIdentity) -> TxExtension {
	(
		frame_system::CheckNonZeroSender::new(),
		frame_system::CheckSpecVersion::new(),
		frame_system::CheckTxVersion::new(),
		frame_system::CheckGenesis::new(),
		frame_system::CheckEra::from(chain.era()),
		frame_system::CheckNonce::from(nonce),
		frame_system::CheckWeight::new(),
		pallet_transaction_payment::ChargeTransactionPayment::from(tip),
		frame_system::WeightReclaim::new(),
	)
}

/// The implicit data of [`TxExtension`], in order.
type Implicit = ((), u32, u32, Hash, Hash, (), (), (), ());

fn implicit(chain: &ChainIdentity) -> Implicit {
	(
		(),
		chain.spec_version,
		chain.transaction_version,
		chain.genesis_hash,
		chain.era_block_hash(),
		(),
		(),
		(),
		(),
	)
}

/// The standard signed payload of `call` with `extensions` on `chain`: the call, the
/// extensions' explicit then implicit data.
pub fn transaction_payload(
	call: &RuntimeCall,
	extensions: &TxExtension,
	chain: &ChainIdentity,
) -> Vec<u8> {
	(call, extensions, implicit(chain)).encode()
}

/// What every form of a transaction signs last: [`transaction_payload`], hashed when longer
/// than 256 bytes.
pub fn transaction_signing_payload(
	call: &RuntimeCall,
	extensions: &TxExtension,
	chain: &ChainIdentity,
) -> Vec<u8> {
	signing_payload(&transaction_payload(call, extensions, chain))
}

/// Builds a transaction of `call` from `sender` in `form`, signed for `chain`.
///
/// [`Form::KeyRegistered`] needs the key registered for the account on chain (see
/// [`register_key_call`]), [`Form::Committee`] the committee (see [`create_committee_call`]);
/// the other forms need nothing on chain but funds. Fails when `sender` cannot sign in `form`
/// or a committee's signer set is not one of its members'.
pub fn sign<'a>(
	sender: impl Into<Sender<'a>>,
	call: RuntimeCall,
	nonce: Nonce,
	tip: Balance,
	form: Form,
	chain: &ChainIdentity,
) -> Result<UncheckedExtrinsic, SignError> {
	sign_with(sender, call, nonce, tip, form, chain, Randomness::Fresh)
}

/// [`sign`] with the signatures' randomness chosen by `randomness`.
pub fn sign_with<'a>(
	sender: impl Into<Sender<'a>>,
	call: RuntimeCall,
	nonce: Nonce,
	tip: Balance,
	form: Form,
	chain: &ChainIdentity,
	randomness: Randomness,
) -> Result<UncheckedExtrinsic, SignError> {
	let sender = sender.into();
	let extensions = extensions(nonce, tip, chain);
	let signature =
		sender.sign(form, &transaction_signing_payload(&call, &extensions, chain), randomness)?;
	let account = sender.account();
	Ok(UncheckedExtrinsic::new_signed(call, Address::Id(account), signature, extensions))
}

/// Creates `committee` on chain, sent by `owner`: every member's share with its proof of
/// possession, which names `owner` and the chain — only `owner` can submit it.
pub fn create_committee_call(
	committee: &Committee,
	owner: &AccountId32,
	chain: &ChainIdentity,
) -> RuntimeCall {
	let members: Vec<CommitteeMember> = (0..committee.size())
		.map(|index| CommitteeMember {
			share: committee.share(index),
			proof: committee.membership_proof(index, chain.genesis_hash, owner),
		})
		.collect();
	pallet_pq_verifier::Call::create_committee {
		rho: committee.rho(),
		threshold: committee.threshold(),
		members: members.try_into().expect("a committee has at most MAX_COMMITTEE_SIZE members"),
	}
	.into()
}

/// A `transfer_keep_alive` of `value` to `dest`.
pub fn transfer_call(dest: AccountId32, value: Balance) -> RuntimeCall {
	polkadot_sdk::pallet_balances::Call::transfer_keep_alive { dest: Address::Id(dest), value }
		.into()
}

/// Registers `key`'s public key for `account`, the sender of the call.
///
/// When `account` is the key's own derived account, no proof is needed. Otherwise (migrating an
/// existing account, e.g. an Ed25519 one, to the key) `key` signs a proof of possession naming
/// `account` and this chain, and `only_registered_key` makes the migration final at once: no
/// other key signs for `account` after it.
pub fn register_key_call(
	key: &Keypair,
	account: &AccountId32,
	only_registered_key: bool,
	chain: &ChainIdentity,
) -> RuntimeCall {
	let proof = (key.account_id() != *account).then(|| possession_proof(key, account, chain));
	pallet_pq_verifier::Call::register_key {
		key: Box::new(key.public()),
		proof: proof.map(Box::new),
		only_registered_key,
	}
	.into()
}

/// Replaces `account`'s registered key with `key` in one call, with `key`'s proof of possession
/// unless `key` derives `account`; an account that accepts only its registered key keeps doing
/// so, with `key`, and with `only_registered_key` any account does from then on.
pub fn rotate_key_call(
	key: &Keypair,
	account: &AccountId32,
	only_registered_key: bool,
	chain: &ChainIdentity,
) -> RuntimeCall {
	let proof = (key.account_id() != *account).then(|| possession_proof(key, account, chain));
	pallet_pq_verifier::Call::rotate_key {
		key: Box::new(key.public()),
		proof: proof.map(Box::new),
		only_registered_key,
	}
	.into()
}

fn possession_proof(
	key: &Keypair,
	account: &AccountId32,
	chain: &ChainIdentity,
) -> AccountSignature {
	let statement = PossessionStatement { genesis_hash: chain.genesis_hash, account };
	key.sign(&statement.encode(), Purpose::ProofOfPossession)
}

#[cfg(test)]
mod tests {
	use super::*;
	use polkadot_sdk::sp_runtime::generic::Preamble;
	use pq_crypto::{aggregate::SignerBitfield, Scheme};

	fn chain() -> ChainIdentity {
		ChainIdentity {
			genesis_hash: Hash::repeat_byte(1),
			spec_version: 1,
			transaction_version: 1,
			checkpoint: None,
		}
	}

	fn transfer() -> RuntimeCall {
		transfer_call(AccountId32::new([2; 32]), 1)
	}

	/// One of each kind of sender: an ML-DSA key, a committee with two of its three members
	/// signing, and an account migrated to the key.
	struct Parties {
		key: Keypair,
		committee: Committee,
		signers: SignerBitfield,
		migrated: AccountId32,
	}

	impl Parties {
		fn new() -> Self {
			let committee = Committee::from_seed(&[4; 32], 3, 2);
			let signers = committee.signers([0, 1]).unwrap();
			let key = Keypair::from_seed(Scheme::MlDsa65, &[3; 32]).unwrap();
			Self { key, committee, signers, migrated: AccountId32::new([5; 32]) }
		}
	}

	#[test]
	fn each_sender_signs_only_in_its_forms() {
		let Parties { key, committee, signers, migrated } = Parties::new();
		let ed25519 = Keypair::from_seed(Scheme::Ed25519, &[6; 32]).unwrap();
		let senders = [
			(Sender::Key(&key), vec![Form::KeyInline, Form::KeyRegistered]),
			(Sender::Key(&ed25519), vec![Form::KeyInline]),
			(Sender::Migrated { account: &migrated, key: &key }, vec![Form::KeyRegistered]),
			(Sender::Committee { committee: &committee, signers: &signers }, vec![Form::Committee]),
		];
		for (sender, forms) in senders {
			for form in Form::ALL {
				let signed = sign(sender, transfer(), 0, 0, form, &chain());
				if forms.contains(&form) {
					assert!(signed.is_ok(), "{form:?}");
				} else {
					assert_eq!(signed.err(), Some(SignError::FormNotForSender(form)));
				}
			}
		}
	}

	#[test]
	fn every_form_is_signed_for_the_senders_account() {
		let Parties { key, committee, signers, migrated } = Parties::new();
		let senders = [
			(Sender::Key(&key), Form::KeyInline),
			(Sender::Key(&key), Form::KeyRegistered),
			(Sender::Migrated { account: &migrated, key: &key }, Form::KeyRegistered),
			(Sender::Committee { committee: &committee, signers: &signers }, Form::Committee),
		];
		for (sender, form) in senders {
			let extrinsic = sign(sender, transfer(), 0, 0, form, &chain()).unwrap();
			let Preamble::Signed(address, signature, _) = extrinsic.preamble else {
				panic!("{form:?} is signed")
			};
			assert_eq!(address, Address::Id(sender.account()), "{form:?}");
			let expected = match form {
				Form::KeyInline => pq_crypto::transaction::Form::KeyInline(Scheme::MlDsa65),
				Form::KeyRegistered => pq_crypto::transaction::Form::KeyRegistered(Scheme::MlDsa65),
				Form::Committee => pq_crypto::transaction::Form::Committee(&signers),
			};
			assert_eq!(signature.form(), expected);
		}
	}
}
