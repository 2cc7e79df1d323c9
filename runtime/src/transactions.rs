//! Building this runtime's transactions off chain: what the CLI, the tests and the throughput
//! harness sign, in one place so they cannot disagree with the runtime.
//!
//! A transaction commits to its call, its extensions' explicit data (nonce, tip, era) and their
//! implicit data (spec and transaction version, genesis hash), which the signer learns from the
//! chain as a [`ChainIdentity`]. Every transaction built here is immortal: the nonce alone
//! prevents replay on this dev chain.
//!
//! ```
//! use pq_runtime::pq_crypto::{signing::Keypair, Scheme};
//! use pq_runtime::transactions::{self, ChainIdentity, Form};
//!
//! let alice = Keypair::from_suri(Scheme::MlDsa44, "//Alice").unwrap();
//! let bob = Keypair::from_suri(Scheme::Ed25519, "//Bob").unwrap();
//! // From the node: `chain_getBlockHash(0)` and `state_getRuntimeVersion`.
//! let chain = ChainIdentity {
//! 	genesis_hash: Default::default(),
//! 	spec_version: pq_runtime::VERSION.spec_version,
//! 	transaction_version: pq_runtime::VERSION.transaction_version,
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
	sp_io::hashing::blake2_256,
	sp_runtime::{generic::Era, AccountId32},
};
use pallet_pq_verifier::{AuthorizePq, Authorization, CommitteeMember, PossessionStatement};
use pq_crypto::{
	aggregate::{
		aggregator::{AggregateError, Committee},
		SignerBitfield,
	},
	signing::Keypair,
	MultiSignature, Purpose, SignatureWithKey,
};

use crate::{
	Address, Balance, ExtensionsAfterAuthorization, Hash, Nonce, RuntimeCall, Signature, SignedPayload, TxExtension,
	UncheckedExtrinsic,
};

/// What the implicit data of a transaction names: the chain and runtime it is valid for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChainIdentity {
	/// Hash of block 0.
	pub genesis_hash: Hash,
	/// `spec_version` of the runtime the transaction is signed for.
	pub spec_version: u32,
	/// `transaction_version` of that runtime.
	pub transaction_version: u32,
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

/// The implicit data of [`ExtensionsAfterAuthorization`], in order (`AuthorizePq` has none).
type ImplicitAfterAuthorization = ((), u32, u32, Hash, Hash, (), (), (), ());

fn extensions_after_authorization(nonce: Nonce, tip: Balance) -> ExtensionsAfterAuthorization {
	(
		frame_system::CheckNonZeroSender::new(),
		frame_system::CheckSpecVersion::new(),
		frame_system::CheckTxVersion::new(),
		frame_system::CheckGenesis::new(),
		frame_system::CheckEra::from(Era::Immortal),
		frame_system::CheckNonce::from(nonce),
		frame_system::CheckWeight::new(),
		pallet_transaction_payment::ChargeTransactionPayment::from(tip),
		frame_system::WeightReclaim::new(),
	)
}

fn implicit_after_authorization(chain: &ChainIdentity) -> ImplicitAfterAuthorization {
	// An immortal era's implicit data is the genesis hash.
	((), chain.spec_version, chain.transaction_version, chain.genesis_hash, chain.genesis_hash, (), (), (), ())
}

/// Builds and signs a transaction of `call` from `sender`.
///
/// For [`Form::KeyRegistered`], `sender`'s key must be registered for its account on chain
/// (see [`register_key_call`]); the other forms need nothing on chain but funds.
pub fn sign(sender: &Keypair, call: RuntimeCall, nonce: Nonce, tip: Balance, form: Form, chain: &ChainIdentity) -> UncheckedExtrinsic {
	let rest = extensions_after_authorization(nonce, tip);
	match form {
		Form::Signed => {
			let extension: TxExtension = (AuthorizePq::new(Authorization::None), rest);
			let implicit = ((), implicit_after_authorization(chain));
			let payload = SignedPayload::from_raw(call.clone(), extension.clone(), implicit);
			let signed = payload.using_encoded(|bytes| sender.sign_transaction(bytes));
			UncheckedExtrinsic::new_signed(call, Address::Id(sender.account_id()), Signature::new(signed), extension)
		},
		Form::KeyInline | Form::KeyRegistered => {
			let message = authorization_message(&call, &rest, chain);
			let account = sender.account_id();
			let authorization = if form == Form::KeyInline {
				let signature = sender.sign(&message, Purpose::ExtensionKeyInline);
				let signed = SignatureWithKey::new(sender.public(), signature)
					.expect("a keypair's public key and signature are of the same scheme");
				Authorization::KeyInline { account, signed }
			} else {
				Authorization::KeyRegistered { account, signature: sender.sign(&message, Purpose::ExtensionKeyRegistered) }
			};
			UncheckedExtrinsic::new_transaction(call, (AuthorizePq::new(authorization), rest))
		},
	}
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
	let rest = extensions_after_authorization(nonce, tip);
	let message = authorization_message(&call, &rest, chain);
	let aggregate = committee.sign(signers, &message, Purpose::ExtensionCommittee)?;
	Ok(UncheckedExtrinsic::new_transaction(call, (AuthorizePq::new(Authorization::Committee(aggregate)), rest)))
}

/// Creates `committee` on chain: every member's share with its proof of possession.
pub fn create_committee_call(committee: &Committee) -> RuntimeCall {
	let members: Vec<CommitteeMember> = (0..committee.size())
		.map(|index| CommitteeMember { share: committee.share(index), proof: committee.membership_proof(index) })
		.collect();
	pallet_pq_verifier::Call::create_committee {
		rho: committee.rho(),
		threshold: committee.threshold(),
		members: members.try_into().expect("a committee has at most MAX_COMMITTEE_SIZE members"),
	}
	.into()
}

/// What `AuthorizePq` verifies a signature over: blake2-256 of the extension version, the call,
/// and the explicit then implicit data of every extension after it.
fn authorization_message(call: &RuntimeCall, explicit: &ExtensionsAfterAuthorization, chain: &ChainIdentity) -> [u8; 32] {
	const EXTENSION_VERSION: u8 = 0;
	let implicit = implicit_after_authorization(chain);
	(EXTENSION_VERSION, call, explicit, implicit).using_encoded(blake2_256)
}

/// A `transfer_keep_alive` of `value` to `dest`.
pub fn transfer_call(dest: AccountId32, value: Balance) -> RuntimeCall {
	polkadot_sdk::pallet_balances::Call::transfer_keep_alive { dest: Address::Id(dest), value }.into()
}

/// Registers `key`'s public key for `account`, the sender of the call.
///
/// When `account` is the key's own derived account, no proof is needed. Otherwise (migrating an
/// existing account, e.g. an Ed25519 one, to the key) `key` signs a proof of possession naming
/// `account` and this chain.
pub fn register_key_call(key: &Keypair, account: &AccountId32, chain: &ChainIdentity) -> RuntimeCall {
	let proof = (key.account_id() != *account).then(|| possession_proof(key, account, chain));
	pallet_pq_verifier::Call::register_key { key: key.public(), proof }.into()
}

fn possession_proof(key: &Keypair, account: &AccountId32, chain: &ChainIdentity) -> MultiSignature {
	let statement = PossessionStatement { genesis_hash: chain.genesis_hash, account };
	key.sign(&statement.encode(), Purpose::ProofOfPossession)
}
