//! Builds the runtime's two Wasm blobs, host-function and pure-Wasm verification (skipped with
//! `SKIP_WASM_BUILD=1`, or without the `wasm-blobs` feature: then `WASM_BINARY` is `None`), and
//! with `PQ_PURE_WASM_LIBCRUX` set a third for the benchmarks (`pure-wasm-libcrux`).
fn main() {
	#[cfg(feature = "std")]
	{
		if std::env::var_os("CARGO_FEATURE_WASM_BLOBS").is_none() {
			// The builder then writes only the `WASM_BINARY = None` stubs.
			std::env::set_var("SKIP_WASM_BUILD", "1");
		}
		// The Wasm build looks for Cargo.lock upwards from the build directory, which lives
		// outside the clone (CARGO_TARGET_DIR under ~/.cache); point it at this workspace. Set
		// here, not in .cargo/config.toml, so that runtimes among our dependencies (the benchmark
		// CLI's storage test runtime) keep resolving against their own manifests. Read when the
		// script runs, not compiled in: clones sharing one target directory share this script.
		let manifest_dir = std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR for build scripts");
		let workspace = std::path::Path::new(&manifest_dir).join("..");
		std::env::set_var("WASM_BUILD_WORKSPACE_HINT", workspace);
		substrate_wasm_builder::WasmBuilder::build_using_defaults();
		// The variant that verifies in Wasm, for nodes without this project's host functions.
		substrate_wasm_builder::WasmBuilder::init_with_defaults()
			.enable_feature("pure-wasm-verifier")
			.set_file_name("wasm_binary_pure_wasm.rs")
			.build();
		// libcrux in Wasm instead of our verifier, for the benchmarks to compare (a third Wasm
		// build, so only on request); otherwise the builder writes the `None` stubs.
		println!("cargo:rerun-if-env-changed=PQ_PURE_WASM_LIBCRUX");
		if std::env::var_os("PQ_PURE_WASM_LIBCRUX").is_none() {
			std::env::set_var("SKIP_WASM_BUILD", "1");
		}
		substrate_wasm_builder::WasmBuilder::init_with_defaults()
			.enable_feature("pure-wasm-libcrux")
			.set_file_name("wasm_binary_pure_wasm_libcrux.rs")
			.build();
	}
}
