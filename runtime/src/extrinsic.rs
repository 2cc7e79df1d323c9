//! The runtime's extrinsic type: [`UncheckedExtrinsic`], byte for byte, whose dispatch info
//! also charges an ordinary signed extrinsic's own signature — by its scheme — and which
//! checks an ordinary signed extrinsic's account and fee before verifying its signature.
//!
//! An ordinary signed extrinsic's signature is verified when the extrinsic is checked, before
//! any transaction extension runs, and is then dropped: no extension can see which scheme
//! signed, so none can charge for it. FRAME's answer is a base extrinsic weight that covers
//! the most expensive signature, which here (ML-DSA-87 with its key) would charge every
//! Ed25519 transfer five times its cost and every key-inline transaction twice. Instead, this
//! type reads the signature's scheme before checking, and adds that scheme's benchmarked
//! verification weight (`WeightInfo::verify_signed_*`) to the extension weight of the checked
//! extrinsic — the dispatch info the transaction pool, the fee and `CheckWeight` all use. The
//! general forms are charged by `AuthorizePq`, bare extrinsics nothing.
//!
//! For the same reason no extension can refuse an ordinary signed extrinsic before its
//! signature is verified, so `check` first runs what `AuthorizePq` runs first for the
//! key-inline form (`pallet_pq_verifier::check_signed_before_verification`): the key may sign
//! for the account (never a classical key for a post-quantum account), the account's key
//! rule, and whether it can pay.
//!
//! Wallets see no difference: the encoding, the metadata and every signed payload are
//! [`UncheckedExtrinsic`]'s.

use crate::{
	configs::{PqVerifierWeights, RuntimeBlockWeights, MAXIMUM_BLOCK_LENGTH},
	AccountId, Address, Runtime, RuntimeCall, Signature, TxExtension, UncheckedExtrinsic,
};
use alloc::vec::Vec;
use codec::{Compact, Decode, DecodeLimit, DecodeWithMemTracking, Encode, EncodeLike, Input, Output};
use pallet_pq_verifier::{check_signed_before_verification, PqInvalidTransaction, SignatureCheck};
use polkadot_sdk::{
	frame_support::{
		dispatch::{DispatchInfo, GetDispatchInfo},
		traits::{InherentBuilder, SignedTransactionBuilder},
		weights::Weight,
		MAX_EXTRINSIC_DEPTH,
	},
	frame_system,
	sp_runtime::{
		generic::{self, Preamble},
		traits::{
			Applyable, Checkable, DispatchInfoOf, ExtrinsicCall, ExtrinsicLike, ExtrinsicMetadata, LazyExtrinsic, Lookup,
			PostDispatchInfoOf,
		},
		transaction_validity::{TransactionSource, TransactionValidity, TransactionValidityError},
		ApplyExtrinsicResultWithInfo, OpaqueExtrinsic,
	},
};
use scale_info::TypeInfo;
// Deprecated for new pallets, but part of the `Applyable` interface this type implements.
#[allow(deprecated)]
use polkadot_sdk::sp_runtime::traits::ValidateUnsigned;
use polkadot_sdk::sp_runtime::{serde, Deserialize, Serialize};

/// What [`RuntimeExtrinsic`] checks into.
pub type CheckedExtrinsic = generic::CheckedExtrinsic<AccountId, RuntimeCall, TxExtension>;

/// The runtime's extrinsic: an [`UncheckedExtrinsic`] whose dispatch info includes its ordinary
/// signature's verification weight (see the module docs), or the bytes of one that did not
/// decode.
///
/// Runtime API calls decode their arguments before any runtime code runs, and a failure there
/// traps the runtime. Transactions arrive over RPC as length-prefixed bytes the node does not
/// look into, so every such body decodes here — into [`Self::Undecodable`] if it is no extrinsic
/// of this runtime — and `check` refuses it by name
/// ([`PqInvalidTransaction::Undecodable`]): a transaction pool answers garbage with a reason,
/// not a trap. Blocks are decoded strictly ([`LazyExtrinsic`]): a block carrying such bytes is
/// invalid.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum RuntimeExtrinsic {
	/// An extrinsic of this runtime.
	Decoded(UncheckedExtrinsic),
	/// A body, without its length prefix, that does not decode as an extrinsic of this runtime
	/// (within `MAX_EXTRINSIC_DEPTH` nested calls, using every byte).
	Undecodable(Vec<u8>),
}

/// What [`ExtrinsicCall::call`] answers for bytes that carry no call; FRAME asks only bare
/// extrinsics, which [`RuntimeExtrinsic::Undecodable`] is not.
static NO_CALL: RuntimeCall = RuntimeCall::System(frame_system::Call::remark { remark: Vec::new() });

impl RuntimeExtrinsic {
	/// Decodes a body (an encoded extrinsic without its length prefix), as transactions arrive.
	/// One longer than a block is refused unread.
	pub fn from_body(body: Vec<u8>) -> Self {
		if body.len() > MAXIMUM_BLOCK_LENGTH as usize {
			return Self::Undecodable(body);
		}
		let mut prefixed = Compact(body.len() as u32).encode();
		prefixed.extend_from_slice(&body);
		match UncheckedExtrinsic::decode_all_with_depth_limit(MAX_EXTRINSIC_DEPTH, &mut &prefixed[..]) {
			Ok(extrinsic) => Self::Decoded(extrinsic),
			Err(_) => Self::Undecodable(body),
		}
	}

	/// The weight of this extrinsic's ordinary signature: zero unless it is signed.
	fn signature_weight(&self) -> Weight {
		match self {
			Self::Decoded(UncheckedExtrinsic { preamble: Preamble::Signed(_, signature, _), .. }) =>
				SignatureCheck::Signed(signature.signed.scheme()).weight::<PqVerifierWeights>(),
			Self::Decoded(_) | Self::Undecodable(_) => Weight::zero(),
		}
	}
}

impl From<UncheckedExtrinsic> for RuntimeExtrinsic {
	fn from(extrinsic: UncheckedExtrinsic) -> Self {
		Self::Decoded(extrinsic)
	}
}

impl From<RuntimeExtrinsic> for OpaqueExtrinsic {
	fn from(extrinsic: RuntimeExtrinsic) -> Self {
		match extrinsic {
			RuntimeExtrinsic::Decoded(extrinsic) => extrinsic.into(),
			RuntimeExtrinsic::Undecodable(body) => OpaqueExtrinsic::from_blob(body),
		}
	}
}

/// The bytes it was decoded from: an extrinsic's own encoding, or the length-prefixed body.
impl Encode for RuntimeExtrinsic {
	fn encode_to<T: Output + ?Sized>(&self, destination: &mut T) {
		match self {
			Self::Decoded(extrinsic) => extrinsic.encode_to(destination),
			Self::Undecodable(body) => body.encode_to(destination),
		}
	}
}

/// Fails only when the length prefix does: an extrinsic is a length-prefixed byte string.
impl Decode for RuntimeExtrinsic {
	fn decode<I: Input>(input: &mut I) -> Result<Self, codec::Error> {
		Vec::<u8>::decode(input).map(Self::from_body)
	}
}

// A `Vec<u8>` accounts for its allocation before it makes it.
impl DecodeWithMemTracking for RuntimeExtrinsic {}

impl EncodeLike<UncheckedExtrinsic> for RuntimeExtrinsic {}

// Wallets and explorers read the extrinsic's type from the metadata: it is the inner one.
impl TypeInfo for RuntimeExtrinsic {
	type Identity = <UncheckedExtrinsic as TypeInfo>::Identity;

	fn type_info() -> scale_info::Type {
		UncheckedExtrinsic::type_info()
	}
}

/// As [`UncheckedExtrinsic`] serializes: its encoding, in hex.
impl Serialize for RuntimeExtrinsic {
	fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
		self.using_encoded(|bytes| polkadot_sdk::sp_core::bytes::serialize(bytes, serializer))
	}
}

impl<'de> Deserialize<'de> for RuntimeExtrinsic {
	fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
		let bytes = polkadot_sdk::sp_core::bytes::deserialize(deserializer)?;
		Self::decode(&mut &bytes[..]).map_err(|_| serde::de::Error::custom("an extrinsic is a length-prefixed byte string"))
	}
}

impl ExtrinsicLike for RuntimeExtrinsic {
	fn is_bare(&self) -> bool {
		matches!(self, Self::Decoded(extrinsic) if extrinsic.is_bare())
	}
}

impl ExtrinsicCall for RuntimeExtrinsic {
	type Call = RuntimeCall;

	fn call(&self) -> &RuntimeCall {
		match self {
			Self::Decoded(extrinsic) => extrinsic.call(),
			Self::Undecodable(_) => &NO_CALL,
		}
	}

	fn into_call(self) -> RuntimeCall {
		match self {
			Self::Decoded(extrinsic) => extrinsic.into_call(),
			Self::Undecodable(_) => NO_CALL.clone(),
		}
	}
}

impl ExtrinsicMetadata for RuntimeExtrinsic {
	const VERSIONS: &'static [u8] = <UncheckedExtrinsic as ExtrinsicMetadata>::VERSIONS;
	type TransactionExtensionPipelines = <UncheckedExtrinsic as ExtrinsicMetadata>::TransactionExtensionPipelines;
}

/// Blocks are decoded strictly: a block with bytes that are no extrinsic — nested deeper than
/// `MAX_EXTRINSIC_DEPTH` included, which the executive would refuse anyway — is invalid.
impl LazyExtrinsic for RuntimeExtrinsic {
	fn decode_unprefixed(data: &[u8]) -> Result<Self, codec::Error> {
		match Self::from_body(data.to_vec()) {
			Self::Undecodable(_) => Err("the bytes are no extrinsic of this runtime".into()),
			decoded => Ok(decoded),
		}
	}
}

impl InherentBuilder for RuntimeExtrinsic {
	fn new_inherent(call: RuntimeCall) -> Self {
		Self::Decoded(UncheckedExtrinsic::new_inherent(call))
	}
}

impl SignedTransactionBuilder for RuntimeExtrinsic {
	type Address = Address;
	type Signature = Signature;
	type Extension = TxExtension;

	fn new_signed_transaction(call: RuntimeCall, signed: Address, signature: Signature, extension: TxExtension) -> Self {
		Self::Decoded(UncheckedExtrinsic::new_signed(call, signed, signature, extension))
	}
}

/// Charged like the checked extrinsic (for fee estimates, `TransactionPaymentApi::query_info`).
/// Bytes that are no extrinsic are weighed as a whole block: no transaction can pay that, and
/// the fee estimate has no other way to say so.
impl GetDispatchInfo for RuntimeExtrinsic {
	fn get_dispatch_info(&self) -> DispatchInfo {
		match self {
			Self::Decoded(extrinsic) => with_signature_weight(extrinsic.get_dispatch_info(), self.signature_weight()),
			Self::Undecodable(_) =>
				DispatchInfo { call_weight: RuntimeBlockWeights::get().max_block, ..Default::default() },
		}
	}
}

/// `info` with the signature's verification charged as part of the extension weight.
fn with_signature_weight(mut info: DispatchInfo, signature_weight: Weight) -> DispatchInfo {
	info.extension_weight = info.extension_weight.saturating_add(signature_weight);
	info
}

impl<Context> Checkable<Context> for RuntimeExtrinsic
where
	UncheckedExtrinsic: Checkable<Context, Checked = CheckedExtrinsic>,
	Context: Lookup<Source = Address, Target = AccountId>,
{
	type Checked = ChargedExtrinsic;

	/// An ordinary signed extrinsic gets the cheap checks first — the key may sign for the
	/// account, the account's key rule, the fee — and only then is its signature verified (by
	/// the inner extrinsic's check); see `pallet_pq_verifier::check_signed_before_verification`.
	fn check(self, context: &Context) -> Result<ChargedExtrinsic, TransactionValidityError> {
		let signature_weight = self.signature_weight();
		let extrinsic = match self {
			Self::Decoded(extrinsic) => extrinsic,
			Self::Undecodable(_) => return Err(PqInvalidTransaction::Undecodable.into()),
		};
		if let Preamble::Signed(address, signature, _) = &extrinsic.preamble {
			let who = context.lookup(address.clone())?;
			// The dispatch info and length the payment extension will see.
			let info = with_signature_weight(extrinsic.get_dispatch_info(), signature_weight);
			let len = extrinsic.encoded_size();
			check_signed_before_verification::<Runtime>(&who, &signature.signed, &extrinsic.function, &info, len)?;
		}
		Ok(ChargedExtrinsic { inner: extrinsic.check(context)?, signature_weight })
	}

	/// `try-runtime`'s re-execution of blocks without their signatures.
	#[cfg(feature = "try-runtime")]
	fn unchecked_into_checked_i_know_what_i_am_doing(
		self,
		context: &Context,
	) -> Result<ChargedExtrinsic, TransactionValidityError> {
		let signature_weight = self.signature_weight();
		let Self::Decoded(extrinsic) = self else { return Err(PqInvalidTransaction::Undecodable.into()) };
		Ok(ChargedExtrinsic { inner: extrinsic.unchecked_into_checked_i_know_what_i_am_doing(context)?, signature_weight })
	}
}

/// A checked extrinsic with the weight of the signature it was checked by.
pub struct ChargedExtrinsic {
	inner: CheckedExtrinsic,
	signature_weight: Weight,
}

impl GetDispatchInfo for ChargedExtrinsic {
	fn get_dispatch_info(&self) -> DispatchInfo {
		with_signature_weight(self.inner.get_dispatch_info(), self.signature_weight)
	}
}

impl Applyable for ChargedExtrinsic {
	type Call = RuntimeCall;

	#[allow(deprecated)]
	fn validate<V: ValidateUnsigned<Call = RuntimeCall>>(
		&self,
		source: TransactionSource,
		info: &DispatchInfoOf<RuntimeCall>,
		len: usize,
	) -> TransactionValidity {
		self.inner.validate::<V>(source, info, len)
	}

	#[allow(deprecated)]
	fn apply<V: ValidateUnsigned<Call = RuntimeCall>>(
		self,
		info: &DispatchInfoOf<RuntimeCall>,
		len: usize,
	) -> ApplyExtrinsicResultWithInfo<PostDispatchInfoOf<RuntimeCall>> {
		self.inner.apply::<V>(info, len)
	}
}
