//! The three ML-DSA parameter sets of FIPS 204 as the chain uses them (their numbers are
//! [`fips204::ParameterSet`]'s), and the account ids keys and committees control.
//!
//! Backends and the cache are generic over [`MlDsaParams`], so code written once serves all
//! three levels and a level can never be paired with another level's key or signature. Every
//! account-id domain tag is here, so no two can collide unnoticed.

pub use fips204::{MlDsa44, MlDsa65, MlDsa87, ParameterSet};

use crate::{
	account,
	keys::{
		MlDsa44Public, MlDsa44Signature, MlDsa65Public, MlDsa65Signature, MlDsa87Public,
		MlDsa87Signature,
	},
	Scheme,
};
use polkadot_sdk::sp_runtime::AccountId32;

/// An ML-DSA parameter set as the chain uses it: its FIPS 204 parameters
/// ([`fips204::ParameterSet`]), its key and signature types, and its place among the
/// [`Scheme`]s.
pub trait MlDsaParams: ParameterSet {
	/// The encoded public key (`pkEncode`, FIPS 204 Algorithm 22).
	type Public: AsRef<[u8]> + Clone;
	/// The encoded signature (`sigEncode`, FIPS 204 Algorithm 26).
	type Signature: AsRef<[u8]> + Clone;
	/// The scheme this parameter set is.
	const SCHEME: Scheme;
	/// Domain tag of the account id (see [`crate::account`]).
	const ACCOUNT_TAG: &'static [u8];
	/// Bytes of the expensive derived data of a verifying key: `Â` (k·l polynomials), `t1` and
	/// `NTT(t1·2^d)` (k polynomials each, 256 coefficients of 4 bytes) and `tr` (64 bytes).
	const EXPANDED_KEY_BYTES: usize = (Self::K * Self::L + 2 * Self::K) * 256 * 4 + 64;

	/// The key's bytes as [`fips204`] reads them.
	fn encoded_public_key(public: &Self::Public) -> &Self::EncodedPublicKey;

	/// The signature's bytes as [`fips204`] reads them.
	fn encoded_signature(signature: &Self::Signature) -> &Self::EncodedSignature;
}

/// The account id an ML-DSA key of parameter set `P` controls ([`crate::account`]).
pub fn account_id<P: MlDsaParams>(public: &P::Public) -> AccountId32 {
	account::derive(P::ACCOUNT_TAG, public.as_ref())
}

/// Domain tag of a committee's account id; ML-DSA tags are [`MlDsaParams::ACCOUNT_TAG`].
pub const COMMITTEE_ACCOUNT_TAG: &[u8] = b"pq-verifier/account/committee";

/// The account id a committee controls ([`crate::account`] of its committee id).
pub fn committee_account_id(committee: &[u8; 32]) -> AccountId32 {
	account::derive(COMMITTEE_ACCOUNT_TAG, committee)
}

macro_rules! ml_dsa_params {
	($level:ty, $public:ty, $signature:ty, $scheme:expr, $tag:literal) => {
		impl MlDsaParams for $level {
			type Public = $public;
			type Signature = $signature;
			const SCHEME: Scheme = $scheme;
			const ACCOUNT_TAG: &'static [u8] = $tag;

			fn encoded_public_key(public: &Self::Public) -> &Self::EncodedPublicKey {
				public.as_bytes()
			}

			fn encoded_signature(signature: &Self::Signature) -> &Self::EncodedSignature {
				signature.as_bytes()
			}
		}
	};
}

ml_dsa_params!(
	MlDsa44,
	MlDsa44Public,
	MlDsa44Signature,
	Scheme::MlDsa44,
	b"pq-verifier/account/ml-dsa-44"
);
ml_dsa_params!(
	MlDsa65,
	MlDsa65Public,
	MlDsa65Signature,
	Scheme::MlDsa65,
	b"pq-verifier/account/ml-dsa-65"
);
ml_dsa_params!(
	MlDsa87,
	MlDsa87Public,
	MlDsa87Signature,
	Scheme::MlDsa87,
	b"pq-verifier/account/ml-dsa-87"
);

/// `match` over an enum with one variant per ML-DSA level, written once for all three: the one
/// place that says which variant (`MlDsa44`, `MlDsa65`, `MlDsa87`, the names every enum of this
/// crate gives them) carries which parameter set. The `MlDsa(…) as P` arm is expanded once per
/// level with `P` that level's [`MlDsaParams`]; the arms after it are the match's others, and
/// the match stays exhaustive. A pair of such enums matches level against level:
///
/// ```text
/// match_ml_dsa!(signer, {
///     AccountSigner::MlDsa(key) as P => account_id::<P>(key),
///     AccountSigner::Ed25519(key) => AccountId32::new(key.0),
///     AccountSigner::AggregateMlDsa87(committee) => committee.account_id(),
/// })
/// ```
macro_rules! match_ml_dsa {
	($value:expr, {
		$enum:ident::MlDsa($($binding:tt)*) as $params:ident => $body:expr,
		$($others:tt)*
	}) => {
		match $value {
			$enum::MlDsa44($($binding)*) => {
				type $params = $crate::params::MlDsa44;
				$body
			},
			$enum::MlDsa65($($binding)*) => {
				type $params = $crate::params::MlDsa65;
				$body
			},
			$enum::MlDsa87($($binding)*) => {
				type $params = $crate::params::MlDsa87;
				$body
			},
			$($others)*
		}
	};
	($value:expr, {
		($first_enum:ident::MlDsa($($first_binding:tt)*), $second_enum:ident::MlDsa($($second_binding:tt)*))
			as $params:ident => $body:expr,
		$($others:tt)*
	}) => {
		match $value {
			($first_enum::MlDsa44($($first_binding)*), $second_enum::MlDsa44($($second_binding)*)) => {
				type $params = $crate::params::MlDsa44;
				$body
			},
			($first_enum::MlDsa65($($first_binding)*), $second_enum::MlDsa65($($second_binding)*)) => {
				type $params = $crate::params::MlDsa65;
				$body
			},
			($first_enum::MlDsa87($($first_binding)*), $second_enum::MlDsa87($($second_binding)*)) => {
				type $params = $crate::params::MlDsa87;
				$body
			},
			$($others)*
		}
	};
}
pub(crate) use match_ml_dsa;
