//! Builds the runtime's two Wasm blobs, host-function and pure-Wasm verification (skipped with
//! `SKIP_WASM_BUILD=1`, or without the `wasm-blobs` feature: then `WASM_BINARY` is `None`), and
//! with `PQ_PURE_WASM_LIBCRUX` set a third for the benchmarks (`pure-wasm-libcrux`; without
//! it, `None`).
fn main() {
	#[cfg(feature = "std")]
	{
		// The build features reach every Wasm build the builder makes (it passes the native
		// build's features on): enabled here, they would give the default blob — and so the
		// dev chain — another verifier. Each blob enables its own below.
		for feature in ["PURE_WASM_VERIFIER", "PURE_WASM_LIBCRUX"] {
			assert!(
				std::env::var_os(format!("CARGO_FEATURE_{feature}")).is_none(),
				"pq-runtime's feature {} selects a Wasm blob's verifier and is enabled by build.rs only",
				feature.to_lowercase().replace('_', "-")
			);
		}
		if std::env::var_os("CARGO_FEATURE_WASM_BLOBS").is_none() {
			// The builder then writes only the `WASM_BINARY = None` stubs.
			std::env::set_var("SKIP_WASM_BUILD", "1");
		}
		// The Wasm build looks for Cargo.lock upwards from the build directory, which lives
		// outside the clone (CARGO_TARGET_DIR under ~/.cache); point it at this workspace. Set
		// here, not in .cargo/config.toml, so that runtimes among our dependencies (the benchmark
		// CLI's storage test runtime) keep resolving against their own manifests. Read when the
		// script runs, not compiled in: clones sharing one target directory share this script.
		let manifest_dir = std::env::var_os("CARGO_MANIFEST_DIR")
			.expect("cargo sets CARGO_MANIFEST_DIR for build scripts");
		let workspace = std::path::Path::new(&manifest_dir).join("..");
		std::env::set_var("WASM_BUILD_WORKSPACE_HINT", workspace);
		substrate_wasm_builder::WasmBuilder::build_using_defaults();
		// The variant that verifies in Wasm, for nodes without this project's host functions.
		substrate_wasm_builder::WasmBuilder::init_with_defaults()
			.enable_feature("pure-wasm-verifier")
			.set_file_name("wasm_binary_pure_wasm.rs")
			.build();
		// libcrux in Wasm instead of our verifier, for the benchmarks to compare (a third Wasm
		// build, so only on request).
		println!("cargo:rerun-if-env-changed=PQ_PURE_WASM_LIBCRUX");
		const LIBCRUX_BLOB: &str = "wasm_binary_pure_wasm_libcrux.rs";
		if std::env::var_os("PQ_PURE_WASM_LIBCRUX").is_some() {
			substrate_wasm_builder::WasmBuilder::init_with_defaults()
				.enable_feature("pure-wasm-libcrux")
				.set_file_name(LIBCRUX_BLOB)
				.build();
		} else {
			// The `None` stubs, written here: skipped, the builder would keep pointing at a blob
			// an earlier request built, however stale.
			let out_dir =
				std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR for build scripts");
			std::fs::write(
				std::path::Path::new(&out_dir).join(LIBCRUX_BLOB),
				"pub const WASM_BINARY_PATH: Option<&str> = None;\n\
				 pub const WASM_BINARY: Option<&[u8]> = None;\n\
				 pub const WASM_BINARY_BLOATY: Option<&[u8]> = None;\n",
			)
			.expect("OUT_DIR is writable");
		}
	}
}
