#!/usr/bin/env bash
# Runs the micro-benchmarks and writes their table into docs/benchmarks.md (between the
# `results` markers), with the machine and this command, so the table is always reproducible.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/pq-verifier/target}"

criterion_dir="$CARGO_TARGET_DIR/criterion"
rm -rf "$criterion_dir"
cargo bench -p pq-benchmarks --bench verify -- --noplot
table=$(cargo run --release -q -p pq-benchmarks --bin bench-report -- "$criterion_dir")

report=docs/benchmarks.md
{
	sed '/<!-- results -->/q' "$report"
	echo
	echo "Measured $(date -u +%Y-%m-%d) with \`benchmarking/micro.sh\`."
	echo
	echo "$table"
	echo
	sed -n '/<!-- \/results -->/,$p' "$report"
} >"$report.new"
mv "$report.new" "$report"
echo "wrote $report"
