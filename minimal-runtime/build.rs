//! Builds the runtime's Wasm blob with the `wasm-blob` feature (see Cargo.toml); the Wasm
//! build itself has no `std`, so it builds nothing.
fn main() {
	#[cfg(all(feature = "std", feature = "wasm-blob"))]
	{
		// The Wasm build looks for Cargo.lock upwards from its build directory, which lives
		// outside the clone when CARGO_TARGET_DIR does; point it at this workspace.
		let manifest_dir = std::env::var_os("CARGO_MANIFEST_DIR")
			.expect("cargo sets CARGO_MANIFEST_DIR for build scripts");
		std::env::set_var(
			"WASM_BUILD_WORKSPACE_HINT",
			std::path::Path::new(&manifest_dir).join(".."),
		);
		substrate_wasm_builder::WasmBuilder::build_using_defaults();
	}
}
