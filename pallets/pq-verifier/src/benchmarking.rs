//! Benchmarks (frame-benchmarking v2): the transaction extension per scheme and form, and
//! every call, each in its worst case.
//!
//! The extension benchmarks measure `validate` of [`AuthorizePq`] as a transaction pool or
//! block author runs it: hashing the implication, the registry read (the registered key, or
//! the account's key rule), the genesis hash, the fee check, decoding the key and verifying.
//! Nothing is cached between repetitions, so the weights charge a full decode every time; a
//! decoded-key cache can only make the real cost lower than the charge.

use super::*;
use crate::{extension::Authorization, AuthorizePq, Pallet as PqVerifier};
use alloc::{boxed::Box, vec};
use polkadot_sdk::{
	frame_benchmarking::v2::*,
	frame_support::{
		dispatch::{DispatchInfo, GetDispatchInfo},
		pallet_prelude::TransactionSource,
	},
	frame_system::{Call as SystemCall, RawOrigin},
	sp_runtime::{
		generic::ExtensionVersion,
		traits::{AsSystemOriginSigner, AsTransactionAuthorizedOrigin, DispatchTransaction, Dispatchable, Verify},
		AccountId32,
	},
};
use pq_crypto::{
	aggregate::{
		aggregator::Committee,
		committee::{PackedShare, ShareSum},
		CommitteeId, MAX_COMMITTEE_SIZE,
	},
	signing::Keypair,
	statement::{AuthorizationStatement, Authorizer},
	Purpose, Scheme, SignatureWithKey, TransactionSignature,
};

const EXTENSION_VERSION: ExtensionVersion = 0;

fn keypair(scheme: Scheme) -> Keypair {
	Keypair::from_seed(scheme, &[scheme as u8 + 0x40; 32]).expect("single-key scheme")
}

/// A remark call and its dispatch info. Also empties the decoded-key cache, so what follows is
/// measured cold.
fn remark<T: Config>() -> (T::RuntimeCall, DispatchInfo)
where
	T::RuntimeCall: GetDispatchInfo,
{
	let call: T::RuntimeCall = SystemCall::remark { remark: vec![] }.into();
	let info = call.get_dispatch_info();
	crate::key_cache::clear();
	(call, info)
}

/// The statement an [`AuthorizePq`] at the end of the pipeline signs for `call` from `authorizer`.
fn statement<'a, T: Config>(call: &T::RuntimeCall, authorizer: Authorizer<'a>) -> AuthorizationStatement<'a, T::Hash> {
	AuthorizationStatement::new(PqVerifier::<T>::genesis_hash(), authorizer, &(EXTENSION_VERSION, call))
}

/// Validates `extension` for `call` as the transaction pool does.
fn validate<T: Config + Send + Sync>(
	extension: &AuthorizePq<T>,
	call: &T::RuntimeCall,
	info: &DispatchInfo,
	origin: RawOrigin<AccountId32>,
) -> Result<(), BenchmarkError>
where
	T::RuntimeCall: Dispatchable<Info = DispatchInfo>,
	<T::RuntimeCall as Dispatchable>::RuntimeOrigin:
		AsTransactionAuthorizedOrigin + AsSystemOriginSigner<AccountId32> + Clone,
{
	extension
		.validate_only(origin.into(), call, info, 0, TransactionSource::External, EXTENSION_VERSION)
		.map(|_| ())
		.map_err(|_| BenchmarkError::Stop("a valid authorization was refused"))
}

/// A key-inline authorization of `call` by a funded key of `scheme`.
fn inline<T: Config>(scheme: Scheme, call: &T::RuntimeCall) -> Result<AuthorizePq<T>, BenchmarkError> {
	let signer = keypair(scheme);
	let account = signer.account_id();
	T::BenchmarkHelper::endow(&account);
	let statement = statement::<T>(call, Authorizer::KeyInline(&account));
	let signature = signer.sign_deterministic(&statement.message(), statement.purpose());
	let signed = SignatureWithKey::new(signer.public(), signature).ok_or(BenchmarkError::Stop("single-key scheme"))?;
	Ok(AuthorizePq::new(Authorization::KeyInline { account, signed }))
}

/// An ordinary signed extrinsic from a funded account of `scheme`, as the runtime checks it.
struct SignedExtrinsic<T: Config> {
	signature: TransactionSignature<T::Backend>,
	account: AccountId32,
	call: T::RuntimeCall,
	info: DispatchInfo,
}

impl<T: Config> SignedExtrinsic<T>
where
	T::RuntimeCall: Dispatchable<Info = DispatchInfo> + GetDispatchInfo,
{
	/// Signed by a key of `scheme` over [`LONGEST_UNHASHED_PAYLOAD`]; the decoded-key cache
	/// emptied.
	fn new(scheme: Scheme) -> Result<Self, BenchmarkError> {
		let signer = keypair(scheme);
		let signature = signer.sign_deterministic(&LONGEST_UNHASHED_PAYLOAD, Purpose::Transaction);
		let signed = SignatureWithKey::new(signer.public(), signature).ok_or(BenchmarkError::Stop("single-key scheme"))?;
		let account = signer.account_id();
		T::BenchmarkHelper::endow(&account);
		let (call, info) = remark::<T>();
		Ok(Self { signature: TransactionSignature::new(signed), account, call, info })
	}

	/// What the runtime does with the signature: [`check_signed_before_verification`], then
	/// decode + verify.
	fn check(&self) -> Result<(), BenchmarkError> {
		check_signed_before_verification::<T>(&self.account, &self.signature.signed, &self.call, &self.info, 0)
			.map_err(|_| BenchmarkError::Stop("a valid signed extrinsic failed its checks"))?;
		self.signature
			.verify(&LONGEST_UNHASHED_PAYLOAD[..], &self.account)
			.then_some(())
			.ok_or(BenchmarkError::Stop("a valid signature was refused"))
	}
}

/// The longest payload an ordinary signed extrinsic signs as it is; longer ones are signed as
/// their 32-byte blake2 hash.
const LONGEST_UNHASHED_PAYLOAD: [u8; 256] = [0x5a; 256];

/// Registers a key of `scheme` for a migrated account and returns the account and its keypair.
fn migrated<T: Config>(scheme: Scheme) -> Result<(AccountId32, Keypair), BenchmarkError> {
	let who: AccountId32 = account("migrating", 0, 0);
	T::BenchmarkHelper::endow(&who);
	let key = keypair(scheme);
	let proof = key.sign_deterministic(&PqVerifier::<T>::possession_statement(&who), Purpose::ProofOfPossession);
	PqVerifier::<T>::register_key(RawOrigin::Signed(who.clone()).into(), Box::new(key.public()), Some(Box::new(proof)), false)
		.map_err(|_| BenchmarkError::Stop("registering the benchmark key failed"))?;
	Ok((who, key))
}

/// A registered-key authorization of `call` by a migrated account's key of `scheme`.
fn registered<T: Config>(scheme: Scheme, call: &T::RuntimeCall) -> Result<AuthorizePq<T>, BenchmarkError> {
	let (who, key) = migrated::<T>(scheme)?;
	let statement = statement::<T>(call, Authorizer::KeyRegistered(&who));
	let signature = key.sign_deterministic(&statement.message(), statement.purpose());
	Ok(AuthorizePq::new(Authorization::KeyRegistered { account: who, signature }))
}

/// Stores `committee` owned by a fresh endowed account, as `create_committee` would after
/// checking its proofs, and funds the committee's account.
fn store<T: Config>(committee: &Committee) -> Result<AccountId32, BenchmarkError> {
	let owner: AccountId32 = account("owner", 0, 0);
	T::BenchmarkHelper::endow(&owner);
	let shares = committee.shares();
	let mut sum = ShareSum::default();
	for share in &shares {
		sum.add(share).map_err(|_| BenchmarkError::Stop("generated shares are reduced"))?;
	}
	PqVerifier::<T>::store_committee(owner.clone(), committee.id(), committee.rho(), committee.threshold(), shares.into_iter(), sum)
		.map_err(|_| BenchmarkError::Stop("storing the benchmark committee failed"))?;
	T::BenchmarkHelper::endow(&committee.id().account_id());
	Ok(owner)
}

/// Every member's share of `committee` with its proof of possession for creation by `owner`.
fn members<T: Config>(committee: &Committee, owner: &AccountId32) -> vec::Vec<CommitteeMember> {
	let genesis_hash = PqVerifier::<T>::genesis_hash();
	(0..committee.size())
		.map(|index| CommitteeMember {
			share: committee.share(index),
			proof: committee.membership_proof(index, genesis_hash, owner),
		})
		.collect()
}

#[benchmarks(where
	T: Send + Sync,
	T::RuntimeCall: Dispatchable<Info = DispatchInfo> + GetDispatchInfo,
	<T::RuntimeCall as Dispatchable>::RuntimeOrigin:
		AsTransactionAuthorizedOrigin + AsSystemOriginSigner<AccountId32> + Clone,
)]
mod benchmarks {
	use super::*;

	/// An ordinary signed extrinsic's Ed25519 signature over the longest unhashed payload: the
	/// checks before verification, then key decode + verify, as the runtime checks it before
	/// any extension runs.
	#[benchmark]
	fn verify_signed_ed25519() -> Result<(), BenchmarkError> {
		let extrinsic = SignedExtrinsic::<T>::new(Scheme::Ed25519)?;
		let checked;
		#[block]
		{
			checked = extrinsic.check();
		}
		checked
	}

	/// An ordinary signed extrinsic's ML-DSA-44 signature with its key: the checks before
	/// verification, then decode + verify.
	#[benchmark]
	fn verify_signed_ml_dsa_44() -> Result<(), BenchmarkError> {
		let extrinsic = SignedExtrinsic::<T>::new(Scheme::MlDsa44)?;
		let checked;
		#[block]
		{
			checked = extrinsic.check();
		}
		checked
	}

	/// An ordinary signed extrinsic's ML-DSA-65 signature with its key: the checks before
	/// verification, then decode + verify.
	#[benchmark]
	fn verify_signed_ml_dsa_65() -> Result<(), BenchmarkError> {
		let extrinsic = SignedExtrinsic::<T>::new(Scheme::MlDsa65)?;
		let checked;
		#[block]
		{
			checked = extrinsic.check();
		}
		checked
	}

	/// An ordinary signed extrinsic's ML-DSA-87 signature with its key: the checks before
	/// verification, then decode + verify.
	#[benchmark]
	fn verify_signed_ml_dsa_87() -> Result<(), BenchmarkError> {
		let extrinsic = SignedExtrinsic::<T>::new(Scheme::MlDsa87)?;
		let checked;
		#[block]
		{
			checked = extrinsic.check();
		}
		checked
	}

	/// An ordinary signed extrinsic passing through: the read of the account's key rule.
	#[benchmark]
	fn authorize_none() -> Result<(), BenchmarkError> {
		let (who, _) = migrated::<T>(Scheme::MlDsa87)?;
		let (call, info) = remark::<T>();
		let extension = AuthorizePq::<T>::new(Authorization::None);
		let result;
		#[block]
		{
			result = validate(&extension, &call, &info, RawOrigin::Signed(who));
		}
		result
	}

	/// Ed25519 with the key inline: the key-rule and fee-check reads, decode + verify.
	#[benchmark]
	fn authorize_inline_ed25519() -> Result<(), BenchmarkError> {
		let (call, info) = remark::<T>();
		let extension = inline::<T>(Scheme::Ed25519, &call)?;
		let result;
		#[block]
		{
			result = validate(&extension, &call, &info, RawOrigin::None);
		}
		result
	}

	/// ML-DSA-44 with the key inline: key-rule and fee-check reads, decode + verify.
	#[benchmark]
	fn authorize_inline_ml_dsa_44() -> Result<(), BenchmarkError> {
		let (call, info) = remark::<T>();
		let extension = inline::<T>(Scheme::MlDsa44, &call)?;
		let result;
		#[block]
		{
			result = validate(&extension, &call, &info, RawOrigin::None);
		}
		result
	}

	/// ML-DSA-65 with the key inline: key-rule and fee-check reads, decode + verify.
	#[benchmark]
	fn authorize_inline_ml_dsa_65() -> Result<(), BenchmarkError> {
		let (call, info) = remark::<T>();
		let extension = inline::<T>(Scheme::MlDsa65, &call)?;
		let result;
		#[block]
		{
			result = validate(&extension, &call, &info, RawOrigin::None);
		}
		result
	}

	/// ML-DSA-87 with the key inline: key-rule and fee-check reads, decode + verify.
	#[benchmark]
	fn authorize_inline_ml_dsa_87() -> Result<(), BenchmarkError> {
		let (call, info) = remark::<T>();
		let extension = inline::<T>(Scheme::MlDsa87, &call)?;
		let result;
		#[block]
		{
			result = validate(&extension, &call, &info, RawOrigin::None);
		}
		result
	}

	/// ML-DSA-44 with a registered key: registry and fee-check reads, decode + verify.
	#[benchmark]
	fn authorize_registered_ml_dsa_44() -> Result<(), BenchmarkError> {
		let (call, info) = remark::<T>();
		let extension = registered::<T>(Scheme::MlDsa44, &call)?;
		let result;
		#[block]
		{
			result = validate(&extension, &call, &info, RawOrigin::None);
		}
		result
	}

	/// ML-DSA-65 with a registered key: registry and fee-check reads, decode + verify.
	#[benchmark]
	fn authorize_registered_ml_dsa_65() -> Result<(), BenchmarkError> {
		let (call, info) = remark::<T>();
		let extension = registered::<T>(Scheme::MlDsa65, &call)?;
		let result;
		#[block]
		{
			result = validate(&extension, &call, &info, RawOrigin::None);
		}
		result
	}

	/// ML-DSA-87 with a registered key: registry and fee-check reads, decode + verify.
	#[benchmark]
	fn authorize_registered_ml_dsa_87() -> Result<(), BenchmarkError> {
		let (call, info) = remark::<T>();
		let extension = registered::<T>(Scheme::MlDsa87, &call)?;
		let result;
		#[block]
		{
			result = validate(&extension, &call, &info, RawOrigin::None);
		}
		result
	}

	/// A committee-signed transaction whose signer set needs `r` share reads: a committee of
	/// `2r` members of which the first `r` sign. Committee read, key-rule and fee-check reads,
	/// share reads, `pk*` derivation, decode + verify.
	#[benchmark]
	fn authorize_committee(r: Linear<1, { MAX_COMMITTEE_SIZE / 2 }>) -> Result<(), BenchmarkError> {
		let committee = Committee::from_seed(&[0x51; 32], 2 * r, 1);
		store::<T>(&committee)?;
		let (call, info) = remark::<T>();
		let id = committee.id();
		let signers = committee.signers(0..r).map_err(|_| BenchmarkError::Stop("members"))?;
		let statement = statement::<T>(&call, Authorizer::Committee(&id, &signers));
		let aggregate = committee
			.sign_with_randomness(&signers, &statement.message(), statement.purpose(), [0; 32])
			.map_err(|_| BenchmarkError::Stop("aggregate signing failed"))?;
		let extension = AuthorizePq::<T>::new(Authorization::Committee(aggregate));
		let result;
		#[block]
		{
			result = validate(&extension, &call, &info, RawOrigin::None);
		}
		result
	}

	/// Creating a committee of `n` members: `n` proof-of-possession verifications (ML-DSA-87),
	/// the share sum, the deposit hold and `n` share writes.
	#[benchmark]
	fn create_committee(n: Linear<1, MAX_COMMITTEE_SIZE>) -> Result<(), BenchmarkError> {
		let committee = Committee::from_seed(&[0x52; 32], n, n);
		let owner: AccountId32 = account("owner", 0, 0);
		T::BenchmarkHelper::endow(&owner);
		let members = members::<T>(&committee, &owner).try_into().map_err(|_| BenchmarkError::Stop("at most 128 members"))?;
		#[extrinsic_call]
		_(RawOrigin::Signed(owner), committee.rho(), n, members);
		assert!(Committees::<T>::contains_key(committee.id()));
		Ok(())
	}

	/// Dissolving a committee of `n` members: `n` share removals, the hold released.
	#[benchmark]
	fn dissolve_committee(n: Linear<1, MAX_COMMITTEE_SIZE>) -> Result<(), BenchmarkError> {
		let owner: AccountId32 = account("owner", 0, 0);
		T::BenchmarkHelper::endow(&owner);
		let id = CommitteeId([0x53; 32]);
		let shares = (0..n).map(|_| PackedShare([0; PackedShare::LEN]));
		PqVerifier::<T>::store_committee(owner.clone(), id.clone(), [0; 32], 1, shares, ShareSum::default())
			.map_err(|_| BenchmarkError::Stop("storing the benchmark committee failed"))?;
		#[extrinsic_call]
		_(RawOrigin::Signed(owner), id.clone());
		assert!(!Committees::<T>::contains_key(id));
		Ok(())
	}

	/// Registering the largest key (ML-DSA-87) for its derived account: deposit hold.
	#[benchmark]
	fn register_key() {
		let key = keypair(Scheme::MlDsa87);
		let who = key.account_id();
		T::BenchmarkHelper::endow(&who);
		#[extrinsic_call]
		_(RawOrigin::Signed(who.clone()), Box::new(key.public()), None, false);
		assert!(Keys::<T>::contains_key(&who));
	}

	/// Migrating to the largest key, accepting only it from then on: verifying its ML-DSA-87
	/// proof of possession, deposit hold.
	#[benchmark]
	fn migrate_key() {
		let who: AccountId32 = account("migrating", 0, 0);
		T::BenchmarkHelper::endow(&who);
		let key = keypair(Scheme::MlDsa87);
		let proof = key.sign_deterministic(&PqVerifier::<T>::possession_statement(&who), Purpose::ProofOfPossession);
		#[extrinsic_call]
		register_key(RawOrigin::Signed(who.clone()), Box::new(key.public()), Some(Box::new(proof)), true);
		assert!(PqVerifier::<T>::only_registered_key(&who));
	}

	/// Removing a key: registry, hold and consumer reference released.
	#[benchmark]
	fn remove_key() -> Result<(), BenchmarkError> {
		let (who, _) = migrated::<T>(Scheme::MlDsa87)?;
		#[extrinsic_call]
		_(RawOrigin::Signed(who.clone()));
		assert!(!Keys::<T>::contains_key(&who));
		Ok(())
	}

	/// Rotating a migrated account that accepts only its registered key from the smallest key
	/// to the largest (ML-DSA-44 to ML-DSA-87): verifying the new key's ML-DSA-87 proof of
	/// possession, holding the larger deposit.
	#[benchmark]
	fn rotate_key() -> Result<(), BenchmarkError> {
		let (who, _) = migrated::<T>(Scheme::MlDsa44)?;
		PqVerifier::<T>::set_only_registered_key(RawOrigin::Signed(who.clone()).into(), true)
			.map_err(|_| BenchmarkError::Stop("accepting only the registered key failed"))?;
		let key = keypair(Scheme::MlDsa87);
		let proof = key.sign_deterministic(&PqVerifier::<T>::possession_statement(&who), Purpose::ProofOfPossession);
		#[extrinsic_call]
		_(RawOrigin::Signed(who.clone()), Box::new(key.public()), Some(Box::new(proof)));
		assert!(Keys::<T>::get(&who).is_some_and(|registered| registered.key == key.public()));
		assert!(PqVerifier::<T>::only_registered_key(&who));
		Ok(())
	}

	/// A migrated account accepting only its registered key from now on.
	#[benchmark]
	fn set_only_registered_key() -> Result<(), BenchmarkError> {
		let (who, _) = migrated::<T>(Scheme::MlDsa87)?;
		#[extrinsic_call]
		_(RawOrigin::Signed(who.clone()), true);
		assert!(PqVerifier::<T>::only_registered_key(&who));
		Ok(())
	}

	impl_benchmark_test_suite!(PqVerifier, crate::mock::new_test_ext(), crate::mock::Test);
}
