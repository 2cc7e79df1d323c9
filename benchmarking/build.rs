//! Records the compiler version for the benchmark report.
fn main() {
	let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
	let version = std::process::Command::new(rustc)
		.arg("--version")
		.output()
		.ok()
		.and_then(|output| String::from_utf8(output.stdout).ok())
		.unwrap_or_else(|| "unknown rustc".into());
	println!("cargo:rustc-env=PQ_RUSTC_VERSION={}", version.trim());
}
