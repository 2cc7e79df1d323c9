#!/usr/bin/env bash
# Runs the micro-benchmarks and writes their table into docs/benchmarks.md (between the
# `results` markers), with the machine and this command, so the table is always reproducible.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/common.sh

criterion_dir="$target_dir/criterion"
rm -rf "$criterion_dir"
# The third runtime blob, libcrux in Wasm (`wasm:libcrux` rows); the next build without it
# rebuilds pq-runtime's stubs (a few minutes).
export PQ_PURE_WASM_LIBCRUX=1
# --workspace: the feature set of the README's test command, so nothing is compiled twice.
cargo bench --workspace --bench verify -- --noplot
cargo test --release --workspace --no-run --quiet
"$target_dir/release/bench-report" "$criterion_dir" |
	benchmarking/write-results.sh docs/benchmarks.md benchmarking/micro.sh
