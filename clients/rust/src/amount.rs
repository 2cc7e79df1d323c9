//! Amounts in a chain's token, as people type and read them: `1.5` with the token's decimals.

use anyhow::{anyhow, bail};

/// A chain's token as its chain spec names it (`tokenSymbol`, `tokenDecimals`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token {
	/// What amounts are shown in: `UNIT` on this repository's chains.
	pub symbol: String,
	/// How many decimals a whole token has: 1 token = 10^decimals of the smallest unit.
	pub decimals: u32,
}

impl Token {
	/// The token of this repository's chains: `UNIT`, 12 decimals.
	pub fn unit() -> Self {
		Token { symbol: "UNIT".into(), decimals: 12 }
	}

	fn one(&self) -> anyhow::Result<u128> {
		10u128
			.checked_pow(self.decimals)
			.ok_or_else(|| anyhow!("{} decimals are more than a u128 holds", self.decimals))
	}

	/// The token a chain's properties (`system_properties`) name: `tokenSymbol` and
	/// `tokenDecimals`, each a value or a list whose first is the native token's. A chain
	/// without them shows amounts in its smallest unit; `tokenDecimals` that is not a whole
	/// number of decimals is an error, not 0 — every amount typed would be read as that many
	/// smallest units. A symbol is shown beside every amount before it is sent: one with control
	/// characters (a carriage return, an escape sequence) could redraw the amount and recipient
	/// shown, so only a short printable ASCII one is taken.
	pub fn from_properties(
		properties: &serde_json::Map<String, serde_json::Value>,
	) -> anyhow::Result<Self> {
		let native = |name: &str| {
			properties.get(name).map(|value| match value.as_array() {
				Some(tokens) => tokens.first().cloned().unwrap_or_default(),
				None => value.clone(),
			})
		};
		let symbol = native("tokenSymbol")
			.and_then(|symbol| symbol.as_str().map(str::to_owned))
			.filter(|symbol| {
				(1..=12).contains(&symbol.len())
					&& symbol.bytes().all(|byte| byte.is_ascii_graphic())
			});
		let decimals = match native("tokenDecimals") {
			None => 0,
			Some(decimals) => decimals
				.as_u64()
				.and_then(|decimals| u32::try_from(decimals).ok())
				// Not echoed: the chain's text could redraw the terminal, as a symbol could.
				.ok_or_else(|| {
					anyhow!(
						"the chain's `tokenDecimals` property is not a whole number of decimals \
						 (0 to 2^32 - 1): amounts cannot be read"
					)
				})?,
		};
		Ok(Token { symbol: symbol.unwrap_or_else(|| "(no symbol)".into()), decimals })
	}

	/// Parses `12`, `0.5` or `1_000.000001` tokens into the smallest unit.
	pub fn parse(&self, text: &str) -> anyhow::Result<u128> {
		Amount::parse(text)?.in_smallest_unit(self)
	}

	/// Formats an amount of the smallest unit without trailing zeros: `1.5 UNIT`.
	pub fn format(&self, planck: u128) -> String {
		let Ok(one) = self.one() else {
			return format!("{planck} (smallest unit) {}", self.symbol);
		};
		let (whole, fraction) = (planck / one, planck % one);
		if fraction == 0 {
			return format!("{whole} {}", self.symbol);
		}
		let fraction = format!("{fraction:0width$}", width = self.decimals as usize);
		format!("{whole}.{} {}", fraction.trim_end_matches('0'), self.symbol)
	}
}

/// An amount as typed — `12`, `0.5`, `1_000.000001` — checked before any chain says how many
/// decimals its token has.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Amount {
	text: String,
	whole: u128,
	/// The digits after the point, as typed.
	fraction: String,
}

impl Amount {
	/// Reads a decimal amount.
	pub fn parse(text: &str) -> anyhow::Result<Self> {
		let digits = text.replace('_', "");
		let (whole, fraction) = digits.split_once('.').unwrap_or((&digits, ""));
		if whole.is_empty() && fraction.is_empty() {
			bail!("`{text}` is not an amount");
		}
		if !whole.bytes().chain(fraction.bytes()).all(|byte| byte.is_ascii_digit()) {
			bail!("`{text}` is not a decimal amount");
		}
		let whole = if whole.is_empty() {
			0
		} else {
			whole.parse().map_err(|_| anyhow!("`{text}` is too large"))?
		};
		Ok(Amount { text: text.to_owned(), whole, fraction: fraction.to_owned() })
	}

	/// The amount in `token`'s smallest unit; refused with more decimals than the token has.
	pub fn in_smallest_unit(&self, token: &Token) -> anyhow::Result<u128> {
		let (text, decimals) = (&self.text, token.decimals as usize);
		let one = token.one()?;
		if self.fraction.len() > decimals {
			bail!("`{text}` has more than {decimals} decimals");
		}
		let fraction = if self.fraction.is_empty() {
			0
		} else {
			self.fraction.parse::<u128>().map_err(|_| anyhow!("`{text}` is too large"))?
		};
		// Below `one`, which fits: the fraction has at most `decimals` digits.
		let fraction = fraction * 10u128.pow((decimals - self.fraction.len()) as u32);
		self.whole
			.checked_mul(one)
			.and_then(|planck| planck.checked_add(fraction))
			.ok_or_else(|| anyhow!("`{text}` is too large"))
	}
}

#[cfg(test)]
mod tests {
	use super::*;

	const UNIT: u128 = 1_000_000_000_000;

	#[test]
	fn parses_whole_and_fractional_amounts() {
		let token = Token::unit();
		assert_eq!(token.parse("12").unwrap(), 12 * UNIT);
		assert_eq!(token.parse("0.5").unwrap(), UNIT / 2);
		assert_eq!(token.parse(".000000000001").unwrap(), 1);
		assert_eq!(token.parse("1_000").unwrap(), 1_000 * UNIT);
		assert_eq!(
			Token { symbol: "DOT".into(), decimals: 10 }.parse("1.5").unwrap(),
			15_000_000_000
		);
	}

	#[test]
	fn malformed_amounts_are_refused_before_any_token_is_known() {
		for text in ["", ".", "-1", "1e3", "1.2.3", "999999999999999999999999999999999999999999"] {
			assert!(Amount::parse(text).is_err(), "{text}");
		}
		assert!(
			Amount::parse("0.0000000000001").is_ok(),
			"only a token's decimals limit the fraction"
		);
	}

	#[test]
	fn refuses_what_is_not_an_amount() {
		for text in
			["", ".", "-1", "1e3", "0.0000000000001", "1.2.3", "999999999999999999999999999999"]
		{
			assert!(Token::unit().parse(text).is_err(), "{text}");
		}
		assert!(
			Token { symbol: "X".into(), decimals: 40 }.parse("1").is_err(),
			"10^40 does not fit"
		);
	}

	fn token_of(properties: serde_json::Value) -> anyhow::Result<Token> {
		Token::from_properties(properties.as_object().unwrap())
	}

	#[test]
	fn a_token_is_read_from_the_chains_properties() {
		let token = |symbol: &str, decimals| Token { symbol: symbol.into(), decimals };
		let cases = [
			(serde_json::json!({"tokenSymbol": "UNIT", "tokenDecimals": 12}), token("UNIT", 12)),
			(
				serde_json::json!({"tokenSymbol": ["DOT", "X"], "tokenDecimals": [10, 3]}),
				token("DOT", 10),
			),
			(serde_json::json!({}), token("(no symbol)", 0)),
			(
				serde_json::json!({"tokenSymbol": "U\rNIT", "tokenDecimals": 0}),
				token("(no symbol)", 0),
			),
			(serde_json::json!({"tokenSymbol": "ABCDEFGHIJKLM"}), token("(no symbol)", 0)),
		];
		for (properties, expected) in cases {
			assert_eq!(token_of(properties.clone()).unwrap(), expected, "{properties}");
		}
	}

	/// Read as 0 decimals, a malformed `tokenDecimals` made `10` mean ten of the smallest unit.
	#[test]
	fn malformed_token_decimals_are_refused_not_read_as_zero() {
		for decimals in [
			serde_json::json!("12"),
			serde_json::json!(-1),
			serde_json::json!(1.5),
			serde_json::json!(4_294_967_296u64),
			serde_json::json!(null),
			serde_json::json!([]),
			serde_json::json!(["12"]),
		] {
			let refusal = token_of(serde_json::json!({"tokenDecimals": decimals})).unwrap_err();
			assert!(refusal.to_string().contains("`tokenDecimals`"), "{decimals}: {refusal}");
		}
	}

	#[test]
	fn formats_without_trailing_zeros_and_round_trips() {
		let token = Token::unit();
		assert_eq!(token.format(1_500_000_000_000), "1.5 UNIT");
		assert_eq!(token.format(7 * UNIT), "7 UNIT");
		assert_eq!(token.format(1), "0.000000000001 UNIT");
		for planck in [0, 1, 123_456_789, 42 * UNIT + 7] {
			assert_eq!(
				token.parse(token.format(planck).trim_end_matches(" UNIT")).unwrap(),
				planck
			);
		}
	}
}
