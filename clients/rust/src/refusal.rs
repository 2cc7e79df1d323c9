//! A node's refusal of a transaction or request, with the pallet's reasons named.

use pallet_pq_verifier::PqInvalidTransaction;
use std::fmt;

/// The node refused a transaction or request, with the reason it gave.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
	/// The JSON-RPC error code (1010: invalid transaction; 1012: already seen; 1040: does not decode; …).
	pub code: i32,
	/// The node's message and details, with the pallet's custom codes named.
	pub reason: String,
}

impl Refusal {
	/// A JSON-RPC error's code, message and data; `Custom error: N` in the data is named after
	/// [`PqInvalidTransaction`] when `N` is one of its codes.
	pub fn from_rpc_error(code: i32, message: &str, data: Option<&str>) -> Self {
		// The data is a JSON value: usually a string, which reads better unquoted.
		let data = data
			.map(|data| serde_json::from_str::<String>(data).unwrap_or_else(|_| data.to_owned()));
		let named = data.as_deref().map(|data| {
			let code = data.strip_prefix("Custom error: ").and_then(|code| code.parse().ok());
			match code.and_then(PqInvalidTransaction::from_code) {
				Some(reason) => format!("{reason:?}"),
				None => data.to_owned(),
			}
		});
		let reason = match named {
			Some(detail) => format!("{message}: {detail}"),
			None => message.to_owned(),
		};
		Refusal { code, reason }
	}
}

impl fmt::Display for Refusal {
	fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
		write!(
			f,
			"the node refused the transaction (JSON-RPC error {}): {}",
			self.code, self.reason
		)
	}
}

impl std::error::Error for Refusal {}

#[cfg(test)]
mod tests {
	use super::*;

	#[test]
	fn the_pallets_custom_codes_are_named() {
		let refusal =
			Refusal::from_rpc_error(1010, "Invalid Transaction", Some("\"Custom error: 10\""));
		assert_eq!(refusal.reason, "Invalid Transaction: ClassicalSignature");
		let other = Refusal::from_rpc_error(
			1010,
			"Invalid Transaction",
			Some("\"Transaction has a bad signature\""),
		);
		assert_eq!(other.reason, "Invalid Transaction: Transaction has a bad signature");
		assert_eq!(
			Refusal::from_rpc_error(1012, "Already imported", None).reason,
			"Already imported"
		);
	}
}
