//! Fixed-size byte strings for keys and signatures.
//!
//! Every key and signature of every scheme has one length, so they are SCALE-encoded as raw
//! bytes with no length prefix: decoding reads exactly that many bytes or fails, and can never
//! allocate more than the type's size.
//!
//! In metadata a type longer than [`MAX_DESCRIBED_ARRAY`] bytes is described as consecutive
//! pieces of at most that many (`[u8; 2048]`, …, then the rest): the same bytes on the wire,
//! in a shape that polkadot.js, which refuses longer fixed arrays, and every tool built on it
//! can decode.

/// The longest fixed-size array described in metadata: polkadot.js decodes `[T; N]` only for
/// `N ≤ 2048`.
pub const MAX_DESCRIBED_ARRAY: usize = 2048;

/// Declares a fixed-size byte newtype with SCALE, `TypeInfo` and `MaxEncodedLen` support.
///
/// `TypeInfo` describes it as a tuple of byte arrays of at most [`MAX_DESCRIBED_ARRAY`] bytes
/// each, whose encoding, like the type's, is the raw bytes.
macro_rules! fixed_bytes {
	($(#[$doc:meta])* $name:ident, $len:expr) => {
		$(#[$doc])*
		#[derive(
			Clone,
			PartialEq,
			Eq,
			codec::Encode,
			codec::Decode,
			codec::DecodeWithMemTracking,
			codec::MaxEncodedLen,
		)]
		// Transparent, so `codec::Decode` decodes straight into a destination (`decode_into`):
		// a `Box` of a key or signature is filled in place, not decoded on the stack and moved
		// (a 4.6 KB `memcpy` an ML-DSA-87 signature in Wasm). Layout and encoding unchanged.
		#[repr(transparent)]
		pub struct $name(pub [u8; $len]);

		impl scale_info::TypeInfo for $name {
			type Identity = Self;

			fn type_info() -> scale_info::Type {
				use $crate::bytes::MAX_DESCRIBED_ARRAY;
				let mut pieces = scale_info::build::Fields::unnamed();
				let whole_pieces = $len / MAX_DESCRIBED_ARRAY;
				for _ in 0..whole_pieces {
					pieces = pieces.field(|piece| piece.ty::<[u8; MAX_DESCRIBED_ARRAY]>());
				}
				if $len % MAX_DESCRIBED_ARRAY != 0 {
					pieces = pieces.field(|piece| piece.ty::<[u8; { $len % MAX_DESCRIBED_ARRAY }]>());
				}
				scale_info::Type::builder()
					.path(scale_info::Path::new(stringify!($name), module_path!()))
					.docs(&[concat!(stringify!($len), " raw bytes, described in pieces of at most 2,048 bytes")])
					.composite(pieces)
			}
		}

		impl $name {
			/// The encoded length in bytes.
			pub const LEN: usize = $len;

			/// Copies `bytes` into the type; `None` unless `bytes` has exactly [`Self::LEN`] bytes.
			pub fn from_slice(bytes: &[u8]) -> Option<Self> {
				<[u8; $len]>::try_from(bytes).ok().map(Self)
			}

			/// The raw bytes.
			pub fn as_bytes(&self) -> &[u8; $len] {
				&self.0
			}
		}

		impl From<[u8; $len]> for $name {
			fn from(bytes: [u8; $len]) -> Self {
				Self(bytes)
			}
		}

		impl AsRef<[u8]> for $name {
			fn as_ref(&self) -> &[u8] {
				&self.0
			}
		}

		impl core::fmt::Debug for $name {
			fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
				// Keys and signatures are kilobytes long: show the length and the first bytes.
				write!(f, "{}(", stringify!($name))?;
				for byte in self.0.iter().take(8) {
					write!(f, "{byte:02x}")?;
				}
				write!(f, "…; {} bytes)", $len)
			}
		}
	};
}

pub(crate) use fixed_bytes;
