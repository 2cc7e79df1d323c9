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
# runtime/src/weights/pallet_pq_verifier.rs records for it — a minimum is what a VM whose speed
# drifts by tens of percent reproduces best (five runs on one machine, 2026-11-28: fastest
# 93.7–95.2 µs, medians 108–147 µs) — and each median with the slowest run's median the
# committed weight charges (the weight less its margin): a machine as fast at its best that
# spends more of its time slow (2026-11-29: ML-DSA-87 at 140–155 µs and 200–230 µs in stretches
# of tens of timings; fastest 1.08×, median 1.11×) regenerates weights that charge its slow
# stretches. Fails when this machine is more than TOLERANCE percent slower on any of the four
# (exit status 3; any other failure is the check's own, not a slow machine's).
# Usage: scripts/machine-check.sh [RUNS TOLERANCE]   (defaults: 2 10)
#        COMMITTED_WEIGHTS=FILE compares with FILE instead of the working tree's weights — on a
#        branch whose weights are a placeholder awaiting regeneration, the last accepted ones
#        (e.g. `git show main:runtime/src/weights/pallet_pq_verifier.rs > FILE`).
set -euo pipefail
# A relative COMMITTED_WEIGHTS names a file from where the script was started.
[[ -z "${COMMITTED_WEIGHTS:-}" ]] || COMMITTED_WEIGHTS="$(realpath -e "$COMMITTED_WEIGHTS")"
cd "$(dirname "$0")/.."
source scripts/common.sh
runs="${1:-2}"
tolerance="${2:-10}"
benchmarks=(verify_signed_ed25519 verify_signed_ml_dsa_87)

weights="${COMMITTED_WEIGHTS:-runtime/src/weights/pallet_pq_verifier.rs}"
# The margin the committed weights carry on the slowest run's median (`merge-weights`).
margin=$(sed -n 's/^\/\/! \([0-9]*\)% (`merge-weights`).*/\1/p' "$weights")
if [[ -z "$margin" ]]; then
	echo "machine-check: no margin in the header of $weights" >&2
	exit 1
fi
committed=()
for benchmark in "${benchmarks[@]}"; do
	# `|| true`: a missing benchmark is reported below, not ended by `pipefail` in silence.
	body=$(grep -A 3 "fn $benchmark()" "$weights") || true
	fastest_ps=$(sed -n 's/.*Minimum execution time: \([0-9_]*\) picoseconds.*/\1/p' <<<"$body" | tr -d _)
	weight_ps=$(sed -n 's/.*Weight::from_parts(\([0-9_]*\),.*/\1/p' <<<"$body" | tr -d _)
	if [[ -z "$fastest_ps" || -z "$weight_ps" ]]; then
		echo "machine-check: no minimum execution time or weight for $benchmark in $weights" >&2
		exit 1
	fi
	committed+=("$benchmark=$fastest_ps=$weight_ps")
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

python3 - "$tolerance" "$margin" "$results" "${committed[@]}" <<'EOF'
import glob, json, statistics, sys

tolerance, margin = int(sys.argv[1]), int(sys.argv[2])
slowest = (-1.0, "")
for entry in sys.argv[4:]:
    benchmark, fastest_ps, weight_ps = entry.split("=")
    committed_fastest_ns = int(fastest_ps) / 1000
    # The weight is the slowest run's median plus the margin.
    committed_median_ns = int(weight_ps) / 1000 / (1 + margin / 100)
    times = []  # nanoseconds, every timing of every run
    for path in glob.glob(f"{sys.argv[3]}/{benchmark}-*.json"):
        for result in json.load(open(path)):
            times += [timing["extrinsic_time"] for timing in result["time_results"]]
    fastest, median = min(times), statistics.median(times)
    at_fastest, at_median = fastest / committed_fastest_ns, median / committed_median_ns
    print(f"{benchmark} on this machine: fastest {fastest / 1000:.1f} µs, "
          f"median {median / 1000:.1f} µs over {len(times)} timings; the committed weights' "
          f"run: fastest {committed_fastest_ns / 1000:.1f} µs, slowest run's median "
          f"{committed_median_ns / 1000:.1f} µs; this machine ÷ that one at their fastest: "
          f"{at_fastest:.2f}×, at their medians: {at_median:.2f}×")
    slowest = max(slowest, (at_fastest, f"{benchmark} at its fastest"),
                  (at_median, f"{benchmark} at its median"))
ratio, what = slowest
if ratio > 1 + tolerance / 100:
    print(f"slower than the weights' machine by more than {tolerance}% ({what}): weights "
          f"regenerated here would charge about {ratio:.2f}× what they charge now",
          file=sys.stderr)
    sys.exit(3)
EOF
