#!/usr/bin/env bash
# Measures what a network of three validators finalizes at real block times, every scheme
# beside Ed25519, then a flood; writes the tables into docs/network.md (between the `results`
# markers) and its plots beside it. Usage: benchmarking/network-throughput.sh [--transactions N]
# [--rate TX_PER_S] [--slot-ms MS] [--only CASE] [--flood N]. About 15 minutes with the defaults.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/common.sh

# The build of the README's test command: pq-node and the harness, without a second compile.
cargo test --release --workspace --no-run
"$target_dir/release/network-throughput" --node "$target_dir/release/pq-node" --plots docs "$@" |
	benchmarking/write-results.sh docs/network.md "benchmarking/network-throughput.sh $*"
