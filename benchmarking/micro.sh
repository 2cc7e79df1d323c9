#!/usr/bin/env bash
# Runs the micro-benchmarks and writes their table into docs/benchmarks.md (between the
# `results` markers), with the machine and this command, so the table is always reproducible.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/pq-verifier/target}"

criterion_dir="$CARGO_TARGET_DIR/criterion"
rm -rf "$criterion_dir"
cargo bench -p pq-benchmarks --bench verify -- --noplot
cargo run --release -q -p pq-benchmarks --bin bench-report -- "$criterion_dir" |
	benchmarking/write-results.sh docs/benchmarks.md benchmarking/micro.sh
