//! The pallet's own reasons for refusing a transaction, carried as
//! `InvalidTransaction::Custom(code)` so stock clients and nodes pass them on unchanged.

use codec::{Decode, Encode};
use polkadot_sdk::sp_runtime::transaction_validity::{
	InvalidTransaction, TransactionValidityError,
};

/// Why [`authorize`](crate::authorize) refused a transaction, beyond the standard
/// `InvalidTransaction` reasons (`BadProof`: the signature does not verify; `BadSigner`: a key
/// that does not derive the account, or a committee signature for another account). Carried as
/// `InvalidTransaction::Custom(code)`; the code is also the reason's SCALE encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Encode, Decode)]
#[repr(u8)]
pub enum PqInvalidTransaction {
	/// The account has no registered key, but the transaction says the key is registered.
	NoRegisteredKey = 1,
	/// The signature is of another scheme than the key.
	SchemeMismatch = 2,
	/// The account accepts only its registered key (the registered form): it migrated and
	/// refuses every other key.
	OnlyRegisteredKey = 3,
	/// The Ed25519 key is not a valid curve point or is of small order. An Ed25519 signature's
	/// key is its account, so this is also the refusal of every classical signature for a
	/// post-quantum account, whose id is never a curve point (`pq_crypto::account`).
	InvalidKey = 4,
	/// No committee has the id the aggregate signature names.
	UnknownCommittee = 6,
	/// The signer bitfield is not the canonical one of the committee (`⌈N/8⌉` bytes, no bit
	/// beyond the last member).
	InvalidSigners = 7,
	/// Fewer members signed than the committee's threshold.
	BelowThreshold = 8,
	/// The bytes are not an extrinsic of this runtime (refused by name by
	/// [`Extrinsic`](crate::Extrinsic), which decodes every length-prefixed body instead of
	/// trapping).
	Undecodable = 9,
	/// An sr25519 or ECDSA signature, as stock wallets make: keys a discrete logarithm breaks
	/// never authorize anything here. Decoded so the refusal can say so.
	ClassicalSignature = 10,
	/// A format-5 extrinsic, general or bare: this runtime takes signed (format 4) extrinsics,
	/// whose signature carries the form, and format-4 inherents — the one format its metadata
	/// lists.
	GeneralTransaction = 11,
}

impl PqInvalidTransaction {
	/// The reason carried as `InvalidTransaction::Custom(code)`, for clients naming a refusal.
	pub fn from_code(code: u8) -> Option<Self> {
		// A fieldless enum's SCALE index is its discriminant.
		Self::decode(&mut &[code][..]).ok()
	}
}

impl From<PqInvalidTransaction> for TransactionValidityError {
	fn from(reason: PqInvalidTransaction) -> Self {
		InvalidTransaction::Custom(reason as u8).into()
	}
}
