#!/usr/bin/env bash
# Measures what every refusal path costs a node — garbage that the transaction pool refuses,
# unpaid — on both runtime builds, with the node's cache cold and warm, and writes the table
# into docs/security.md (between the `results` markers). About five minutes.
# Usage: benchmarking/unpaid-work.sh [--count N] [--rounds N]
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/common.sh

# The build of the README's test command: pq-node and the tool, without a second compile.
cargo test --release --workspace --no-run
"$target_dir/release/unpaid-work" --node "$target_dir/release/pq-node" "$@" >"$target_dir/unpaid-work.md"
benchmarking/write-results.sh docs/security.md "benchmarking/unpaid-work.sh $*" <"$target_dir/unpaid-work.md"
