//! Fixed-size byte strings for keys and signatures.
//!
//! Every key and signature of every scheme has one length, so they are SCALE-encoded as raw
//! bytes with no length prefix: decoding reads exactly that many bytes or fails, and can never
//! allocate more than the type's size.

/// Declares a fixed-size byte newtype with SCALE, `TypeInfo` and `MaxEncodedLen` support.
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
			scale_info::TypeInfo,
		)]
		pub struct $name(pub [u8; $len]);

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
