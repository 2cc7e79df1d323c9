//! Amounts in UNIT, the dev chain's token (12 decimals), as people type and read them.

use anyhow::{anyhow, bail};
use pq_runtime::{Balance, UNIT};

const DECIMALS: usize = 12;

/// Parses `12`, `0.5` or `1_000.000001` UNIT into planck.
pub fn parse(text: &str) -> anyhow::Result<Balance> {
	let digits = text.replace('_', "");
	let (whole, fraction) = digits.split_once('.').unwrap_or((&digits, ""));
	if whole.is_empty() && fraction.is_empty() {
		bail!("`{text}` is not an amount");
	}
	if fraction.len() > DECIMALS {
		bail!("`{text}` has more than {DECIMALS} decimals");
	}
	let number = |part: &str| -> anyhow::Result<Balance> {
		if part.is_empty() {
			return Ok(0);
		}
		if !part.bytes().all(|byte| byte.is_ascii_digit()) {
			bail!("`{text}` is not a decimal amount");
		}
		part.parse().map_err(|_| anyhow!("`{text}` is too large"))
	};
	let fraction_planck = number(fraction)? * 10u128.pow((DECIMALS - fraction.len()) as u32);
	number(whole)?
		.checked_mul(UNIT)
		.and_then(|planck| planck.checked_add(fraction_planck))
		.ok_or_else(|| anyhow!("`{text}` is too large"))
}

/// Formats planck as UNIT without trailing zeros: `1.5 UNIT`.
pub fn format(planck: Balance) -> String {
	let whole = planck / UNIT;
	let fraction = planck % UNIT;
	if fraction == 0 {
		return format!("{whole} UNIT");
	}
	let fraction = format!("{fraction:0DECIMALS$}");
	format!("{whole}.{} UNIT", fraction.trim_end_matches('0'))
}

#[cfg(test)]
mod tests {
	use super::*;

	#[test]
	fn parses_whole_and_fractional_amounts() {
		assert_eq!(parse("12").unwrap(), 12 * UNIT);
		assert_eq!(parse("0.5").unwrap(), UNIT / 2);
		assert_eq!(parse(".000000000001").unwrap(), 1);
		assert_eq!(parse("1_000").unwrap(), 1_000 * UNIT);
	}

	#[test]
	fn refuses_what_is_not_an_amount() {
		for text in ["", ".", "-1", "1e3", "0.0000000000001", "1.2.3", "999999999999999999999999999999"] {
			assert!(parse(text).is_err(), "{text}");
		}
	}

	#[test]
	fn formats_without_trailing_zeros_and_round_trips() {
		assert_eq!(format(1_500_000_000_000), "1.5 UNIT");
		assert_eq!(format(7 * UNIT), "7 UNIT");
		assert_eq!(format(1), "0.000000000001 UNIT");
		for planck in [0, 1, 123_456_789, 42 * UNIT + 7] {
			assert_eq!(parse(format(planck).trim_end_matches(" UNIT")).unwrap(), planck);
		}
	}
}
