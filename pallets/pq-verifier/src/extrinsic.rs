//! [`Extrinsic`]: the extrinsic type a runtime using this pallet declares — a signed (v4)
//! `UncheckedExtrinsic` whose `Signature` is [`TransactionSignature`], byte for byte, checked
//! by [`authorize`] and charged by its signature's form and scheme.
//!
//! Every transaction is an ordinary signed extrinsic: stock clients (polkadot.js,
//! polkadot-api, subxt) decode it from the metadata, the signature's variant carrying the form
//! (key inline, registered key, committee) and the scheme, and sign the standard payload. Its
//! signature is verified when the extrinsic is checked, before any transaction extension runs,
//! and then dropped, so this type does what no extension can:
//!
//! - **charges the signature** by its form and scheme ([`SignatureCheck::weight`]), added to the
//!   extension weight of the dispatch info the transaction pool, the fee and `CheckWeight` use
//!   (FRAME's answer, a base extrinsic weight covering the costliest signature, would charge an
//!   Ed25519 transfer many times its cost), and **its bytes**
//!   ([`Config::WeightPerExtrinsicByte`]: a 7 KB transaction costs a block's import more than a
//!   150-byte one, beyond any benchmark of its call or signature);
//! - **refuses cheaply first**: what its dispatch class cannot carry, the account's key rule,
//!   the registry, the committee and whether the sender can pay, before the payload is encoded,
//!   a share read or a key decoded;
//! - **verifies by form**: a registered key or a committee's aggregate key is on chain, which
//!   `sp_runtime::traits::Verify` cannot read.
//!
//! Format-5 extrinsics, general or bare, are refused
//! ([`PqInvalidTransaction::GeneralTransaction`]); format-4 bare extrinsics (inherents) pass as
//! usual. A runtime declares it in a line ([`Extrinsic`] shows
//! the test runtime's).

use crate::{
	authorization::{authorize, derivation_weight, FeeCheck, SignatureCheck},
	invalid_transaction::PqInvalidTransaction,
	Config,
};
use alloc::vec::Vec;
use codec::{
	Compact, CompactLen, Decode, DecodeLimit, DecodeWithMemTracking, Encode, EncodeLike, Input,
	Output,
};
use polkadot_sdk::{
	frame_support::{
		dispatch::{DispatchClass, DispatchInfo, GetDispatchInfo, PostDispatchInfo},
		storage,
		traits::{Get, InherentBuilder, SignedTransactionBuilder},
		weights::Weight,
		MAX_EXTRINSIC_DEPTH,
	},
	frame_system,
	sp_runtime::{
		generic::{self, ExtrinsicFormat, Preamble},
		traits::{
			Applyable, Checkable, DispatchInfoOf, Dispatchable, ExtrinsicCall, ExtrinsicLike,
			ExtrinsicMetadata, LazyExtrinsic, Lookup, PostDispatchInfoOf, TransactionExtension,
		},
		transaction_validity::{
			InvalidTransaction, TransactionSource, TransactionValidity, TransactionValidityError,
		},
		AccountId32, ApplyExtrinsicResultWithInfo, OpaqueExtrinsic, TransactionOutcome,
	},
};
use pq_crypto::{statement::signing_payload, TransactionSignature};
use scale_info::TypeInfo;
// Deprecated for new pallets, but part of the `Applyable` interface this type implements.
#[allow(deprecated)]
use polkadot_sdk::sp_runtime::traits::ValidateUnsigned;
use polkadot_sdk::sp_runtime::{serde, Deserialize, Serialize};

/// The runtime's `UncheckedExtrinsic`, whose bytes and metadata [`Extrinsic`] has.
pub type UncheckedExtrinsic<T, Address, Extension> = generic::UncheckedExtrinsic<
	Address,
	<T as frame_system::Config>::RuntimeCall,
	TransactionSignature,
	Extension,
>;

/// What [`Extrinsic`] checks into, before its signature's weight is added ([`ChargedExtrinsic`]).
pub type CheckedExtrinsic<T, Extension> =
	generic::CheckedExtrinsic<AccountId32, <T as frame_system::Config>::RuntimeCall, Extension>;

/// A runtime's extrinsic: an [`UncheckedExtrinsic`] checked by [`authorize`] and charged by its
/// signature (see the module docs), or the bytes of one that did not decode.
///
/// Runtime API calls decode their arguments before any runtime code runs, and a failure there
/// traps the runtime. Transactions arrive over RPC as length-prefixed bytes the node does not
/// look into, so every such body decodes here — into [`Self::Undecodable`] if it is no extrinsic
/// of this runtime — and `check` refuses it by name
/// ([`PqInvalidTransaction::Undecodable`]): a transaction pool answers garbage with a reason,
/// not a trap. Blocks are decoded strictly ([`LazyExtrinsic`]): a block carrying such bytes is
/// invalid.
///
/// A runtime declares it with its address type and transaction extensions; the test runtime's:
#[doc = docify::embed!("src/mock.rs", extrinsic_type)]
#[allow(
	clippy::large_enum_variant,
	reason = "`Decoded` is the common case (boxing it would allocate per extrinsic), and a block \
	          decodes one extrinsic at a time (`LazyExtrinsic`)"
)]
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Extrinsic<T: Config, Address, Extension> {
	/// An extrinsic of this runtime.
	Decoded(UncheckedExtrinsic<T, Address, Extension>),
	/// A body, without its length prefix, that does not decode as an extrinsic of this runtime
	/// (within `MAX_EXTRINSIC_DEPTH` nested calls, using every byte), and the call
	/// [`ExtrinsicCall::call`] answers for it: FRAME asks only bare extrinsics, which this is not.
	Undecodable(Vec<u8>, <T as frame_system::Config>::RuntimeCall),
}

/// The longest block `T` allows, in bytes, for any dispatch class: no extrinsic can be longer,
/// and a block builder filling blocks up to it leaves every class its room.
pub fn longest_block_length<T: frame_system::Config>() -> usize {
	let lengths = <T as frame_system::Config>::BlockLength::get().max;
	DispatchClass::all()
		.iter()
		.map(|class| *lengths.get(*class) as usize)
		.max()
		.unwrap_or(0)
}

impl<T: Config, Address, Extension> Extrinsic<T, Address, Extension>
where
	UncheckedExtrinsic<T, Address, Extension>: Decode,
{
	/// Decodes a body (an encoded extrinsic without its length prefix), as transactions arrive.
	/// One longer than a block is refused unread.
	pub fn from_body(body: Vec<u8>) -> Self {
		match Self::decode_body(&body) {
			Some(extrinsic) => Self::Decoded(extrinsic),
			None => Self::Undecodable(
				body,
				frame_system::Call::<T>::remark { remark: Vec::new() }.into(),
			),
		}
	}

	/// The extrinsic a body encodes, using every byte within `MAX_EXTRINSIC_DEPTH` nested
	/// calls, if it is one of this runtime and no longer than a block.
	fn decode_body(body: &[u8]) -> Option<UncheckedExtrinsic<T, Address, Extension>> {
		if body.len() > longest_block_length::<T>() {
			return None;
		}
		let prefix = Compact(body.len() as u32).encode();
		let mut input = Prefixed { prefix: &prefix, body };
		let extrinsic = UncheckedExtrinsic::<T, Address, Extension>::decode_with_depth_limit(
			MAX_EXTRINSIC_DEPTH,
			&mut input,
		)
		.ok()?;
		(input.prefix.is_empty() && input.body.is_empty()).then_some(extrinsic)
	}
}

/// A length prefix and the body after it, read as one input: the body, up to a block long and
/// decoded twice for each transaction a block applies (the executive decodes its own encoding
/// again), is not copied behind its prefix first.
struct Prefixed<'a> {
	prefix: &'a [u8],
	body: &'a [u8],
}

impl Input for Prefixed<'_> {
	fn remaining_len(&mut self) -> Result<Option<usize>, codec::Error> {
		Ok(Some(self.prefix.len() + self.body.len()))
	}

	fn read(&mut self, into: &mut [u8]) -> Result<(), codec::Error> {
		let (from_prefix, from_body) = into.split_at_mut(into.len().min(self.prefix.len()));
		self.prefix.read(from_prefix)?;
		self.body.read(from_body)
	}
}

impl<T: Config, Address, Extension> Extrinsic<T, Address, Extension> {
	/// The weight of this extrinsic's signature check as its form and scheme are benchmarked:
	/// zero unless it is signed.
	fn signature_weight(&self) -> Weight {
		match self.signature() {
			Some(signature) => SignatureCheck::of(signature).weight::<T::WeightInfo>(),
			None => Weight::zero(),
		}
	}

	/// What checking it charges for its signature: [`Self::signature_weight`] and the account
	/// derivation's length ([`derivation_weight`]), which `check` learns as it binds the account
	/// and this computes again.
	fn charged_signature_weight(&self) -> Weight {
		let candidates = self.signature().map_or(0, TransactionSignature::account_candidates);
		self.signature_weight().saturating_add(derivation_weight::<T>(candidates))
	}

	fn signature(&self) -> Option<&TransactionSignature> {
		match self {
			Self::Decoded(generic::UncheckedExtrinsic {
				preamble: Preamble::Signed(_, signature, _),
				..
			}) => Some(signature),
			Self::Decoded(_) | Self::Undecodable(..) => None,
		}
	}
}

impl<T: Config, Address, Extension> Extrinsic<T, Address, Extension>
where
	UncheckedExtrinsic<T, Address, Extension>: Encode,
{
	/// What this type adds to a decoded extrinsic's dispatch info: its signature's check and
	/// its bytes.
	fn added_weight(&self) -> Weight {
		let length = match self {
			Self::Decoded(extrinsic) => encoded_length(extrinsic),
			Self::Undecodable(..) => 0,
		};
		self.charged_signature_weight().saturating_add(length_weight::<T>(length))
	}
}

impl<T: Config, Address, Extension> From<UncheckedExtrinsic<T, Address, Extension>>
	for Extrinsic<T, Address, Extension>
{
	fn from(extrinsic: UncheckedExtrinsic<T, Address, Extension>) -> Self {
		Self::Decoded(extrinsic)
	}
}

impl<T: Config, Address, Extension> From<Extrinsic<T, Address, Extension>> for OpaqueExtrinsic
where
	Address: Encode,
	Extension: Encode,
{
	fn from(extrinsic: Extrinsic<T, Address, Extension>) -> Self {
		match extrinsic {
			Extrinsic::Decoded(extrinsic) => extrinsic.into(),
			Extrinsic::Undecodable(body, _) => OpaqueExtrinsic::from_blob(body),
		}
	}
}

/// The bytes it was decoded from: an extrinsic's own encoding, or the length-prefixed body.
///
/// The executive encodes every extrinsic it applies, and a transaction is up to 7 KB: this
/// writes the parts straight into one buffer of the right size, where `UncheckedExtrinsic`'s
/// own `encode` builds the body, copies it behind its prefix, and (through `encode_to`) copies it
/// once more (`Encode::encode`'s default reserves nothing without a `size_hint`).
impl<T: Config, Address: Encode, Extension: Encode> Encode for Extrinsic<T, Address, Extension> {
	/// Exact: a decoded extrinsic recorded its length; a built one is counted, not encoded.
	fn size_hint(&self) -> usize {
		match self {
			Self::Decoded(extrinsic) if extrinsic.encoded_len.is_some() => {
				encoded_length(extrinsic)
			},
			Self::Decoded(_) => self.encoded_size(),
			Self::Undecodable(body, _) => with_prefix(body.len()),
		}
	}

	fn encode_to<O: Output + ?Sized>(&self, destination: &mut O) {
		match self {
			Self::Decoded(extrinsic) => encode_extrinsic_to(extrinsic, destination),
			Self::Undecodable(body, _) => body.encode_to(destination),
		}
	}
}

/// Writes `extrinsic` as `UncheckedExtrinsic::encode` does — the compact length of the body,
/// the preamble, the call's bytes as decoded (or its encoding) — without building the body
/// first: its length is counted, not encoded.
fn encode_extrinsic_to<Address, Call, Extension, O>(
	extrinsic: &generic::UncheckedExtrinsic<Address, Call, TransactionSignature, Extension>,
	destination: &mut O,
) where
	Address: Encode,
	Call: Encode,
	Extension: Encode,
	O: Output + ?Sized,
{
	let call_length = match &extrinsic.encoded_call {
		Some(call) => call.len(),
		None => extrinsic.function.encoded_size(),
	};
	let body_length = extrinsic.preamble.encoded_size().saturating_add(call_length);
	// As `UncheckedExtrinsic::encode`, which no body of a block's length reaches, truncates it.
	Compact(body_length as u32).encode_to(destination);
	extrinsic.preamble.encode_to(destination);
	match &extrinsic.encoded_call {
		Some(call) => destination.write(call),
		None => extrinsic.function.encode_to(destination),
	}
}

/// Fails only when the length prefix does: an extrinsic is a length-prefixed byte string.
impl<T: Config, Address, Extension> Decode for Extrinsic<T, Address, Extension>
where
	UncheckedExtrinsic<T, Address, Extension>: Decode,
{
	fn decode<I: Input>(input: &mut I) -> Result<Self, codec::Error> {
		Vec::<u8>::decode(input).map(Self::from_body)
	}
}

// A `Vec<u8>` accounts for its allocation before it makes it.
impl<T: Config, Address, Extension> DecodeWithMemTracking for Extrinsic<T, Address, Extension> where
	UncheckedExtrinsic<T, Address, Extension>: Decode
{
}

impl<T: Config, Address: Encode, Extension: Encode>
	EncodeLike<UncheckedExtrinsic<T, Address, Extension>> for Extrinsic<T, Address, Extension>
{
}

// Wallets and explorers read the extrinsic's type from the metadata: it is the inner one.
impl<T: Config, Address, Extension> TypeInfo for Extrinsic<T, Address, Extension>
where
	UncheckedExtrinsic<T, Address, Extension>: TypeInfo,
{
	type Identity = <UncheckedExtrinsic<T, Address, Extension> as TypeInfo>::Identity;

	fn type_info() -> scale_info::Type {
		UncheckedExtrinsic::<T, Address, Extension>::type_info()
	}
}

/// As [`UncheckedExtrinsic`] serializes: its encoding, in hex.
impl<T: Config, Address: Encode, Extension: Encode> Serialize for Extrinsic<T, Address, Extension> {
	fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
		self.using_encoded(|bytes| polkadot_sdk::sp_core::bytes::serialize(bytes, serializer))
	}
}

impl<'de, T: Config, Address, Extension> Deserialize<'de> for Extrinsic<T, Address, Extension>
where
	UncheckedExtrinsic<T, Address, Extension>: Decode,
{
	fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
		let bytes = polkadot_sdk::sp_core::bytes::deserialize(deserializer)?;
		Self::decode(&mut &bytes[..])
			.map_err(|_| serde::de::Error::custom("an extrinsic is a length-prefixed byte string"))
	}
}

impl<T: Config, Address, Extension> ExtrinsicLike for Extrinsic<T, Address, Extension> {
	fn is_bare(&self) -> bool {
		matches!(self, Self::Decoded(extrinsic) if extrinsic.is_bare())
	}
}

impl<T: Config, Address, Extension> ExtrinsicCall for Extrinsic<T, Address, Extension> {
	type Call = <T as frame_system::Config>::RuntimeCall;

	fn call(&self) -> &Self::Call {
		match self {
			Self::Decoded(extrinsic) => &extrinsic.function,
			Self::Undecodable(_, placeholder) => placeholder,
		}
	}

	fn into_call(self) -> Self::Call {
		match self {
			Self::Decoded(extrinsic) => extrinsic.function,
			Self::Undecodable(_, placeholder) => placeholder,
		}
	}
}

/// The extrinsic format of signed extrinsics (`sp_runtime`'s legacy format, the only one with a
/// signature), and of this runtime's inherents.
const SIGNED_EXTRINSIC_FORMAT: u8 = 4;

/// Format 4 only: every transaction is a signed (v4) extrinsic, so clients never build the
/// general (v5) form this type refuses.
impl<T: Config, Address, Extension> ExtrinsicMetadata for Extrinsic<T, Address, Extension>
where
	UncheckedExtrinsic<T, Address, Extension>: ExtrinsicMetadata,
{
	const VERSIONS: &'static [u8] = &[SIGNED_EXTRINSIC_FORMAT];
	type TransactionExtensionPipelines =
		<UncheckedExtrinsic<T, Address, Extension> as ExtrinsicMetadata>::TransactionExtensionPipelines;
}

/// Blocks are decoded strictly: a block with bytes that are no extrinsic — nested deeper than
/// `MAX_EXTRINSIC_DEPTH` included, which the executive would refuse anyway — is invalid.
impl<T: Config, Address, Extension> LazyExtrinsic for Extrinsic<T, Address, Extension>
where
	UncheckedExtrinsic<T, Address, Extension>: Decode,
{
	fn decode_unprefixed(data: &[u8]) -> Result<Self, codec::Error> {
		Self::decode_body(data)
			.map(Self::Decoded)
			.ok_or_else(|| "the bytes are no extrinsic of this runtime".into())
	}
}

/// Inherents in format 4, the only one the metadata lists.
impl<T: Config, Address, Extension> InherentBuilder for Extrinsic<T, Address, Extension> {
	fn new_inherent(call: Self::Call) -> Self {
		Self::Decoded(UncheckedExtrinsic::<T, Address, Extension>::new_bare_legacy(call))
	}
}

impl<T: Config, Address, Extension> SignedTransactionBuilder for Extrinsic<T, Address, Extension> {
	type Address = Address;
	type Signature = TransactionSignature;
	type Extension = Extension;

	fn new_signed_transaction(
		call: Self::Call,
		signed: Address,
		signature: TransactionSignature,
		extension: Extension,
	) -> Self {
		Self::Decoded(UncheckedExtrinsic::<T, Address, Extension>::new_signed(
			call, signed, signature, extension,
		))
	}
}

/// Charged like the checked extrinsic: a fee estimate (`TransactionPaymentApi::query_info`)
/// over a transaction with a placeholder signature of the same variant and size is the fee.
/// Bytes that are no extrinsic are weighed as a whole block: no transaction can pay that, and
/// the fee estimate has no other way to say so.
impl<T: Config, Address, Extension> GetDispatchInfo for Extrinsic<T, Address, Extension>
where
	UncheckedExtrinsic<T, Address, Extension>: GetDispatchInfo + Encode,
{
	fn get_dispatch_info(&self) -> DispatchInfo {
		match self {
			// What the check will charge (a fee quote over a placeholder signature with the real
			// key is exact).
			Self::Decoded(extrinsic) => {
				with_added_weight(extrinsic.get_dispatch_info(), self.added_weight())
			},
			Self::Undecodable(..) => DispatchInfo {
				call_weight: <T as frame_system::Config>::BlockWeights::get().max_block,
				..Default::default()
			},
		}
	}
}

/// `info` with what this type charges (the signature's verification, the extrinsic's bytes)
/// as part of the extension weight.
fn with_added_weight(mut info: DispatchInfo, added_weight: Weight) -> DispatchInfo {
	info.extension_weight = info.extension_weight.saturating_add(added_weight);
	info
}

/// The weight of an extrinsic's `length` encoded bytes ([`Config::WeightPerExtrinsicByte`]).
fn length_weight<T: Config>(length: usize) -> Weight {
	T::WeightPerExtrinsicByte::get().saturating_mul(length as u64)
}

impl<T, Address, Extension, Context> Checkable<Context> for Extrinsic<T, Address, Extension>
where
	T: Config + Send + Sync,
	<T as frame_system::Config>::RuntimeCall:
		Dispatchable<Info = DispatchInfo, PostInfo = PostDispatchInfo>,
	Extension: TransactionExtension<<T as frame_system::Config>::RuntimeCall>,
	UncheckedExtrinsic<T, Address, Extension>: GetDispatchInfo + Encode,
	Context: Lookup<Source = Address, Target = AccountId32>,
{
	type Checked = ChargedExtrinsic<T, Extension>;

	/// A signed extrinsic is authorized by [`authorize`]: the cheap checks, the fee, then the
	/// signed payload and the verification. A format-5 one is refused; a format-4 bare one
	/// passes.
	fn check(self, context: &Context) -> Result<Self::Checked, TransactionValidityError> {
		let signature_weight = self.signature_weight();
		let extrinsic = match self {
			Self::Decoded(extrinsic) => extrinsic,
			Self::Undecodable(..) => return Err(PqInvalidTransaction::Undecodable.into()),
		};
		// The dispatch info and length the payment extension will see.
		let len = encoded_length(&extrinsic);
		let mut added_weight = signature_weight.saturating_add(length_weight::<T>(len));
		let info = with_added_weight(extrinsic.get_dispatch_info(), added_weight);
		let format = match accepted_format(extrinsic.preamble)? {
			None => ExtrinsicFormat::Bare,
			Some((address, signature, extension)) => {
				fits_the_block::<T>(&info, len)?;
				let who = context.lookup(address)?;
				let call = &extrinsic.function;
				// What every stock client signs: the call as it arrived, the extensions'
				// explicit then implicit data, hashed when longer than 256 bytes.
				let payload = || {
					let implicit = extension.implicit()?;
					let mut payload = match &extrinsic.encoded_call {
						Some(encoded) => encoded.clone(),
						None => call.encode(),
					};
					(&extension, implicit).encode_to(&mut payload);
					Ok(signing_payload(&payload))
				};
				let can_pay = |derivation| {
					T::FeeCheck::can_pay(&who, call, &with_added_weight(info, derivation), len)
				};
				let derivation = authorize::<T>(&who, &signature, payload, can_pay)?;
				added_weight.saturating_accrue(derivation);
				ExtrinsicFormat::Signed(who, extension)
			},
		};
		Ok(ChargedExtrinsic {
			inner: generic::CheckedExtrinsic { format, function: extrinsic.function },
			added_weight,
		})
	}

	/// `try-runtime`'s re-execution of blocks without their signatures.
	#[cfg(feature = "try-runtime")]
	fn unchecked_into_checked_i_know_what_i_am_doing(
		self,
		context: &Context,
	) -> Result<Self::Checked, TransactionValidityError> {
		let added_weight = self.added_weight();
		let Self::Decoded(extrinsic) = self else {
			return Err(PqInvalidTransaction::Undecodable.into());
		};
		let format = match accepted_format(extrinsic.preamble)? {
			None => ExtrinsicFormat::Bare,
			Some((address, _, extension)) => {
				ExtrinsicFormat::Signed(context.lookup(address)?, extension)
			},
		};
		Ok(ChargedExtrinsic {
			inner: generic::CheckedExtrinsic { format, function: extrinsic.function },
			added_weight,
		})
	}
}

/// Refuses a signed transaction that this block has no room for, whatever its signature,
/// before the signature is checked, by `CheckWeight`'s own rules, which would refuse it
/// afterwards ([`InvalidTransaction::ExhaustsResources`]): longer than what is left of its
/// dispatch class's block length, weighing more than its class's `max_extrinsic` (with its
/// length as proof size), or more than what is left of its class's block weight; and one of the
/// `Mandatory` class, which only inherents may have and which the executive refuses to validate
/// ([`InvalidTransaction::MandatoryValidation`]) — signed, it would escape the limits of the
/// other classes. A block author tries transactions from its pool until its deadline once a
/// block is full: each would otherwise cost it a verification before `CheckWeight` refused it.
///
/// The checks are `CheckWeight`'s functions themselves, on the block's length and weight so
/// far, which only grow before `CheckWeight` reads them, and on `info` before any account
/// derivation is charged, which only adds weight: what this refuses, `CheckWeight` would too.
/// The block's weight is checked as `CheckWeight`'s `prepare` checks it, in a storage layer
/// rolled back — `prepare` books it once the signature is verified. Transaction-pool
/// validation starts from an empty block's weight, where `max_extrinsic` implies the rest, as
/// `CheckWeight`'s `validate` assumes.
pub(crate) fn fits_the_block<T: Config + Send + Sync>(
	info: &DispatchInfo,
	len: usize,
) -> Result<(), TransactionValidityError>
where
	<T as frame_system::Config>::RuntimeCall:
		Dispatchable<Info = DispatchInfo, PostInfo = PostDispatchInfo>,
{
	if info.class == DispatchClass::Mandatory {
		return Err(InvalidTransaction::MandatoryValidation.into());
	}
	let (_, next_len) = frame_system::CheckWeight::<T>::do_validate(info, len)?;
	storage::transactional::with_transaction_unchecked(|| {
		TransactionOutcome::Rollback(frame_system::CheckWeight::<T>::do_prepare(
			info, len, next_len,
		))
	})
}

/// The formats a runtime with this extrinsic accepts — format 4, the one its metadata lists:
/// a signed transaction's address, signature and extensions, or `None` for a bare extrinsic (an
/// inherent). Format 5, general or bare, is refused by name.
fn accepted_format<Address, Extension>(
	preamble: Preamble<Address, TransactionSignature, Extension>,
) -> Result<Option<(Address, TransactionSignature, Extension)>, TransactionValidityError> {
	match preamble {
		Preamble::Bare(SIGNED_EXTRINSIC_FORMAT) => Ok(None),
		Preamble::Bare(_) | Preamble::General(..) => {
			Err(PqInvalidTransaction::GeneralTransaction.into())
		},
		Preamble::Signed(address, signature, extension) => {
			Ok(Some((address, signature, extension)))
		},
	}
}

/// The length of `extrinsic`'s encoding with its length prefix, as the payment extension
/// charges it. A decoded extrinsic recorded its body's length, so the transaction — up to a
/// block long — is not encoded again to measure it.
pub(crate) fn encoded_length<Address, Call, Extension>(
	extrinsic: &generic::UncheckedExtrinsic<Address, Call, TransactionSignature, Extension>,
) -> usize
where
	generic::UncheckedExtrinsic<Address, Call, TransactionSignature, Extension>: Encode,
{
	match extrinsic.encoded_len {
		Some(body) => with_prefix(body),
		None => extrinsic.encoded_size(),
	}
}

/// The length of a body of `body` bytes with its compact length prefix.
fn with_prefix(body: usize) -> usize {
	<Compact<u32> as CompactLen<u32>>::compact_len(&(body as u32)) + body
}

/// A checked extrinsic with the weight of the signature it was checked by and of its bytes.
pub struct ChargedExtrinsic<T: Config, Extension> {
	inner: CheckedExtrinsic<T, Extension>,
	added_weight: Weight,
}

impl<T: Config, Extension> ChargedExtrinsic<T, Extension> {
	/// The account a signed extrinsic was authorized for.
	pub fn signer(&self) -> Option<&AccountId32> {
		match &self.inner.format {
			ExtrinsicFormat::Signed(who, _) => Some(who),
			ExtrinsicFormat::Bare | ExtrinsicFormat::General(_) => None,
		}
	}
}

impl<T: Config, Extension> GetDispatchInfo for ChargedExtrinsic<T, Extension>
where
	CheckedExtrinsic<T, Extension>: GetDispatchInfo,
{
	fn get_dispatch_info(&self) -> DispatchInfo {
		with_added_weight(self.inner.get_dispatch_info(), self.added_weight)
	}
}

impl<T: Config, Extension> Applyable for ChargedExtrinsic<T, Extension>
where
	CheckedExtrinsic<T, Extension>: Applyable<Call = <T as frame_system::Config>::RuntimeCall>,
{
	type Call = <T as frame_system::Config>::RuntimeCall;

	#[allow(deprecated)]
	fn validate<V: ValidateUnsigned<Call = Self::Call>>(
		&self,
		source: TransactionSource,
		info: &DispatchInfoOf<Self::Call>,
		len: usize,
	) -> TransactionValidity {
		self.inner.validate::<V>(source, info, len)
	}

	#[allow(deprecated)]
	fn apply<V: ValidateUnsigned<Call = Self::Call>>(
		self,
		info: &DispatchInfoOf<Self::Call>,
		len: usize,
	) -> ApplyExtrinsicResultWithInfo<PostDispatchInfoOf<Self::Call>> {
		self.inner.apply::<V>(info, len)
	}
}
