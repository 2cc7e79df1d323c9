//! ML-DSA through `libcrux-ml-dsa`, formally verified code from Cryspen.
//!
//! Only the crate's top-level functions are called: they pick the AVX2 code at run time on
//! x86-64 CPUs that have it and the portable code elsewhere (including Wasm). The AVX2 code is
//! compiled in only with the crate's `simd256` feature, which this crate enables on x86-64;
//! [`Libcrux::simd_engaged`] reports whether it is in use, so benchmarks can show it.
//!
//! libcrux exposes no decoded-key type: every verification re-derives `Â`, `NTT(t1·2^d)` and
//! `tr` from the encoded key. Its "decoded key" is the encoded key, and caching it saves nothing.

use super::{ed25519_via_strict_rule, Backend, MlDsaVerifier};
use crate::params::{MlDsa44, MlDsa65, MlDsa87, MlDsaParams};

// Fails to compile if an x86-64 build lacks libcrux's AVX2 code (the `simd256` feature): the
// module exists only then. Named, never called — the top-level functions dispatch to it.
#[cfg(target_arch = "x86_64")]
#[allow(unused_imports)]
use libcrux_ml_dsa::{ml_dsa_44::avx2 as _, ml_dsa_65::avx2 as _, ml_dsa_87::avx2 as _};

/// The `libcrux-ml-dsa` backend.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, scale_info::TypeInfo)]
pub struct Libcrux;

impl Libcrux {
	/// Whether verification runs the AVX2 code: compiled in (always on x86-64, checked at
	/// compile time above), and supported by this CPU.
	pub fn simd_engaged() -> bool {
		cfg!(target_arch = "x86_64") && libcrux_platform::simd256_support()
	}
}

macro_rules! libcrux_level {
	($ours:ty, $module:ident, $key:ident, $signature:ident) => {
		impl MlDsaVerifier<$ours> for Libcrux {
			type DecodedKey = libcrux_ml_dsa::$module::$key;
			const DECODED_KEY_BYTES: usize = core::mem::size_of::<libcrux_ml_dsa::$module::$key>();

			fn decode_key(public: &<$ours as MlDsaParams>::Public) -> Self::DecodedKey {
				libcrux_ml_dsa::$module::$key::new(public.0)
			}

			fn verify_decoded(
				key: &Self::DecodedKey,
				message: &[u8],
				context: &[u8],
				signature: &<$ours as MlDsaParams>::Signature,
			) -> bool {
				let signature = libcrux_ml_dsa::$module::$signature::new(signature.0);
				libcrux_ml_dsa::$module::verify(key, message, context, &signature).is_ok()
			}

			fn verify_internal(
				key: &Self::DecodedKey,
				message: &[u8],
				signature: &<$ours as MlDsaParams>::Signature,
			) -> bool {
				let signature = libcrux_ml_dsa::$module::$signature::new(signature.0);
				libcrux_ml_dsa::$module::verify_internal(key, message, &signature).is_ok()
			}
		}
	};
}

libcrux_level!(MlDsa44, ml_dsa_44, MLDSA44VerificationKey, MLDSA44Signature);
libcrux_level!(MlDsa65, ml_dsa_65, MLDSA65VerificationKey, MLDSA65Signature);
libcrux_level!(MlDsa87, ml_dsa_87, MLDSA87VerificationKey, MLDSA87Signature);
ed25519_via_strict_rule!(Libcrux);

impl Backend for Libcrux {
	const NAME: &'static str = "libcrux";
}
