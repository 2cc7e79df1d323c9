//! The `throughput` executable refuses what it cannot run, with a reason. (The measurement
//! itself runs against a real node in the end-to-end tests.)

use std::process::Command;

#[test]
fn missing_node_binary_is_an_error_naming_it() {
	let output = Command::new(env!("CARGO_BIN_EXE_throughput"))
		.args(["--node", "/nonexistent/pq-node", "--transactions", "4"])
		.output()
		.unwrap();
	assert!(!output.status.success());
	let stderr = String::from_utf8_lossy(&output.stderr);
	assert!(stderr.contains("pq-node build-spec"), "{stderr}");
}
