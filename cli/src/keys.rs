//! Keys and accounts as the command line names them.
//!
//! A key is either a key file written by `pq-cli key generate`, or `SCHEME:SURI` with a
//! Substrate secret URI, such as `ml-dsa-65://Alice` (a dev account) or
//! `ed25519:0x<32-byte seed>`. An account is an SS58 address, a 32-byte `0x` hex id, or a key.

use anyhow::{anyhow, bail, Context};
use polkadot_sdk::sp_core::crypto::{AccountId32, PublicError, Ss58Codec};
use pq_crypto::Scheme;
use pq_signer::signing::Keypair;
use serde::{Deserialize, Serialize};
use std::{
	fs,
	io::{Read, Write},
	path::Path,
};

/// The schemes a key can have: every scheme but the committee one.
pub const KEY_SCHEMES: [Scheme; 4] = Scheme::SINGLE_KEY;

/// A key file: the seed is the secret; the rest lets a reader check it and see the account.
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct KeyFile {
	/// `ed25519`, `ml-dsa-44`, `ml-dsa-65` or `ml-dsa-87`.
	pub scheme: String,
	/// The 32-byte seed (FIPS 204 `ξ`, or the RFC 8032 secret key), `0x` hex.
	pub secret_seed: String,
	/// The account the key controls, SS58.
	pub account: String,
}

/// Parses a scheme name as [`Scheme::name`] writes it.
pub fn parse_scheme(name: &str) -> anyhow::Result<Scheme> {
	KEY_SCHEMES.into_iter().find(|scheme| scheme.name() == name).ok_or_else(|| {
		let names: Vec<_> = KEY_SCHEMES.iter().map(|scheme| scheme.name()).collect();
		anyhow!("unknown scheme `{name}`; expected one of {}", names.join(", "))
	})
}

/// A new key from the operating system's randomness, and its key file.
pub fn generate(scheme: Scheme) -> anyhow::Result<(Keypair, KeyFile)> {
	let mut seed = [0u8; 32];
	getrandom::fill(&mut seed)
		.map_err(|error| anyhow!("no randomness from the operating system: {error}"))?;
	let keypair = Keypair::from_seed(scheme, &seed).map_err(|error| anyhow!("{error:?}"))?;
	let file = KeyFile {
		scheme: scheme.name().into(),
		secret_seed: format!("0x{}", hex::encode(seed)),
		account: keypair.account_id().to_ss58check(),
	};
	Ok((keypair, file))
}

/// Writes `file` to `path`, readable by its owner only; never overwrites.
pub fn write_key_file(path: &Path, file: &KeyFile) -> anyhow::Result<()> {
	let mut options = fs::OpenOptions::new();
	options.write(true).create_new(true);
	#[cfg(unix)]
	std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
	let mut out = options
		.open(path)
		.with_context(|| format!("cannot create key file {}", path.display()))?;
	out.write_all(serde_json::to_string_pretty(file)?.as_bytes())?;
	out.write_all(b"\n")?;
	// On disk before the account is printed: an account someone funds must not lose its seed
	// to a crash.
	out.sync_all()
		.with_context(|| format!("cannot write key file {}", path.display()))?;
	Ok(())
}

/// The most a key file is read: a real one is under 300 bytes, and `--from /dev/zero` must not
/// read until memory runs out.
const MAX_KEY_FILE_BYTES: u64 = 64 * 1024;

/// The key named by `spec`: `SCHEME:SURI`, or else a key file path.
pub fn load(spec: &str) -> anyhow::Result<Keypair> {
	if let Some((name, suri)) = spec.split_once(':') {
		if let Ok(scheme) = parse_scheme(name) {
			// The URI is a secret: the error names what is wrong, never the URI itself, which
			// would otherwise reach terminals and CI logs.
			return Keypair::from_suri(scheme, suri)
				.map_err(|error| anyhow!("the {name} secret URI is refused: {error:?}"));
		}
	}
	let path = Path::new(spec);
	if !path.exists() {
		// Not echoed: what was meant as a key file path may be a mistyped secret.
		bail!("a key is neither a key file nor SCHEME:SURI (e.g. ml-dsa-65://Alice)");
	}
	let mut text = String::new();
	fs::File::open(path)
		.and_then(|file| file.take(MAX_KEY_FILE_BYTES + 1).read_to_string(&mut text))
		.with_context(|| format!("cannot read key file {spec}"))?;
	if text.len() as u64 > MAX_KEY_FILE_BYTES {
		bail!("{spec} is longer than a key file ({MAX_KEY_FILE_BYTES} bytes at most)");
	}
	let file: KeyFile =
		serde_json::from_str(&text).with_context(|| format!("{spec} is not a pq-cli key file"))?;
	from_key_file(&file).with_context(|| format!("key file {spec}"))
}

fn from_key_file(file: &KeyFile) -> anyhow::Result<Keypair> {
	let scheme = parse_scheme(&file.scheme)?;
	let seed: [u8; 32] = file
		.secret_seed
		.strip_prefix("0x")
		.and_then(|hex_seed| hex::decode(hex_seed).ok())
		.and_then(|bytes| bytes.try_into().ok())
		.ok_or_else(|| anyhow!("secretSeed is not 32 bytes of 0x hex"))?;
	let keypair = Keypair::from_seed(scheme, &seed).map_err(|error| anyhow!("{error:?}"))?;
	if keypair.account_id().to_ss58check() != file.account {
		bail!(
			"the seed's account is {}, not the file's {}",
			keypair.account_id().to_ss58check(),
			file.account
		);
	}
	Ok(keypair)
}

/// The account named by `spec`: SS58, `0x` hex, or a key as [`load`] takes it.
pub fn account(spec: &str) -> anyhow::Result<AccountId32> {
	let ss58 = match AccountId32::from_ss58check(spec) {
		Ok(account) => return Ok(account),
		// An address with a typo: said so, rather than "not SS58, hex, nor a key".
		Err(PublicError::InvalidChecksum) => {
			bail!("the account is an SS58 address whose checksum does not match: mistyped")
		},
		Err(error) => error,
	};
	if let Some(hex_id) = spec.strip_prefix("0x") {
		let bytes: [u8; 32] = hex::decode(hex_id)
			.ok()
			.and_then(|bytes| bytes.try_into().ok())
			.ok_or_else(|| anyhow!("a 0x account is not a 32-byte account id"))?;
		return Ok(bytes.into());
	}
	// Not echoed: a secret pasted where an address belongs would reach terminals and logs.
	load(spec).map(|keypair| keypair.account_id()).with_context(|| {
		// Base58 of about an address's length (SS58 of a 32-byte account is 47 to 49
		// characters): most likely one with a character dropped or added.
		if ss58 != PublicError::BadBase58 && (44..=52).contains(&spec.len()) {
			"the account is not SS58 of a 32-byte account: a character missing or extra?"
		} else {
			"an account is neither SS58, 0x hex, nor a key"
		}
	})
}

#[cfg(test)]
mod tests {
	use super::*;

	#[test]
	fn generated_key_file_loads_back_as_the_same_key() {
		let dir = tempfile::tempdir().unwrap();
		for scheme in KEY_SCHEMES {
			let (keypair, file) = generate(scheme).unwrap();
			let path = dir.path().join(scheme.name());
			write_key_file(&path, &file).unwrap();
			assert_eq!(load(path.to_str().unwrap()).unwrap().public(), keypair.public());
			assert!(
				write_key_file(&path, &file).is_err(),
				"an existing key file is never overwritten"
			);
		}
	}

	#[test]
	fn secret_uris_name_the_dev_accounts() {
		let alice = load("ml-dsa-65://Alice").unwrap();
		assert_eq!(alice.scheme(), Scheme::MlDsa65);
		assert_eq!(
			alice.account_id(),
			Keypair::from_suri(Scheme::MlDsa65, "//Alice").unwrap().account_id()
		);
	}

	#[test]
	fn accounts_parse_from_every_form() {
		let alice = load("ed25519://Alice").unwrap().account_id();
		assert_eq!(account(&alice.to_ss58check()).unwrap(), alice);
		assert_eq!(account(&format!("0x{}", hex::encode(&alice))).unwrap(), alice);
		assert_eq!(account("ed25519://Alice").unwrap(), alice);
		assert!(account("0x1234").is_err());
		assert!(account("nobody").is_err());
	}

	#[test]
	fn a_mistyped_ss58_address_is_named_as_one() {
		let alice = load("ed25519://Alice").unwrap().account_id().to_ss58check();
		let mut mistyped = alice.into_bytes();
		mistyped[10] = if mistyped[10] == b'a' { b'b' } else { b'a' };
		let refusal = account(std::str::from_utf8(&mistyped).unwrap()).unwrap_err();
		assert!(refusal.to_string().contains("checksum"), "{refusal}");
		mistyped.remove(20);
		let refusal = account(std::str::from_utf8(&mistyped).unwrap()).unwrap_err();
		assert!(refusal.to_string().contains("a character missing or extra"), "{refusal}");
	}

	#[test]
	fn tampered_key_file_is_refused() {
		let (_, mut file) = generate(Scheme::MlDsa44).unwrap();
		file.account = generate(Scheme::MlDsa44).unwrap().1.account;
		assert!(from_key_file(&file).is_err());
		file.secret_seed = "0x00".into();
		assert!(from_key_file(&file).is_err());
		assert!(parse_scheme("rsa").is_err());
	}

	/// `--from /dev/zero`, or any file longer than a key file, is refused after 64 KiB instead
	/// of being read until memory runs out.
	#[test]
	fn an_endless_key_file_is_refused_after_a_bounded_read() {
		#[cfg(unix)]
		{
			let error = load("/dev/zero").err().unwrap().to_string();
			assert!(error.contains("longer than a key file"), "{error}");
		}
		let dir = tempfile::tempdir().unwrap();
		let long = dir.path().join("long.json");
		fs::write(&long, vec![b' '; MAX_KEY_FILE_BYTES as usize + 1]).unwrap();
		let error = load(long.to_str().unwrap()).err().unwrap().to_string();
		assert!(error.contains("longer than a key file"), "{error}");
	}
}
