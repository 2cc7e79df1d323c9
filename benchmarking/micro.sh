#!/usr/bin/env bash
# Runs the micro-benchmarks and writes their table into docs/benchmarks.md (between the
# `results` markers), with the machine and this command, so the table is always reproducible.
set -euo pipefail
cd "$(dirname "$0")/.."
# Where cargo puts its output: CARGO_TARGET_DIR if set (README: Set up), else ./target.
target_dir="${CARGO_TARGET_DIR:-$PWD/target}"

criterion_dir="$target_dir/criterion"
rm -rf "$criterion_dir"
cargo bench -p pq-benchmarks --bench verify -- --noplot
cargo run --release -q -p pq-benchmarks --bin bench-report -- "$criterion_dir" |
	benchmarking/write-results.sh docs/benchmarks.md benchmarking/micro.sh
