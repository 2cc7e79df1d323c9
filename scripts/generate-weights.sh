#!/usr/bin/env bash
# Regenerates pallets/pq-verifier/src/weights.rs: builds the runtime with its benchmarks and
# runs `benchmark pallet` on the Wasm blob with frame-omni-bencher, through the template
# pallets/pq-verifier/weight-template.hbs. Usage: scripts/generate-weights.sh [STEPS REPEAT]
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/pq-verifier/target}"
export OPENSSL_NO_VENDOR=1
steps="${1:-50}"
repeat="${2:-20}"

if ! command -v frame-omni-bencher >/dev/null; then
	echo "installing frame-omni-bencher (needs libclang-dev)"
	cargo install frame-omni-bencher --version 0.28.0 --locked
fi

cargo build --release -p pq-runtime --features runtime-benchmarks
runtime="$CARGO_TARGET_DIR/release/wbuild/pq-runtime/pq_runtime.compact.compressed.wasm"

frame-omni-bencher v1 benchmark pallet \
	--runtime "$runtime" \
	--genesis-builder runtime \
	--genesis-builder-preset development \
	--pallet pallet_pq_verifier \
	--extrinsic "*" \
	--steps "$steps" \
	--repeat "$repeat" \
	--template pallets/pq-verifier/weight-template.hbs \
	--output pallets/pq-verifier/src/weights.rs
echo "wrote pallets/pq-verifier/src/weights.rs"
