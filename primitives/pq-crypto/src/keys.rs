//! Public keys and signatures of every scheme, each a fixed-size SCALE value.
//!
//! Sizes are those of FIPS 204 Table 2 (ML-DSA) and RFC 8032 (Ed25519).

use crate::bytes::fixed_bytes;

fixed_bytes!(
	/// An Ed25519 public key (RFC 8032, 32 bytes).
	Ed25519Public, 32
);
fixed_bytes!(
	/// An Ed25519 signature (RFC 8032, 64 bytes: `R ‖ S`).
	Ed25519Signature, 64
);
fixed_bytes!(
	/// An ML-DSA-44 public key (FIPS 204 `pkEncode`, 1,312 bytes: `ρ ‖ t1`).
	MlDsa44Public, 1312
);
fixed_bytes!(
	/// An ML-DSA-44 signature (FIPS 204 `sigEncode`, 2,420 bytes: `c̃ ‖ z ‖ h`).
	MlDsa44Signature, 2420
);
fixed_bytes!(
	/// An ML-DSA-65 public key (FIPS 204 `pkEncode`, 1,952 bytes).
	MlDsa65Public, 1952
);
fixed_bytes!(
	/// An ML-DSA-65 signature (FIPS 204 `sigEncode`, 3,309 bytes).
	MlDsa65Signature, 3309
);
fixed_bytes!(
	/// An ML-DSA-87 public key (FIPS 204 `pkEncode`, 2,592 bytes).
	MlDsa87Public, 2592
);
fixed_bytes!(
	/// An ML-DSA-87 signature (FIPS 204 `sigEncode`, 4,627 bytes).
	MlDsa87Signature, 4627
);
fixed_bytes!(
	/// An sr25519 signature, as `sp_runtime::MultiSignature::Sr25519` carries it: decoded so a
	/// stock wallet's signature is refused by name, never verified.
	Sr25519Signature, 64
);
fixed_bytes!(
	/// An ECDSA signature, as `sp_runtime::MultiSignature::Ecdsa` carries it: decoded so a
	/// stock wallet's signature is refused by name, never verified.
	EcdsaSignature, 65
);
