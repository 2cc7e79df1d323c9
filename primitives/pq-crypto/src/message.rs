//! What a signature is computed over, byte for byte: FIPS 204's formatted message `M′` and
//! Ed25519's prefixed message. Wherever this crate builds either, it builds it here (the
//! RustCrypto and libcrux backends take the context and format `M′` inside their crates).

use alloc::{borrow::Cow, vec::Vec};

/// FIPS 204 Algorithm 2, line 10 / Algorithm 3, line 5: `0 ‖ |ctx|`, the two bytes before the
/// context in `M′`; `None` for a context longer than 255 bytes, which never verifies.
pub fn pure_header(context: &[u8]) -> Option<[u8; 2]> {
	fips204::pure_header(context)
}

/// `M′ = 0 ‖ |ctx| ‖ ctx ‖ M` (FIPS 204 pure mode); `None` for a context over 255 bytes.
pub fn pure_message(context: &[u8], message: &[u8]) -> Option<Vec<u8>> {
	let header = pure_header(context)?;
	Some([&header[..], context, message].concat())
}

/// What Ed25519 signs: `prefix ‖ message` (the prefix is a purpose's domain tag, empty for
/// transactions; see [`crate::Purpose::ed25519_prefix`]).
pub fn ed25519_message<'a>(prefix: &[u8], message: &'a [u8]) -> Cow<'a, [u8]> {
	if prefix.is_empty() {
		Cow::Borrowed(message)
	} else {
		Cow::Owned([prefix, message].concat())
	}
}

#[cfg(test)]
mod tests {
	use super::*;

	#[test]
	fn pure_message_prefixes_the_context_and_its_length() {
		assert_eq!(pure_message(b"ctx", b"msg").unwrap(), b"\x00\x03ctxmsg");
		assert_eq!(pure_message(b"", b"").unwrap(), [0, 0]);
		assert!(pure_message(&[0; 255], b"m").is_some());
		assert!(pure_message(&[0; 256], b"m").is_none());
		assert!(pure_header(&[0; 256]).is_none());
	}

	#[test]
	fn ed25519_message_borrows_an_unprefixed_message() {
		assert!(matches!(ed25519_message(b"", b"msg"), Cow::Borrowed(b"msg")));
		assert_eq!(&*ed25519_message(b"tag", b"msg"), b"tagmsg");
	}
}
