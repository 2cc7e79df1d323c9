#!/usr/bin/env bash
# Runs every transaction kind on both runtime builds and checks that each is charged at least
# what importing its blocks costs on this machine; writes the table into docs/benchmarking.md
# (between the `results` markers) and fails if any kind is undercharged, or has fewer than two
# runs with the machine at its reference speed (inconclusive; machine-state probes around each
# run's imports, docs/benchmarking.md).
# With --calibrate first, measures instead what each build's blocks cost per transaction and
# per byte beyond the benchmarks of their parts (signed remarks, empty and long) and writes
# runtime/src/weights/block_import.rs; run it after scripts/generate-weights.sh, then rebuild
# and run the check.
# Usage: benchmarking/charge-check.sh [--calibrate] [--transactions N] [--repeat N] [--only KIND]
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/common.sh

# The build of the README's test command: pq-node and the check, without a second compile.
cargo test --release --workspace --no-run
if [ "${1:-}" = --calibrate ]; then
	shift
	exec "$target_dir/release/charge-check" --node "$target_dir/release/pq-node" \
		--calibrate runtime/src/weights/block_import.rs "$@"
fi
status=0
"$target_dir/release/charge-check" --node "$target_dir/release/pq-node" "$@" >"$target_dir/charge-check.md" || status=$?
benchmarking/write-results.sh docs/benchmarking.md "benchmarking/charge-check.sh $*" <"$target_dir/charge-check.md"
exit "$status"
