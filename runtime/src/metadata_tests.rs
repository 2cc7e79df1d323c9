//! The runtime's metadata as clients read it: every version the runtime serves describes each
//! type in a shape polkadot.js and polkadot-api decode, byte for byte as it is encoded.

use crate::Runtime;
use alloc::vec::Vec;
use codec::Encode;
use polkadot_sdk::sp_metadata_ir::{self, frame_metadata::RuntimeMetadata};
use pq_crypto::{keys::*, MAX_DESCRIBED_ARRAY};
use scale_info::{PortableRegistry, TypeDef, TypeDefPrimitive};

/// Each metadata version the runtime serves, decoded: `(version, registry, extrinsic
/// signature type)`; V14 names no signature type.
fn served_metadata() -> Vec<(u32, PortableRegistry, Option<u32>)> {
	let versions = Runtime::metadata_versions();
	assert!(
		versions.contains(&14) && versions.contains(&15) && versions.contains(&16),
		"{versions:?}"
	);
	versions
		.into_iter()
		.map(|version| {
			// What `Metadata_metadata_at_version` encodes; constants such as Aura's slot duration
			// are read from (empty) storage, as a node reads them from its chain's.
			let metadata = polkadot_sdk::sp_io::TestExternalities::default()
				.execute_with(Runtime::metadata_ir);
			let served = sp_metadata_ir::into_version(metadata, version)
				.expect("a listed version is served");
			match served.1 {
				RuntimeMetadata::V14(metadata) => (version, metadata.types, None),
				RuntimeMetadata::V15(metadata) => {
					(version, metadata.types, Some(metadata.extrinsic.signature_ty.id))
				},
				RuntimeMetadata::V16(metadata) => {
					(version, metadata.types, Some(metadata.extrinsic.signature_ty.id))
				},
				other => panic!("unexpected metadata version {}", other.version()),
			}
		})
		.collect()
}

/// The encoded length of every value of type `id`, as the registry describes it, if fixed.
fn described_len(registry: &PortableRegistry, id: u32) -> Option<usize> {
	let ty = &registry.resolve(id).expect("every referenced type is in the registry").type_def;
	match ty {
		TypeDef::Primitive(TypeDefPrimitive::U8) => Some(1),
		TypeDef::Array(array) => {
			Some(array.len as usize * described_len(registry, array.type_param.id)?)
		},
		TypeDef::Composite(composite) => {
			composite.fields.iter().map(|field| described_len(registry, field.ty.id)).sum()
		},
		_ => None,
	}
}

fn type_id_by_path(registry: &PortableRegistry, path: &[&str]) -> u32 {
	registry
		.types
		.iter()
		.find(|ty| ty.ty.path.segments == path)
		.unwrap_or_else(|| panic!("{} is in the metadata", path.join("::")))
		.id
}

/// polkadot.js refuses `[T; N]` for `N > 2048`, and then cannot connect at all.
#[test]
fn no_fixed_array_is_longer_than_polkadot_js_decodes() {
	for (version, registry, _) in served_metadata() {
		for ty in &registry.types {
			if let TypeDef::Array(array) = &ty.ty.type_def {
				assert!(
					array.len as usize <= MAX_DESCRIBED_ARRAY,
					"V{version}: type {} is [_; {}]",
					ty.id,
					array.len
				);
			}
		}
	}
}

/// The pieces a key or signature is described in add up to exactly its bytes, so a client
/// decoding by the metadata reads what the runtime encodes.
#[test]
fn keys_and_signatures_are_described_as_exactly_their_bytes() {
	fn check<T: Encode>(registry: &PortableRegistry, name: &str, value: T, len: usize) {
		assert_eq!(value.encode().len(), len, "{name} encodes as its raw bytes");
		let id = type_id_by_path(registry, &["pq_crypto", "keys", name]);
		assert_eq!(described_len(registry, id), Some(len), "{name}");
	}
	for (_, registry, _) in served_metadata() {
		check(&registry, "Ed25519Signature", Ed25519Signature([7; 64]), Ed25519Signature::LEN);
		check(&registry, "MlDsa44Public", MlDsa44Public([7; 1312]), MlDsa44Public::LEN);
		check(&registry, "MlDsa44Signature", MlDsa44Signature([7; 2420]), MlDsa44Signature::LEN);
		check(&registry, "MlDsa65Public", MlDsa65Public([7; 1952]), MlDsa65Public::LEN);
		check(&registry, "MlDsa65Signature", MlDsa65Signature([7; 3309]), MlDsa65Signature::LEN);
		check(&registry, "MlDsa87Public", MlDsa87Public([7; 2592]), MlDsa87Public::LEN);
		check(&registry, "MlDsa87Signature", MlDsa87Signature([7; 4627]), MlDsa87Signature::LEN);
	}
}

/// The extrinsic's signature type is the form-and-scheme enum, its classical variants where
/// `sp_runtime::MultiSignature` has them, so stock clients read the form from the metadata.
#[test]
fn the_extrinsic_signature_is_described_as_the_signature_enum() {
	for (version, registry, signature_ty) in served_metadata() {
		let Some(signature_ty) = signature_ty else { continue };
		let ty = registry.resolve(signature_ty).unwrap();
		assert_eq!(
			ty.path.segments,
			["pq_crypto", "transaction", "TransactionSignature"],
			"V{version}"
		);
		let TypeDef::Variant(variants) = &ty.type_def else { panic!("V{version}: an enum") };
		let names: Vec<_> = variants
			.variants
			.iter()
			.map(|variant| (variant.index, variant.name.as_str()))
			.collect();
		assert_eq!(
			names,
			[
				(0, "Ed25519"),
				(1, "Sr25519"),
				(2, "Ecdsa"),
				(3, "MlDsa44"),
				(4, "MlDsa65"),
				(5, "MlDsa87"),
				(6, "MlDsa44Registered"),
				(7, "MlDsa65Registered"),
				(8, "MlDsa87Registered"),
				(9, "Committee"),
			],
			"V{version}"
		);
	}
}

/// Stock clients learn the extensions from the metadata: every one is FRAME's, none this
/// project's, and only format 4 is listed, the one every transaction uses.
#[test]
fn the_extrinsic_is_format_4_with_stock_extensions_only() {
	let metadata =
		polkadot_sdk::sp_io::TestExternalities::default().execute_with(Runtime::metadata_ir);
	assert_eq!(metadata.extrinsic.versions, [4]);
	let identifiers: Vec<_> = metadata
		.extrinsic
		.extensions_in_versions
		.iter()
		.map(|extension| extension.identifier)
		.collect();
	assert_eq!(
		identifiers,
		[
			"CheckNonZeroSender",
			"CheckSpecVersion",
			"CheckTxVersion",
			"CheckGenesis",
			"CheckMortality",
			"CheckNonce",
			"CheckWeight",
			"ChargeTransactionPayment",
			"WeightReclaim",
		]
	);
}
