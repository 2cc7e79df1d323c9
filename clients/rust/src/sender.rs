//! Who signs a transaction and how: the one place that turns a transaction's signing payload
//! into its [`TransactionSignature`], for every [`Form`]. Both the subxt client
//! ([`crate::chain`]) and this repository's typed harness sign through it.

use polkadot_sdk::sp_runtime::AccountId32;
use pq_crypto::{
	aggregate::SignerBitfield,
	statement::{Signatory, TransactionStatement},
	AccountSignature, Purpose, TransactionSignature,
};
use pq_signer::{
	aggregator::{AggregateError, Committee},
	signing::Keypair,
};

/// How a transaction proves who sent it: the variant of its [`TransactionSignature`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
	/// The public key travels with the signature (an Ed25519 key is the account itself).
	KeyInline,
	/// The sender's registered key signed: no key travels, which saves 1.3–2.6 KB for ML-DSA.
	KeyRegistered,
	/// From a committee's account, with one aggregate ML-DSA-87 signature of enough of its
	/// members; the committee is on chain.
	Committee,
}

impl Form {
	/// Every form.
	pub const ALL: [Form; 3] = [Form::KeyInline, Form::KeyRegistered, Form::Committee];

	/// As reports and tables name it: `key inline`, `registered`, `committee`.
	pub fn label(self) -> &'static str {
		match self {
			Form::KeyInline => "key inline",
			Form::KeyRegistered => "registered",
			Form::Committee => "committee",
		}
	}
}

/// Who signs a transaction, and for which account.
#[derive(Clone, Copy)]
pub enum Sender<'a> {
	/// A key, for the account it derives: signs in [`Form::KeyInline`] and, once registered,
	/// [`Form::KeyRegistered`].
	Key(&'a Keypair),
	/// A registered key, for `account`, an account that migrated to it: signs only in
	/// [`Form::KeyRegistered`].
	Migrated {
		/// The account, which does not derive from `key`.
		account: &'a AccountId32,
		/// The key registered for `account`.
		key: &'a Keypair,
	},
	/// The members `signers` of `committee`, for the committee's account: sign only in
	/// [`Form::Committee`].
	Committee {
		/// The committee, with every member's secrets.
		committee: &'a Committee,
		/// The members who sign.
		signers: &'a SignerBitfield,
	},
}

impl<'a> From<&'a Keypair> for Sender<'a> {
	fn from(key: &'a Keypair) -> Self {
		Sender::Key(key)
	}
}

/// Why a transaction could not be signed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SignError {
	/// The sender cannot sign in this form (see [`Sender`] for who signs in which).
	FormNotForSender(Form),
	/// The committee could not make its aggregate signature.
	Aggregate(AggregateError),
}

impl core::fmt::Display for SignError {
	fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
		match self {
			SignError::FormNotForSender(form) => {
				write!(f, "this sender cannot sign in the {} form", form.label())
			},
			SignError::Aggregate(error) => write!(f, "the committee could not sign: {error:?}"),
		}
	}
}

impl std::error::Error for SignError {}

/// How signatures choose FIPS 204's `rnd`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Randomness {
	/// Hedged signing, FIPS 204's default: fresh randomness from the operating system.
	Fresh,
	/// Deterministic signing (`rnd = 0³²`): the same bytes for the same input, for reference
	/// vectors (Ed25519 is deterministic either way).
	Zero,
}

impl Randomness {
	fn sign(self, key: &Keypair, message: &[u8], purpose: Purpose) -> AccountSignature {
		match self {
			Randomness::Fresh => key.sign(message, purpose),
			Randomness::Zero => key.sign_deterministic(message, purpose),
		}
	}
}

impl Sender<'_> {
	/// The account the transaction is from.
	pub fn account(&self) -> AccountId32 {
		match self {
			Sender::Key(key) => key.account_id(),
			Sender::Migrated { account, .. } => (*account).clone(),
			Sender::Committee { committee, .. } => committee.id().account_id(),
		}
	}

	/// Signs a transaction whose signing payload (the standard payload, hashed when longer than
	/// 256 bytes) is `signing_payload`, in `form`: the message of the form's
	/// [`TransactionStatement`] under its purpose.
	pub fn sign(
		&self,
		form: Form,
		signing_payload: &[u8],
		randomness: Randomness,
	) -> Result<TransactionSignature, SignError> {
		let account = self.account();
		let statement = |signatory| TransactionStatement { signatory, signing_payload };
		match (*self, form) {
			(Sender::Key(key), Form::KeyInline) => {
				let statement = statement(Signatory::Key);
				let signature = randomness.sign(key, &statement.message(), statement.purpose());
				TransactionSignature::key_inline(key.public(), signature)
					.ok_or(SignError::FormNotForSender(form))
			},
			(Sender::Key(key) | Sender::Migrated { key, .. }, Form::KeyRegistered) => {
				let statement = statement(Signatory::Registered(&account));
				TransactionSignature::key_registered(randomness.sign(
					key,
					&statement.message(),
					statement.purpose(),
				))
				.ok_or(SignError::FormNotForSender(form))
			},
			(Sender::Committee { committee, signers }, Form::Committee) => {
				let id = committee.id();
				let statement = statement(Signatory::Committee(&id, signers));
				let (message, purpose) = (statement.message(), statement.purpose());
				let aggregate = match randomness {
					Randomness::Fresh => committee.sign(signers, &message, purpose),
					Randomness::Zero => {
						committee.sign_with_randomness(signers, &message, purpose, [0; 32])
					},
				};
				Ok(TransactionSignature::Committee(Box::new(
					aggregate.map_err(SignError::Aggregate)?,
				)))
			},
			_ => Err(SignError::FormNotForSender(form)),
		}
	}
}
