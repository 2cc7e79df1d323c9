//! The runtime's extrinsic type: [`UncheckedExtrinsic`], byte for byte, whose dispatch info
//! also charges an ordinary signed extrinsic's own signature — by its scheme.
//!
//! An ordinary signed extrinsic's signature is verified when the extrinsic is checked, before
//! any transaction extension runs, and is then dropped: no extension can see which scheme
//! signed, so none can charge for it. FRAME's answer is a base extrinsic weight that covers
//! the most expensive signature, which here (ML-DSA-87 with its key) would charge every
//! Ed25519 transfer five times its cost and every key-inline transaction twice. Instead, this
//! type reads the signature's scheme before checking, and adds that scheme's benchmarked
//! verification weight (`WeightInfo::verify_signed_*`) to the extension weight of the checked
//! extrinsic — the dispatch info the transaction pool, the fee and `CheckWeight` all use. The
//! general forms are charged by `AuthorizePq`, bare extrinsics nothing. Wallets see no
//! difference: the encoding, the metadata and every signed payload are
//! [`UncheckedExtrinsic`]'s.

use crate::{configs::PqVerifierWeights, AccountId, Address, RuntimeCall, Signature, TxExtension, UncheckedExtrinsic};
use codec::{Decode, DecodeWithMemTracking, Encode, EncodeLike};
use pallet_pq_verifier::SignatureCheck;
use polkadot_sdk::{
	frame_support::{
		dispatch::{DispatchInfo, GetDispatchInfo},
		traits::{InherentBuilder, SignedTransactionBuilder},
		weights::Weight,
	},
	sp_runtime::{
		generic::{self, Preamble},
		traits::{
			Applyable, Checkable, DispatchInfoOf, ExtrinsicCall, ExtrinsicLike, ExtrinsicMetadata, LazyExtrinsic,
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
/// signature's verification weight (see the module docs).
#[derive(Clone, PartialEq, Eq, Debug, Encode, Decode, DecodeWithMemTracking)]
pub struct RuntimeExtrinsic(pub UncheckedExtrinsic);

impl RuntimeExtrinsic {
	/// The weight of this extrinsic's ordinary signature: zero unless it is signed.
	fn signature_weight(&self) -> Weight {
		match &self.0.preamble {
			Preamble::Signed(_, signature, _) =>
				SignatureCheck::Signed(signature.signed.scheme()).weight::<PqVerifierWeights>(),
			Preamble::General(_) | Preamble::Bare(_) => Weight::zero(),
		}
	}
}

impl From<UncheckedExtrinsic> for RuntimeExtrinsic {
	fn from(extrinsic: UncheckedExtrinsic) -> Self {
		Self(extrinsic)
	}
}

impl From<RuntimeExtrinsic> for OpaqueExtrinsic {
	fn from(extrinsic: RuntimeExtrinsic) -> Self {
		extrinsic.0.into()
	}
}

impl EncodeLike<UncheckedExtrinsic> for RuntimeExtrinsic {}

// Wallets and explorers read the extrinsic's type from the metadata: it is the inner one.
impl TypeInfo for RuntimeExtrinsic {
	type Identity = <UncheckedExtrinsic as TypeInfo>::Identity;

	fn type_info() -> scale_info::Type {
		UncheckedExtrinsic::type_info()
	}
}

impl Serialize for RuntimeExtrinsic {
	fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
		self.0.serialize(serializer)
	}
}

impl<'de> Deserialize<'de> for RuntimeExtrinsic {
	fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
		UncheckedExtrinsic::deserialize(deserializer).map(Self)
	}
}

impl ExtrinsicLike for RuntimeExtrinsic {
	fn is_bare(&self) -> bool {
		self.0.is_bare()
	}
}

impl ExtrinsicCall for RuntimeExtrinsic {
	type Call = RuntimeCall;

	fn call(&self) -> &RuntimeCall {
		self.0.call()
	}

	fn into_call(self) -> RuntimeCall {
		self.0.into_call()
	}
}

impl ExtrinsicMetadata for RuntimeExtrinsic {
	const VERSIONS: &'static [u8] = <UncheckedExtrinsic as ExtrinsicMetadata>::VERSIONS;
	type TransactionExtensionPipelines = <UncheckedExtrinsic as ExtrinsicMetadata>::TransactionExtensionPipelines;
}

impl LazyExtrinsic for RuntimeExtrinsic {
	fn decode_unprefixed(data: &[u8]) -> Result<Self, codec::Error> {
		UncheckedExtrinsic::decode_unprefixed(data).map(Self)
	}
}

impl InherentBuilder for RuntimeExtrinsic {
	fn new_inherent(call: RuntimeCall) -> Self {
		Self(UncheckedExtrinsic::new_inherent(call))
	}
}

impl SignedTransactionBuilder for RuntimeExtrinsic {
	type Address = Address;
	type Signature = Signature;
	type Extension = TxExtension;

	fn new_signed_transaction(call: RuntimeCall, signed: Address, signature: Signature, extension: TxExtension) -> Self {
		Self(UncheckedExtrinsic::new_signed(call, signed, signature, extension))
	}
}

/// Charged like the checked extrinsic (for fee estimates, `TransactionPaymentApi::query_info`).
impl GetDispatchInfo for RuntimeExtrinsic {
	fn get_dispatch_info(&self) -> DispatchInfo {
		with_signature_weight(self.0.get_dispatch_info(), self.signature_weight())
	}
}

/// `info` with the signature's verification charged as part of the extension weight.
fn with_signature_weight(mut info: DispatchInfo, signature_weight: Weight) -> DispatchInfo {
	info.extension_weight = info.extension_weight.saturating_add(signature_weight);
	info
}

impl<Lookup> Checkable<Lookup> for RuntimeExtrinsic
where
	UncheckedExtrinsic: Checkable<Lookup, Checked = CheckedExtrinsic>,
{
	type Checked = ChargedExtrinsic;

	fn check(self, lookup: &Lookup) -> Result<ChargedExtrinsic, TransactionValidityError> {
		let signature_weight = self.signature_weight();
		Ok(ChargedExtrinsic { inner: self.0.check(lookup)?, signature_weight })
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
