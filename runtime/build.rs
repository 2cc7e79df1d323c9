//! Builds the runtime's Wasm blob (skipped with `SKIP_WASM_BUILD=1`).
fn main() {
	#[cfg(feature = "std")]
	substrate_wasm_builder::WasmBuilder::build_using_defaults();
}
