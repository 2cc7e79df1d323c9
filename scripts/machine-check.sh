#!/usr/bin/env bash
# Says whether this machine runs as fast as the one the committed weights were measured on,
# before anyone regenerates them here: weights measured on a machine slower at its fastest
# raise every fee and shrink every block by as much, and the charge-check, run on the same
# machine, cannot see it (both sides slow down together).
# Runs two benchmarks on `--chain dev` RUNS times each (`--repeat 40`; the CLI times each some
# thousands of times a run): `verify_signed_ed25519` (the host-function build's Ed25519 check:
# no ML-DSA code, little storage) and `verify_signed_ml_dsa_87` (an ML-DSA-87 key decoded and
# verified by the node's engine — AVX2, AVX-512VL or portable code — which an Ed25519 timing
# cannot see: a CPU without the committed machine's vector units verifies ML-DSA slower than
# its Ed25519 speed says). Compares each fastest time with the minimum execution time
# runtime/src/weights/pallet_pq_verifier.rs records for it. A minimum is what a VM whose speed
# drifts by tens of percent reproduces best (five runs on one machine, 2026-11-28: fastest
# 93.7–95.2 µs, medians 108–147 µs). Fails when this machine is more than TOLERANCE percent
# slower on either.
# Usage: scripts/machine-check.sh [RUNS TOLERANCE]   (defaults: 2 10)
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/common.sh
runs="${1:-2}"
tolerance="${2:-10}"
benchmarks=(verify_signed_ed25519 verify_signed_ml_dsa_87)

weights=runtime/src/weights/pallet_pq_verifier.rs
committed=()
for benchmark in "${benchmarks[@]}"; do
	# `|| true`: a missing benchmark is reported below, not ended by `pipefail` in silence.
	committed_ps=$(grep -A 2 "fn $benchmark()" "$weights" |
		sed -n 's/.*Minimum execution time: \([0-9_]*\) picoseconds.*/\1/p' | tr -d _) || true
	if [[ -z "$committed_ps" ]]; then
		echo "machine-check: no minimum execution time for $benchmark in $weights" >&2
		exit 1
	fi
	committed+=("$benchmark=$committed_ps")
done

build_with_progress cargo build --release -p pq-node --features runtime-benchmarks
results=$(mktemp -d)
trap 'rm -rf "$results"' EXIT
for run in $(seq "$runs"); do
	for benchmark in "${benchmarks[@]}"; do
		"$target_dir/release/pq-node" benchmark pallet \
			--chain dev \
			--disable-proof-recording \
			--pallet pallet_pq_verifier \
			--extrinsic "$benchmark" \
			--wasm-execution compiled \
			--steps 2 \
			--repeat 40 \
			--json-file "$results/$benchmark-$run.json" >"$results/$benchmark-$run.log" 2>&1 || {
			# A benchmark that fails is not a slow machine: say what failed.
			cat "$results/$benchmark-$run.log" >&2
			exit 1
		}
	done
done

python3 - "$tolerance" "$results" "${committed[@]}" <<'EOF'
import glob, json, statistics, sys

tolerance = int(sys.argv[1])
slowest = (-1.0, "")
for entry in sys.argv[3:]:
    benchmark, committed_ps = entry.split("=")
    committed_ns = int(committed_ps) / 1000
    times = []  # nanoseconds, every timing of every run
    for path in glob.glob(f"{sys.argv[2]}/{benchmark}-*.json"):
        for result in json.load(open(path)):
            times += [timing["extrinsic_time"] for timing in result["time_results"]]
    fastest = min(times)
    ratio = fastest / committed_ns
    print(f"{benchmark} on this machine: fastest {fastest / 1000:.1f} µs, "
          f"median {statistics.median(times) / 1000:.1f} µs over {len(times)} timings; "
          f"the committed weights' run: fastest {committed_ns / 1000:.1f} µs; "
          f"this machine ÷ that one at their fastest: {ratio:.2f}×")
    slowest = max(slowest, (ratio, benchmark))
ratio, benchmark = slowest
if ratio > 1 + tolerance / 100:
    print(f"slower than the weights' machine by more than {tolerance}% ({benchmark}): weights "
          f"regenerated here would charge about {ratio:.2f}× what they charge now",
          file=sys.stderr)
    sys.exit(1)
EOF
