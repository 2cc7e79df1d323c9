//! Ed25519 through `ed25519-dalek`, under the **strict** validity rule.
//!
//! Which signatures are valid is a consensus decision: two nodes that disagree on one signature
//! fork. RFC 8032 leaves room (cofactored or cofactorless equation, canonical encodings,
//! small-order points), so the rule is written down here and tested as data in
//! `tests/ed25519_rule.rs`. A signature `(R, S)` on message `M` under key `A` is valid iff:
//!
//! 1. `A` decompresses to a curve point (`VerifyingKey::from_bytes`);
//! 2. `A` is not of small order (order dividing 8);
//! 3. `R` is not of small order;
//! 4. `S < ℓ` (canonical scalar; rejects the `S + ℓ` malleation);
//! 5. `[S]B − [k]A` compresses to exactly the bytes of `R`, with `k = SHA-512(R ‖ A ‖ M) mod ℓ`
//!    (the cofactorless equation, with `R` compared by encoding).
//!
//! This is `ed25519_dalek::VerifyingKey::verify_strict`. Why strict rather than ZIP-215: we
//! verify one signature at a time (ZIP-215's permissiveness exists so batch and single
//! verification agree), strictness makes signatures non-malleable, and it refuses the
//! small-order keys for which a single signature verifies for *every* message. Every signature
//! produced by an honest RFC 8032 signer is valid under both rules.

use super::Ed25519Verifier;
use crate::{
	keys::{Ed25519Public, Ed25519Signature},
	message::ed25519_message,
};
use ed25519_dalek::{Signature, VerifyingKey};

/// Ed25519 verification with `ed25519-dalek`'s strict rule.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, scale_info::TypeInfo)]
pub struct StrictEd25519;

impl Ed25519Verifier for StrictEd25519 {
	type DecodedKey = VerifyingKey;

	fn decode_key(public: &Ed25519Public) -> Option<VerifyingKey> {
		VerifyingKey::from_bytes(public.as_bytes()).ok().filter(|key| !key.is_weak())
	}

	fn verify_decoded(
		key: &VerifyingKey,
		prefix: &[u8],
		message: &[u8],
		signature: &Ed25519Signature,
	) -> bool {
		let signature = Signature::from_bytes(signature.as_bytes());
		key.verify_strict(&ed25519_message(prefix, message), &signature).is_ok()
	}
}
