//! One test per outcome, in the mock runtime (`mock.rs`); `attacks` reproduces each attack of
//! `docs/security.md` as an attacker would try it.

use crate::{mock::*, Error, Event, Keys, PqInvalidTransaction};
use codec::{Decode, Encode};
use polkadot_sdk::{
	frame_support::{
		assert_noop, assert_ok,
		dispatch::GetDispatchInfo,
		pallet_prelude::{InvalidTransaction, TransactionSource, TransactionValidityError},
		traits::fungible::{InspectHold, Mutate},
	},
	frame_system::{self, Call as SystemCall, CheckGenesis, CheckNonce},
	sp_runtime::{
		generic::{self, Preamble},
		traits::{Applyable, Checkable, IdentityLookup, TransactionExtension},
		AccountId32,
	},
};
use pq_crypto::{
	statement::{signing_payload, Signatory, TransactionStatement},
	AccountSignature, Purpose, Scheme, TransactionSignature,
};
use pq_signer::signing::Keypair;

mod attacks;
mod authorization;
mod call_weights;
mod committees;
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

/// The test runtime's extensions at `nonce`.
fn extension(nonce: u32) -> TxExtension {
	(CheckGenesis::new(), CheckNonce::from(nonce))
}

/// The signing payload of `call` at `nonce` on this chain: what every form signs last.
fn payload(call: &RuntimeCall, nonce: u32) -> Vec<u8> {
	let extension = extension(nonce);
	let implicit = extension.implicit().unwrap();
	signing_payload(&(call, extension, implicit).encode())
}

/// What a transaction of `call` at nonce 0 signed by `signatory` signs, and for which purpose.
fn statement(call: &RuntimeCall, signatory: Signatory) -> (Vec<u8>, Purpose) {
	let payload = payload(call, 0);
	let statement = TransactionStatement { signatory, signing_payload: &payload };
	(statement.message(), statement.purpose())
}

/// A signed extrinsic of `call` from `who` at nonce 0 with `signature`.
fn signed(who: &AccountId32, signature: TransactionSignature, call: &RuntimeCall) -> Extrinsic {
	Extrinsic::Decoded(crate::UncheckedExtrinsic::<Test, AccountId32, TxExtension>::new_signed(
		call.clone(),
		who.clone(),
		signature,
		extension(0),
	))
}

/// Checks and validates as the pool does; `Ok` carries the account the transaction is from.
fn validate(extrinsic: Extrinsic) -> Result<Option<AccountId32>, TransactionValidityError> {
	// As `frame_executive` validates and applies: the check first, then the checked
	// extrinsic's dispatch info (the unchecked one's is a fee quote's).
	let len = extrinsic.encoded_size();
	let checked = extrinsic.check(&IdentityLookup::<AccountId32>::default())?;
	let info = checked.get_dispatch_info();
	let signer = checked.signer().cloned();
	#[allow(deprecated)]
	checked.validate::<Test>(TransactionSource::External, &info, len)?;
	Ok(signer)
}

fn fund(who: &AccountId32) {
	<Balances as Mutate<AccountId32>>::set_balance(who, ENDOWMENT);
}

/// `signer`'s transaction of `call` from its derived account, key inline.
fn inline(signer: &Keypair, call: &RuntimeCall) -> Extrinsic {
	let (message, purpose) = statement(call, Signatory::Key);
	inline_signed(signer, &signer.account_id(), &message, purpose, call)
}

/// A key-inline transaction of `call` from `account` whose signature covers `message` for
/// `purpose`.
fn inline_signed(
	signer: &Keypair,
	account: &AccountId32,
	message: &[u8],
	purpose: Purpose,
	call: &RuntimeCall,
) -> Extrinsic {
	let signature = TransactionSignature::key_inline(
		signer.public(),
		signer.sign_deterministic(message, purpose),
	)
	.unwrap();
	signed(account, signature, call)
}

/// `signer`'s transaction of `call` from `account`, whose registered key it is.
fn registered(account: &AccountId32, signer: &Keypair, call: &RuntimeCall) -> Extrinsic {
	let (message, purpose) = statement(call, Signatory::Registered(account));
	registered_signed(account, signer, &message, purpose, call)
}

/// A registered-key transaction of `call` from `account` whose signature covers `message` for
/// `purpose`.
fn registered_signed(
	account: &AccountId32,
	signer: &Keypair,
	message: &[u8],
	purpose: Purpose,
	call: &RuntimeCall,
) -> Extrinsic {
	let signature =
		TransactionSignature::key_registered(signer.sign_deterministic(message, purpose)).unwrap();
	signed(account, signature, call)
}

/// `extrinsic` with its call replaced: the signature stays what it was.
fn with_call(extrinsic: Extrinsic, call: RuntimeCall) -> Extrinsic {
	let Extrinsic::Decoded(mut extrinsic) = extrinsic else { panic!("a decoded extrinsic") };
	extrinsic.function = call;
	Extrinsic::Decoded(extrinsic)
}

/// `extrinsic`'s signature.
fn signature_of(extrinsic: &Extrinsic) -> TransactionSignature {
	match extrinsic {
		Extrinsic::Decoded(generic::UncheckedExtrinsic {
			preamble: Preamble::Signed(_, signature, _),
			..
		}) => signature.clone(),
		_ => panic!("a signed extrinsic"),
	}
}

/// `key`'s proof of possession for registering it for `who`.
fn possession_proof(key: &Keypair, who: &AccountId32) -> AccountSignature {
	key.sign_deterministic(
		&crate::Pallet::<Test>::possession_statement(who),
		Purpose::ProofOfPossession,
	)
}

/// ML-DSA-44 keys whose account derivation tries `candidates` or more, as an attacker grinds
/// them (`k` candidates take about `2^k` key generations).
fn ground_keys(candidates: u32) -> impl Iterator<Item = Keypair> {
	(0..=u8::MAX)
		.map(|seed| keypair(Scheme::MlDsa44, seed))
		.filter(move |key| key.public().account_derivation().1 >= candidates)
}

/// The first of [`ground_keys`].
fn ground_key(candidates: u32) -> Keypair {
	ground_keys(candidates)
		.next()
		.expect("one key in eight needs three candidates or more")
}

/// Registers `key` for `who` (with a proof when `who` is not its derived account).
fn register(who: &AccountId32, key: &Keypair) {
	let proof = (key.account_id() != *who).then(|| possession_proof(key, who));
	assert_ok!(PqVerifier::register_key(
		RuntimeOrigin::signed(who.clone()),
		Box::new(key.public()),
		proof.map(Box::new),
		false
	));
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
