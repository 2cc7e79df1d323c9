#!/usr/bin/env bash
# Measures block-level throughput of every scheme and transaction form on the dev node and
# writes the table into docs/throughput.md (between the `results` markers) and the plots beside
# it. Usage: benchmarking/throughput.sh [--transactions N] [--repeat N] [--only CASE]
# [--verifiers host-functions,pure-wasm]
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/common.sh

# The build of the README's test command: pq-node and the harness, without a second compile.
cargo test --release --workspace --no-run
"$target_dir/release/throughput" --node "$target_dir/release/pq-node" --plots docs "$@" |
	benchmarking/write-results.sh docs/throughput.md "benchmarking/throughput.sh $*"
