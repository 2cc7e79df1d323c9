#!/usr/bin/env bash
# Regenerates the weights of pallet-pq-verifier for both verifier backends of pq-runtime. Builds
# pq-node with `runtime-benchmarks` (the benchmarks in the runtime, the benchmark CLI and the
# host functions in the node), runs `pq-node benchmark pallet` RUNS times on each runtime,
# alternating between them so a slow or fast stretch of the machine reaches both, and merges
# each runtime's runs with `merge-weights` — the largest execution weight of the runs, plus
# MARGIN percent — into
#   --chain dev            (host functions)  -> runtime/src/weights/pallet_pq_verifier.rs
#   --chain dev-pure-wasm  (libcrux in Wasm) -> pallets/pq-verifier/src/weights.rs
# Usage: scripts/generate-weights.sh [RUNS STEPS REPEAT MARGIN]   (defaults: 3 20 10 10)
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/common.sh
runs="${1:-3}"
steps="${2:-20}"
repeat="${3:-10}"
margin="${4:-10}"

scripts/install-prerequisites.sh
# merge-weights from the test build (its profile and features), before the benchmark build
# replaces pq-node with one that carries the benchmarks.
build_with_progress cargo test --release --workspace --no-run
build_with_progress cargo build --release -p pq-node --features runtime-benchmarks

runs_dir="$target_dir/weight-runs"
rm -rf "$runs_dir"
mkdir -p "$runs_dir"
for run in $(seq "$runs"); do
	for chain in dev dev-pure-wasm; do
		echo "run $run of $runs: $chain" >&2
		"$target_dir/release/pq-node" benchmark pallet \
			--chain "$chain" \
			--pallet pallet_pq_verifier \
			--extrinsic "*" \
			--wasm-execution compiled \
			--steps "$steps" \
			--repeat "$repeat" \
			--template benchmarking/weights/run-data.hbs \
			--output "$runs_dir/$chain-$run.json"
	done
done

merge() { # CHAIN TEMPLATE OUTPUT
	"$target_dir/release/merge-weights" --template "$2" --output "$3" --margin-percent "$margin" \
		--command "scripts/generate-weights.sh $runs $steps $repeat $margin" "$runs_dir/$1-"[0-9]*.json
}
merge dev runtime/weight-template.hbs runtime/src/weights/pallet_pq_verifier.rs
merge dev-pure-wasm pallets/pq-verifier/weight-template.hbs pallets/pq-verifier/src/weights.rs
