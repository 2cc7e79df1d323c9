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
//! use pq_crypto::{signing::Keypair, Scheme};
//! use pq_client::transactions::{self, ChainIdentity, Checkpoint, Form};
//!
//! let alice = Keypair::from_suri(Scheme::MlDsa44, "//Alice").unwrap();
//! let bob = Keypair::from_suri(Scheme::Ed25519, "//Bob").unwrap();
//! // From the node: `chain_getBlockHash(0)` and `state_getRuntimeVersion`.
//! let chain = ChainIdentity {
//! 	genesis_hash: Default::default(),
//! 	spec_version: pq_runtime::VERSION.spec_version,
//! 	transaction_version: pq_runtime::VERSION.transaction_version,
//! 	// From the node: the finalized head (`chain_getFinalizedHead`) and its number.
//! 	checkpoint: Some(Checkpoint { number: 0, hash: Default::default() }),
//! };
//! let call = transactions::transfer_call(bob.account_id(), 10 * pq_runtime::UNIT);
//! let nonce = 0;
//! let tip = 0;
//! let extrinsic = transactions::sign(&alice, call, nonce, tip, Form::KeyInline, &chain);
//! assert!(extrinsic.preamble.to_signed().is_none(), "a general transaction, not a signed one");
//! ```

use codec::Encode;
use polkadot_sdk::{
	frame_system, pallet_transaction_payment,
	sp_runtime::{generic::Era, AccountId32},
};
use pallet_pq_verifier::{AuthorizePq, Authorization, CommitteeMember};
use pq_crypto::{
	aggregate::{
		aggregator::{AggregateError, Committee},
		SignerBitfield,
	},
	signing::Keypair,
	statement::{AuthorizationStatement, Authorizer, PossessionStatement},
	MultiSignature, Purpose, SignatureWithKey,
};

use pq_runtime::{
	Address, Balance, BlockNumber, ExtensionsAfterAuthorization, Hash, Nonce, RuntimeCall, Signature, SignedPayload, TxExtension,
	UncheckedExtrinsic,
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

/// How a transaction proves who sent it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
	/// An ordinary signed extrinsic: the signature and its key are the extrinsic's signature.
	Signed,
	/// A general transaction authorized by `AuthorizePq`, with the public key inline.
	KeyInline,
	/// A general transaction authorized by `AuthorizePq` with the sender's registered key:
	/// no key travels, which saves 1.3–2.6 KB for ML-DSA.
	KeyRegistered,
}

impl Form {
	/// As reports and tables name it: `signed`, `key inline`, `registered`.
	pub fn label(self) -> &'static str {
		match self {
			Form::Signed => "signed",
			Form::KeyInline => "key inline",
			Form::KeyRegistered => "registered",
		}
	}
}

/// The implicit data of [`ExtensionsAfterAuthorization`], in order (`AuthorizePq` has none).
type ImplicitAfterAuthorization = ((), u32, u32, Hash, Hash, (), (), (), ());

fn extensions_after_authorization(nonce: Nonce, tip: Balance, chain: &ChainIdentity) -> ExtensionsAfterAuthorization {
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

fn implicit_after_authorization(chain: &ChainIdentity) -> ImplicitAfterAuthorization {
	((), chain.spec_version, chain.transaction_version, chain.genesis_hash, chain.era_block_hash(), (), (), (), ())
}

/// Builds and signs a transaction of `call` from `sender`.
///
/// For [`Form::KeyRegistered`], `sender`'s key must be registered for its own account on chain
/// (see [`register_key_call`]; [`sign_registered`] signs for a migrated account); the other
/// forms need nothing on chain but funds.
pub fn sign(sender: &Keypair, call: RuntimeCall, nonce: Nonce, tip: Balance, form: Form, chain: &ChainIdentity) -> UncheckedExtrinsic {
	let rest = extensions_after_authorization(nonce, tip, chain);
	match form {
		Form::Signed => {
			let extension: TxExtension = (AuthorizePq::new(Authorization::None), rest);
			let implicit = ((), implicit_after_authorization(chain));
			let payload = SignedPayload::from_raw(call.clone(), extension.clone(), implicit);
			let signed = payload.using_encoded(|bytes| sender.sign_transaction(bytes));
			UncheckedExtrinsic::new_signed(call, Address::Id(sender.account_id()), Signature::new(signed), extension)
		},
		Form::KeyInline => {
			let account = sender.account_id();
			let signature = sign_statement(sender, &call, &rest, chain, Authorizer::KeyInline(&account));
			let signed = SignatureWithKey::new(sender.public(), signature)
				.expect("a keypair's public key and signature are of the same scheme");
			UncheckedExtrinsic::new_transaction(call, (AuthorizePq::new(Authorization::KeyInline { account, signed }), rest))
		},
		Form::KeyRegistered => sign_registered(&sender.account_id(), sender, call, nonce, tip, chain),
	}
}

/// Builds a transaction of `call` from `account`, signed by its registered key `key`
/// ([`Form::KeyRegistered`]): `key`'s own account, or an account that migrated to `key`.
pub fn sign_registered(
	account: &AccountId32,
	key: &Keypair,
	call: RuntimeCall,
	nonce: Nonce,
	tip: Balance,
	chain: &ChainIdentity,
) -> UncheckedExtrinsic {
	let rest = extensions_after_authorization(nonce, tip, chain);
	let signature = sign_statement(key, &call, &rest, chain, Authorizer::KeyRegistered(account));
	let authorization = Authorization::KeyRegistered { account: account.clone(), signature };
	UncheckedExtrinsic::new_transaction(call, (AuthorizePq::new(authorization), rest))
}

/// Builds a transaction of `call` from `committee`'s account, signed by the members in
/// `signers` with one aggregate ML-DSA-87 signature ([`Authorization::Committee`]). The
/// committee must exist on chain (see [`create_committee_call`]).
pub fn sign_by_committee(
	committee: &Committee,
	signers: &SignerBitfield,
	call: RuntimeCall,
	nonce: Nonce,
	tip: Balance,
	chain: &ChainIdentity,
) -> Result<UncheckedExtrinsic, AggregateError> {
	let rest = extensions_after_authorization(nonce, tip, chain);
	let id = committee.id();
	let statement = authorization_statement(&call, &rest, chain, Authorizer::Committee(&id, signers));
	let aggregate = committee.sign(signers, &statement.message(), statement.purpose())?;
	Ok(UncheckedExtrinsic::new_transaction(call, (AuthorizePq::new(Authorization::Committee(aggregate)), rest)))
}

/// Creates `committee` on chain, sent by `owner`: every member's share with its proof of
/// possession, which names `owner` and the chain — only `owner` can submit it.
pub fn create_committee_call(committee: &Committee, owner: &AccountId32, chain: &ChainIdentity) -> RuntimeCall {
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

/// What `AuthorizePq` verifies a signature over: the chain, `authorizer`, and the inherited
/// implication — the extension version, the call, and the explicit then implicit data of every
/// extension after it.
fn authorization_statement<'a>(
	call: &RuntimeCall,
	explicit: &ExtensionsAfterAuthorization,
	chain: &ChainIdentity,
	authorizer: Authorizer<'a>,
) -> AuthorizationStatement<'a, Hash> {
	const EXTENSION_VERSION: u8 = 0;
	let implication = (EXTENSION_VERSION, call, explicit, implicit_after_authorization(chain));
	AuthorizationStatement::new(chain.genesis_hash, authorizer, &implication)
}

/// `sender`'s signature of the authorization statement of `call` from `authorizer`.
fn sign_statement(
	sender: &Keypair,
	call: &RuntimeCall,
	explicit: &ExtensionsAfterAuthorization,
	chain: &ChainIdentity,
	authorizer: Authorizer<'_>,
) -> MultiSignature {
	let statement = authorization_statement(call, explicit, chain, authorizer);
	sender.sign(&statement.message(), statement.purpose())
}

/// A `transfer_keep_alive` of `value` to `dest`.
pub fn transfer_call(dest: AccountId32, value: Balance) -> RuntimeCall {
	polkadot_sdk::pallet_balances::Call::transfer_keep_alive { dest: Address::Id(dest), value }.into()
}

/// Registers `key`'s public key for `account`, the sender of the call.
///
/// When `account` is the key's own derived account, no proof is needed. Otherwise (migrating an
/// existing account, e.g. an Ed25519 one, to the key) `key` signs a proof of possession naming
/// `account` and this chain, and `only_registered_key` makes the migration final at once: no
/// other key signs for `account` after it.
pub fn register_key_call(key: &Keypair, account: &AccountId32, only_registered_key: bool, chain: &ChainIdentity) -> RuntimeCall {
	let proof = (key.account_id() != *account).then(|| possession_proof(key, account, chain));
	pallet_pq_verifier::Call::register_key { key: key.public(), proof, only_registered_key }.into()
}

/// Replaces `account`'s registered key with `key` in one call, with `key`'s proof of possession
/// unless `key` derives `account`; an account that accepts only its registered key keeps doing
/// so, with `key`.
pub fn rotate_key_call(key: &Keypair, account: &AccountId32, chain: &ChainIdentity) -> RuntimeCall {
	let proof = (key.account_id() != *account).then(|| possession_proof(key, account, chain));
	pallet_pq_verifier::Call::rotate_key { key: key.public(), proof }.into()
}

fn possession_proof(key: &Keypair, account: &AccountId32, chain: &ChainIdentity) -> MultiSignature {
	let statement = PossessionStatement { genesis_hash: chain.genesis_hash, account };
	key.sign(&statement.encode(), Purpose::ProofOfPossession)
}
