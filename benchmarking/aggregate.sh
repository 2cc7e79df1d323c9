#!/usr/bin/env bash
# Runs the aggregate ML-DSA-87 benchmarks and writes their table into docs/aggregate.md
# (between the `results` markers), with the machine and this command.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/common.sh

criterion_dir="$target_dir/criterion-aggregate"
rm -rf "$criterion_dir"
# --workspace: the feature set of the README's test command, so nothing is compiled twice.
CRITERION_HOME="$criterion_dir" cargo bench --workspace --bench aggregate -- --noplot
cargo test --release --workspace --no-run --quiet
"$target_dir/release/aggregate-report" "$criterion_dir" |
	benchmarking/write-results.sh docs/aggregate.md benchmarking/aggregate.sh
