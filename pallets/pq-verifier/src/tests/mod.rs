//! One test per outcome, in the mock runtime (`mock.rs`); `attacks` reproduces each attack of
//! `docs/security.md` as an attacker would try it.

use crate::{mock::*, Authorization, AuthorizePq, Error, Event, Keys, PqInvalidTransaction};
use codec::{Decode, DecodeAll, Encode};
use polkadot_sdk::{
	frame_support::{
		assert_noop, assert_ok,
		dispatch::GetDispatchInfo,
		pallet_prelude::{InvalidTransaction, TransactionSource, TransactionValidityError},
		traits::{
			fungible::{InspectHold, Mutate},
			OriginTrait,
		},
	},
	frame_system::{self, Call as SystemCall, CheckNonce},
	sp_runtime::{traits::DispatchTransaction, AccountId32},
};
use pq_crypto::{
	signing::Keypair,
	statement::{AuthorizationStatement, Authorizer},
	MultiSignature, Purpose, Scheme, SignatureWithKey,
};

mod attacks;
mod committees;
mod extension;
mod invariants;
mod migration;
mod registry;
mod storage_migration;

const ML_DSA: [Scheme; 3] = Scheme::ML_DSA;
const SCHEMES: [Scheme; 4] = Scheme::SINGLE_KEY;

fn keypair(scheme: Scheme, seed: u8) -> Keypair {
	Keypair::from_seed(scheme, &[seed; 32]).unwrap()
}

fn remark(text: &[u8]) -> RuntimeCall {
	SystemCall::remark { remark: text.to_vec() }.into()
}

/// What `AuthorizePq` at the end of the pipeline (implication: version and call) verifies for
/// `call` from `authorizer`, on this chain.
fn statement<'a>(call: &RuntimeCall, authorizer: Authorizer<'a>) -> AuthorizationStatement<'a, polkadot_sdk::sp_core::H256> {
	AuthorizationStatement::new(crate::Pallet::<Test>::genesis_hash(), authorizer, &(0u8, call))
}

/// Validates as the pool does; `Ok` carries the signer the origin was authorized as.
fn validate(
	extension: AuthorizePq<Test>,
	origin: RuntimeOrigin,
	call: &RuntimeCall,
) -> Result<Option<AccountId32>, TransactionValidityError> {
	extension
		.validate_only(origin, call, &call.get_dispatch_info(), 0, TransactionSource::External, 0)
		.map(|(_, _, origin)| origin.as_signer().cloned())
}

/// Validates a general transaction (no origin yet) as the pool does.
fn validate_general(extension: AuthorizePq<Test>, call: &RuntimeCall) -> Result<Option<AccountId32>, TransactionValidityError> {
	validate(extension, RuntimeOrigin::none(), call)
}

fn fund(who: &AccountId32) {
	<Balances as Mutate<AccountId32>>::set_balance(who, ENDOWMENT);
}

/// `signer`'s signature of `call` for its derived account, key inline.
fn inline(signer: &Keypair, call: &RuntimeCall) -> AuthorizePq<Test> {
	let account = signer.account_id();
	let statement = statement(call, Authorizer::KeyInline(&account));
	inline_signed(signer, &account, &statement.message(), statement.purpose())
}

/// A key-inline authorization of `account` whose signature covers `message` for `purpose`.
fn inline_signed(signer: &Keypair, account: &AccountId32, message: &[u8], purpose: Purpose) -> AuthorizePq<Test> {
	let signed = SignatureWithKey::new(signer.public(), signer.sign_deterministic(message, purpose)).unwrap();
	AuthorizePq::new(Authorization::KeyInline { account: account.clone(), signed })
}

/// `signer`'s signature of `call` for `account`'s registered key.
fn registered(account: &AccountId32, signer: &Keypair, call: &RuntimeCall) -> AuthorizePq<Test> {
	let statement = statement(call, Authorizer::KeyRegistered(account));
	registered_signed(account, signer, &statement.message(), statement.purpose())
}

/// A registered-key authorization of `account` whose signature covers `message` for `purpose`.
fn registered_signed(account: &AccountId32, signer: &Keypair, message: &[u8], purpose: Purpose) -> AuthorizePq<Test> {
	let signature = signer.sign_deterministic(message, purpose);
	AuthorizePq::new(Authorization::KeyRegistered { account: account.clone(), signature })
}

/// `key`'s proof of possession for registering it for `who`.
fn possession_proof(key: &Keypair, who: &AccountId32) -> MultiSignature {
	key.sign_deterministic(&crate::Pallet::<Test>::possession_statement(who), Purpose::ProofOfPossession)
}

/// Registers `key` for `who` (with a proof when `who` is not its derived account).
fn register(who: &AccountId32, key: &Keypair) {
	let proof = (key.account_id() != *who).then(|| possession_proof(key, who));
	assert_ok!(PqVerifier::register_key(RuntimeOrigin::signed(who.clone()), Box::new(key.public()), proof.map(Box::new), false));
}

/// Migrates `who` to `key`, accepting only `key` from then on.
fn migrate_exclusively(who: &AccountId32, key: &Keypair) {
	assert_ok!(PqVerifier::register_key(
		RuntimeOrigin::signed(who.clone()),
		Box::new(key.public()),
		Some(Box::new(possession_proof(key, who))),
		true
	));
}

fn bad_proof() -> TransactionValidityError {
	InvalidTransaction::BadProof.into()
}

fn only_registered_key() -> TransactionValidityError {
	PqInvalidTransaction::OnlyRegisteredKey.into()
}

/// The test runtime's pipeline: `AuthorizePq`, then the nonce.
fn pipeline(authorization: Authorization, nonce: CheckNonce<Test>) -> TxExtension {
	(AuthorizePq::new(authorization), nonce)
}

/// What `AuthorizePq` signs when `CheckNonce` follows it: version, call and nonce.
fn statement_with_nonce<'a>(call: &RuntimeCall, nonce: &CheckNonce<Test>, authorizer: Authorizer<'a>) -> AuthorizationStatement<'a, polkadot_sdk::sp_core::H256> {
	AuthorizationStatement::new(crate::Pallet::<Test>::genesis_hash(), authorizer, &(0u8, call, nonce, ()))
}

/// `signer`'s key-inline authorization of `call` from `account` at `nonce`.
fn inline_with_nonce(signer: &Keypair, account: &AccountId32, call: &RuntimeCall, nonce: &CheckNonce<Test>) -> Authorization {
	let statement = statement_with_nonce(call, nonce, Authorizer::KeyInline(account));
	inline_signed(signer, account, &statement.message(), statement.purpose()).0
}
