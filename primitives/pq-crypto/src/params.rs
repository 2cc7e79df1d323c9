//! The three ML-DSA parameter sets of FIPS 204 (Table 1), as types, and the account ids keys
//! and committees control.
//!
//! Backends and the cache are generic over [`MlDsaParams`], so code written once serves all
//! three levels and a level can never be paired with another level's key or signature. Every
//! account-id domain tag is here, so no two can collide unnoticed.

use crate::{
	account,
	fips204::{ring::Q, Parameters},
	keys::{
		MlDsa44Public, MlDsa44Signature, MlDsa65Public, MlDsa65Signature, MlDsa87Public,
		MlDsa87Signature,
	},
	Scheme,
};
use polkadot_sdk::sp_runtime::AccountId32;

/// An ML-DSA parameter set: its key and signature types and its place among the [`Scheme`]s.
pub trait MlDsaParams: 'static {
	/// The encoded public key (`pkEncode`, FIPS 204 Algorithm 22).
	type Public: AsRef<[u8]> + Clone;
	/// The encoded signature (`sigEncode`, FIPS 204 Algorithm 26).
	type Signature: AsRef<[u8]> + Clone;
	/// The scheme this parameter set is.
	const SCHEME: Scheme;
	/// Human-readable name, as NIST spells it.
	const NAME: &'static str;
	/// Domain tag of the account id (see [`crate::account`]).
	const ACCOUNT_TAG: &'static [u8];
	/// The parameter set, FIPS 204 Table 1.
	const FIPS204: Parameters;
	/// Rows of the matrix `A`.
	const K: usize = Self::FIPS204.k;
	/// Columns of the matrix `A`.
	const L: usize = Self::FIPS204.l;
	/// Bytes of the expensive derived data of a verifying key: `Â` (k·l polynomials), `t1` and
	/// `NTT(t1·2^d)` (k polynomials each, 256 coefficients of 4 bytes) and `tr` (64 bytes).
	const EXPANDED_KEY_BYTES: usize = (Self::K * Self::L + 2 * Self::K) * 256 * 4 + 64;
}

/// The account id an ML-DSA key of parameter set `P` controls ([`crate::account`]).
pub fn account_id<P: MlDsaParams>(public: &P::Public) -> AccountId32 {
	account::derive(P::ACCOUNT_TAG, public.as_ref())
}

/// The version-1 account id of an ML-DSA key of parameter set `P` ([`account::version_1`]).
pub fn version_1_account_id<P: MlDsaParams>(public: &P::Public) -> AccountId32 {
	AccountId32::new(account::version_1(P::ACCOUNT_TAG, public.as_ref()))
}

/// Domain tag of a committee's account id; ML-DSA tags are [`MlDsaParams::ACCOUNT_TAG`].
pub const COMMITTEE_ACCOUNT_TAG: &[u8] = b"pq-verifier/account/committee";

/// The account id a committee controls ([`crate::account`] of its committee id).
pub fn committee_account_id(committee: &[u8; 32]) -> AccountId32 {
	account::derive(COMMITTEE_ACCOUNT_TAG, committee)
}

/// The version-1 account id of a committee ([`account::version_1`]).
pub fn version_1_committee_account_id(committee: &[u8; 32]) -> AccountId32 {
	AccountId32::new(account::version_1(COMMITTEE_ACCOUNT_TAG, committee))
}

/// ML-DSA-44: NIST security category 2.
#[derive(Clone, Copy, Debug)]
pub struct MlDsa44;
/// ML-DSA-65: NIST security category 3.
#[derive(Clone, Copy, Debug)]
pub struct MlDsa65;
/// ML-DSA-87: NIST security category 5; also the aggregate scheme's parameter set.
#[derive(Clone, Copy, Debug)]
pub struct MlDsa87;

impl MlDsaParams for MlDsa44 {
	type Public = MlDsa44Public;
	type Signature = MlDsa44Signature;
	const SCHEME: Scheme = Scheme::MlDsa44;
	const NAME: &'static str = "ML-DSA-44";
	const ACCOUNT_TAG: &'static [u8] = b"pq-verifier/account/ml-dsa-44";
	const FIPS204: Parameters = Parameters {
		k: 4,
		l: 4,
		eta: 2,
		tau: 39,
		lambda: 128,
		gamma1: 1 << 17,
		gamma2: (Q - 1) / 88,
		omega: 80,
	};
}

impl MlDsaParams for MlDsa65 {
	type Public = MlDsa65Public;
	type Signature = MlDsa65Signature;
	const SCHEME: Scheme = Scheme::MlDsa65;
	const NAME: &'static str = "ML-DSA-65";
	const ACCOUNT_TAG: &'static [u8] = b"pq-verifier/account/ml-dsa-65";
	const FIPS204: Parameters = Parameters {
		k: 6,
		l: 5,
		eta: 4,
		tau: 49,
		lambda: 192,
		gamma1: 1 << 19,
		gamma2: (Q - 1) / 32,
		omega: 55,
	};
}

impl MlDsaParams for MlDsa87 {
	type Public = MlDsa87Public;
	type Signature = MlDsa87Signature;
	const SCHEME: Scheme = Scheme::MlDsa87;
	const NAME: &'static str = "ML-DSA-87";
	const ACCOUNT_TAG: &'static [u8] = b"pq-verifier/account/ml-dsa-87";
	const FIPS204: Parameters = Parameters {
		k: 8,
		l: 7,
		eta: 2,
		tau: 60,
		lambda: 256,
		gamma1: 1 << 19,
		gamma2: (Q - 1) / 32,
		omega: 75,
	};
}
