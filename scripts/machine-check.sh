#!/usr/bin/env bash
# Says whether this machine runs as fast as the one the committed weights were measured on,
# before anyone regenerates them here: weights measured on a machine slower at its fastest
# raise every fee and shrink every block by as much, and the charge-check, run on the same
# machine, cannot see it (both sides slow down together).
# Runs `verify_signed_ed25519` on `--chain dev` (the host-function build's Ed25519 check: no
# ML-DSA code, little storage) RUNS times (`--repeat 40`; the CLI times it some thousands of
# times a run) and compares the fastest time with the minimum execution time
# runtime/src/weights/pallet_pq_verifier.rs records for it. A minimum is what a VM whose speed
# drifts by tens of percent reproduces best (five runs on one machine, 2026-11-28: fastest
# 93.7–95.2 µs, medians 108–147 µs). Fails when this machine is more than TOLERANCE percent
# slower.
# Usage: scripts/machine-check.sh [RUNS TOLERANCE]   (defaults: 2 10)
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/common.sh
runs="${1:-2}"
tolerance="${2:-10}"

weights=runtime/src/weights/pallet_pq_verifier.rs
committed_ps=$(grep -A 2 'fn verify_signed_ed25519()' "$weights" |
	sed -n 's/.*Minimum execution time: \([0-9_]*\) picoseconds.*/\1/p' | tr -d _)
if [[ -z "$committed_ps" ]]; then
	echo "machine-check: no minimum execution time for verify_signed_ed25519 in $weights" >&2
	exit 1
fi

build_with_progress cargo build --release -p pq-node --features runtime-benchmarks
results=$(mktemp -d)
trap 'rm -rf "$results"' EXIT
for run in $(seq "$runs"); do
	"$target_dir/release/pq-node" benchmark pallet \
		--chain dev \
		--disable-proof-recording \
		--pallet pallet_pq_verifier \
		--extrinsic verify_signed_ed25519 \
		--wasm-execution compiled \
		--steps 2 \
		--repeat 40 \
		--json-file "$results/$run.json" >"$results/$run.log" 2>&1 || {
		# A benchmark that fails is not a slow machine: say what failed.
		cat "$results/$run.log" >&2
		exit 1
	}
done

python3 - "$committed_ps" "$tolerance" "$results"/*.json <<'EOF'
import json, statistics, sys

committed_ns = int(sys.argv[1]) / 1000
tolerance = int(sys.argv[2])
times = []  # nanoseconds, every timing of every run
for path in sys.argv[3:]:
    for benchmark in json.load(open(path)):
        times += [result["extrinsic_time"] for result in benchmark["time_results"]]
fastest = min(times)
ratio = fastest / committed_ns
print(f"verify_signed_ed25519 on this machine: fastest {fastest / 1000:.1f} µs, "
      f"median {statistics.median(times) / 1000:.1f} µs over {len(times)} timings; "
      f"the committed weights' run: fastest {committed_ns / 1000:.1f} µs; "
      f"this machine ÷ that one at their fastest: {ratio:.2f}×")
if ratio > 1 + tolerance / 100:
    print(f"slower than the weights' machine by more than {tolerance}%: weights regenerated "
          f"here would charge about {ratio:.2f}× what they charge now", file=sys.stderr)
    sys.exit(1)
EOF
