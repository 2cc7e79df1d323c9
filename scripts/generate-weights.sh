#!/usr/bin/env bash
# Regenerates the weights of pallet-pq-verifier for both verifier backends of pq-runtime: builds
# pq-node with `runtime-benchmarks` (the benchmarks in the runtime, the benchmark CLI and the
# host functions in the node) and runs `pq-node benchmark pallet` on the Wasm runtimes of
#   --chain dev            (host functions)  -> runtime/src/weights/pallet_pq_verifier.rs
#   --chain dev-pure-wasm  (libcrux in Wasm) -> pallets/pq-verifier/src/weights.rs
# Usage: scripts/generate-weights.sh [STEPS REPEAT]
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/common.sh
steps="${1:-50}"
repeat="${2:-20}"

scripts/install-prerequisites.sh
build_with_progress cargo build --release -p pq-node --features runtime-benchmarks

benchmark() { # CHAIN TEMPLATE OUTPUT
	"$target_dir/release/pq-node" benchmark pallet \
		--chain "$1" \
		--pallet pallet_pq_verifier \
		--extrinsic "*" \
		--wasm-execution compiled \
		--steps "$steps" \
		--repeat "$repeat" \
		--template "$2" \
		--output "$3"
	echo "wrote $3"
}

benchmark dev runtime/weight-template.hbs runtime/src/weights/pallet_pq_verifier.rs
benchmark dev-pure-wasm pallets/pq-verifier/weight-template.hbs pallets/pq-verifier/src/weights.rs
