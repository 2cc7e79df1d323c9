//! The `pq-cli` executable: exit codes and messages, without a node.

use std::process::{Command, Output};

fn pq_cli(args: &[&str]) -> Output {
	Command::new(env!("CARGO_BIN_EXE_pq-cli"))
		.args(args)
		.output()
		.expect("pq-cli runs")
}

fn stdout(output: &Output) -> String {
	String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
	String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn key_generate_writes_a_key_file_that_inspect_reads() {
	let dir = tempfile::tempdir().unwrap();
	let path = dir.path().join("key.json");
	let path = path.to_str().unwrap();

	let generated = pq_cli(&["key", "generate", "--scheme", "ml-dsa-44", "--output", path]);
	assert!(generated.status.success(), "{}", stderr(&generated));
	let account = stdout(&generated)
		.lines()
		.find_map(|line| line.strip_prefix("account: ").map(str::to_owned))
		.unwrap();

	let inspected = pq_cli(&["key", "inspect", path]);
	assert!(inspected.status.success());
	assert!(stdout(&inspected).contains("scheme: ml-dsa-44"));
	assert!(stdout(&inspected).contains(&format!("account: {account}")));
	assert!(stdout(&inspected).contains("public key (1312 bytes)"));

	let again = pq_cli(&["key", "generate", "--scheme", "ed25519", "--output", path]);
	assert!(!again.status.success(), "an existing key file is never overwritten");
	assert!(stderr(&again).contains("cannot create key file"), "{}", stderr(&again));
}

#[test]
fn bad_input_exits_non_zero_with_a_reason() {
	let cases: [(&[&str], &str); 8] = [
		(&["key", "inspect", "missing.json"], "neither a key file nor SCHEME:SURI"),
		// An unset variable in `ml-dsa-87:$SECRET`: not the public development key.
		(&["key", "inspect", "ml-dsa-87:"], "NoSecret"),
		(&["key", "inspect", "ml-dsa-87:my secret phrase xyzzy"], "InvalidPhrase"),
		(&["key", "generate", "--scheme", "rsa", "--output", "x"], "unknown scheme"),
		(
			&[
				"transfer",
				"--from",
				"ml-dsa-65://Alice",
				"--to",
				"ed25519://Bob",
				"--amount",
				"1.2.3",
			],
			"not a decimal amount",
		),
		(
			&["--url", "ws://127.0.0.1:1", "balance", "ed25519://Bob"],
			"cannot connect to ws://127.0.0.1:1",
		),
		// A secret pasted where an account belongs.
		(&["balance", "ml-dsa-87:my secret phrase xyzzy"], "is neither SS58, 0x hex, nor a key"),
		// Whoever is on the path to an unencrypted remote node could change what is signed.
		(
			&["--url", "ws://192.0.2.1:9944", "balance", "ed25519://Bob"],
			"refusing the unencrypted address",
		),
	];
	for (args, reason) in cases {
		let output = pq_cli(args);
		assert!(!output.status.success(), "{args:?}");
		assert!(stderr(&output).contains(reason), "{args:?}: {}", stderr(&output));
		assert!(!stderr(&output).contains("xyzzy"), "a secret URI is never echoed: {args:?}");
	}
}
