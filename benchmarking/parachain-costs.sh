#!/usr/bin/env bash
# Measures what each transfer kind costs a parachain (block bytes, storage proof, execution on
# the pure-Wasm runtime with a validator's host functions) and writes the table into
# docs/parachain.md (between the `results` markers).
# Usage: benchmarking/parachain-costs.sh [--transactions N] [--runs N]
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/common.sh

# The build of the README's test command, without a second compile.
cargo test --release --workspace --no-run
"$target_dir/release/parachain-costs" "$@" >"$target_dir/parachain-costs.md"
benchmarking/write-results.sh docs/parachain.md "benchmarking/parachain-costs.sh $*" <"$target_dir/parachain-costs.md"
