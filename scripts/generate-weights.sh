#!/usr/bin/env bash
# Regenerates pallets/pq-verifier/src/weights.rs: builds pq-node (whose default
# `runtime-benchmarks` feature puts the benchmarks in the runtime and the benchmark CLI in the
# node) and runs `pq-node benchmark pallet` on the dev chain's Wasm runtime, through the
# template pallets/pq-verifier/weight-template.hbs.
# Usage: scripts/generate-weights.sh [STEPS REPEAT]
set -euo pipefail
cd "$(dirname "$0")/.."
# Where cargo puts its output: CARGO_TARGET_DIR if set (README: Set up), else ./target.
target_dir="${CARGO_TARGET_DIR:-$PWD/target}"
steps="${1:-50}"
repeat="${2:-20}"

cargo build --release -p pq-node --features runtime-benchmarks
"$target_dir/release/pq-node" benchmark pallet \
	--chain dev \
	--pallet pallet_pq_verifier \
	--extrinsic "*" \
	--wasm-execution compiled \
	--steps "$steps" \
	--repeat "$repeat" \
	--template pallets/pq-verifier/weight-template.hbs \
	--output pallets/pq-verifier/src/weights.rs
echo "wrote pallets/pq-verifier/src/weights.rs"
