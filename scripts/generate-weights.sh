#!/usr/bin/env bash
# Regenerates every weight pq-runtime charges. Builds pq-node with `runtime-benchmarks` (the
# benchmarks in the runtime, the benchmark CLI and the host functions in the node), then:
# - runs `pq-node benchmark pallet` for pallet-pq-verifier on each runtime build and for the
#   runtime's FRAME pallets, alternating, until each has RUNS runs with the machine at its
#   reference speed on both sides (a passing `scripts/machine-check.sh` probe before and after;
#   a slow probe before a run is waited out, a run followed by one is set aside in
#   weight-runs/discarded; at most 3 × RUNS attempts), and merges each one's kept runs with `merge-weights` — the slowest run, or for a
#   benchmark with a component the line over the runs' upper median at each measured value
#   that overcharges least, plus MARGIN percent — into
#     --chain dev            (host functions)  -> runtime/src/weights/pallet_pq_verifier.rs
#     --chain dev-pure-wasm  (our verifier in Wasm) -> pallets/pq-verifier/src/weights.rs
#     --chain dev            (FRAME pallets)   -> runtime/src/weights/<pallet>.rs
# - runs `pq-node benchmark storage` (with the FRAME pallets, kept likewise) on a ParityDB holding ACCOUNTS accounts: the
#   largest run's average read and write, plus MARGIN percent -> runtime/src/weights/paritydb_weights.rs
# Proof recording: this runtime is a solo chain's (its node authors with `ProposerFactory::new`
# and imports without a recorder), so its own weights — the storage benchmark and the benchmarks
# on `--chain dev` — are timed without recording a storage proof, which adds 38-117% to a
# database read (docs/benchmarking.md). The pallet's default weights, from `dev-pure-wasm`,
# keep recording: they serve parachains, whose collators record every block they build.
# First scripts/machine-check.sh: on a machine slower than the committed weights' by more than
# 10%, it stops (WEIGHTS_ON_ANY_MACHINE=1 goes on; COMMITTED_WEIGHTS=FILE, passed on to it,
# compares with the last accepted weights when the working tree's are a placeholder).
# After regenerating, run benchmarking/charge-check.sh: no transaction kind may be charged less
# than it costs (docs/benchmarking.md).
# Usage: scripts/generate-weights.sh [RUNS STEPS REPEAT MARGIN ACCOUNTS SCOPE]
#        (defaults: 3 20 10 10 100000 all); SCOPE `pq-verifier` regenerates only the pallet's
#        two weight files, when only its benchmarks changed.
set -euo pipefail
# A relative COMMITTED_WEIGHTS names a file from where the script was started.
if [[ -n "${COMMITTED_WEIGHTS:-}" ]]; then
	COMMITTED_WEIGHTS="$(realpath -e "$COMMITTED_WEIGHTS")"
	export COMMITTED_WEIGHTS
fi
cd "$(dirname "$0")/.."
source scripts/common.sh
runs="${1:-3}"
steps="${2:-20}"
repeat="${3:-10}"
margin="${4:-10}"
accounts="${5:-100000}"
scope="${6:-all}"
if [[ "$scope" != all && "$scope" != pq-verifier ]]; then
	echo "SCOPE is all or pq-verifier, not $scope" >&2
	exit 1
fi
frame_pallets=(frame_system frame_system_extensions pallet_balances pallet_timestamp pallet_sudo pallet_transaction_payment)

scripts/install-prerequisites.sh
# merge-weights from the test build (its profile and features), before the benchmark build
# replaces pq-node with one that carries the benchmarks.
build_with_progress cargo test --release --workspace --no-run
build_with_progress cargo build --release -p pq-node --features runtime-benchmarks
check_status=0
[[ "${WEIGHTS_ON_ANY_MACHINE:-}" == 1 ]] || scripts/machine-check.sh || check_status=$?
if ((check_status == 3)); then
	echo "not regenerating on this machine; WEIGHTS_ON_ANY_MACHINE=1 regenerates anyway" \
		"(a reference machine of another speed)" >&2
	exit 1
elif ((check_status != 0)); then
	echo "the machine check failed (not a slow machine: its output says why)" >&2
	exit 1
fi

runs_dir="$target_dir/weight-runs"
rm -rf "$runs_dir"
mkdir -p "$runs_dir/results"
# This VM alternates between its reference speed and slow stretches of minutes to half an hour
# (docs/benchmarking.md), so a run is kept only if the machine was at its reference speed on
# both sides of it: one run of `scripts/machine-check.sh` (half a minute) passes right before and
# right after. A slow stretch that starts and ends within a run is left to the merge (the
# slowest kept run: an overcharge). With WEIGHTS_ON_ANY_MACHINE=1 there is no reference and
# every run is kept.
probes_log="$runs_dir/probes.log"
reference_speed() { # succeeds if the machine is at its reference speed; stops on an error
	[[ "${WEIGHTS_ON_ANY_MACHINE:-}" == 1 ]] && return 0
	echo "probe at $(date -u +%H:%M:%S):" >>"$probes_log"
	local status=0
	scripts/machine-check.sh 1 >>"$probes_log" 2>&1 || status=$?
	case "$status" in
	0) return 0 ;;
	3) return 1 ;; # slower than the committed weights' machine
	*)
		echo "a probe failed (not a slow machine; $probes_log says why)" >&2
		exit 1
		;;
	esac
}
# A slow stretch is waited out by probing (half a minute each, at most 60), not by spending
# attempts on runs that would be discarded.
max_waiting_probes=60
await_reference_speed() {
	local waited=0
	until $at_reference; do
		if ((waited == max_waiting_probes)); then
			echo "the machine stayed slow for $waited probes ($probes_log); not regenerating" >&2
			exit 1
		fi
		waited=$((waited + 1))
		if reference_speed; then at_reference=true; fi
	done
}
benchmark_pallet() { # PALLET CHAIN RUN
	echo "attempt $3 (keeping $runs): $1 on $2" >&2
	local recording=()
	[[ "$2" == dev ]] && recording=(--disable-proof-recording)
	"$target_dir/release/pq-node" benchmark pallet \
		--chain "$2" \
		"${recording[@]}" \
		--pallet "$1" \
		--extrinsic "*" \
		--wasm-execution compiled \
		--steps "$steps" \
		--repeat "$repeat" \
		--template benchmarking/weights/run-data.hbs \
		--output "$runs_dir/$1-$2-$3.json" \
		--json-file "$runs_dir/results/$1-$2-$3.json"
}

# Storage: a fresh database of the dev chain with `accounts` more accounts, state version 1
# (the runtime's); batches of 1,000 writes, about a full block's distinct keys, share a root.
storage_dir="$target_dir/storage-benchmark"
rm -rf "$storage_dir"
mkdir -p "$storage_dir"
"$target_dir/release/pq-node" build-spec --chain dev 2>/dev/null |
	benchmarking/storage-state.py "$accounts" >"$storage_dir/spec.json"
benchmark_storage() { # RUN
	echo "attempt $1 (keeping $runs): storage" >&2
	"$target_dir/release/pq-node" benchmark storage \
		--chain "$storage_dir/spec.json" \
		--base-path "$storage_dir/db" \
		--database paritydb \
		--state-version 1 \
		--batch-size 1000 \
		--disable-pov-recorder \
		--metric average \
		--template-path benchmarking/weights/storage-run-data.hbs \
		--weight-path "$runs_dir/ParityDb-storage-$1.json"
}

# A job is one run of a group of benchmarks — the verifier's on one chain, or the FRAME
# pallets' and the database's — its files named after the ATTEMPT.
run_job() { # JOB ATTEMPT
	if [[ "$1" == frame ]]; then
		for pallet in "${frame_pallets[@]}"; do
			benchmark_pallet "$pallet" dev "$2"
		done
		benchmark_storage "$2"
	else
		benchmark_pallet pallet_pq_verifier "$1" "$2"
	fi
}
jobs=(dev dev-pure-wasm)
[[ "$scope" == all ]] && jobs+=(frame)
run_files() { find "$runs_dir" -name '*.json' -not -path "$runs_dir/discarded/*" | sort; }
mkdir -p "$runs_dir/discarded/results"
declare -A kept
for job in "${jobs[@]}"; do kept[$job]=0; done
# The check before the runs passed: the machine was at its reference speed then.
at_reference=true
max_attempts=$((3 * runs))
for attempt in $(seq "$max_attempts"); do
	for job in "${jobs[@]}"; do
		((kept[$job] < runs)) || continue
		await_reference_speed
		files_before=$(run_files)
		run_job "$job" "$attempt"
		if reference_speed; then at_reference=true; else at_reference=false; fi
		if $at_reference; then
			kept[$job]=$((kept[$job] + 1))
			echo "kept: $job, attempt $attempt (${kept[$job]} of $runs)" | tee -a "$probes_log" >&2
		else
			# Kept for the record, out of the merge's reach.
			echo "discarded: $job, attempt $attempt (the probe after it was slow)" | tee -a "$probes_log" >&2
			comm -13 <(echo "$files_before") <(run_files) | while read -r file; do
				mv "$file" "$runs_dir/discarded/${file#"$runs_dir"/}"
			done
		fi
	done
	done_jobs=0
	for job in "${jobs[@]}"; do ((kept[$job] < runs)) || done_jobs=$((done_jobs + 1)); done
	((done_jobs < ${#jobs[@]})) || break
done
for job in "${jobs[@]}"; do
	if ((kept[$job] < runs)); then
		echo "the machine was at its reference speed around only ${kept[$job]} of $runs runs of" \
			"'$job' in $max_attempts attempts (probes: $probes_log); not regenerating" >&2
		exit 1
	fi
done

command="scripts/generate-weights.sh $runs $steps $repeat $margin $accounts $scope"
merge() { # PALLET CHAIN TEMPLATE OUTPUT [--results DIR]
	"$target_dir/release/merge-weights" --template "$3" --output "$4" --margin-percent "$margin" \
		--command "$command" "${@:5}" "$runs_dir/$1-$2-"[0-9]*.json
}
results=(--results "$runs_dir/results")
# `derive_committee_key` is merged as a rise: a committee's shares beyond the first are to be
# charged its rise above one share (docs/benchmarking.md).
verifier_results=("${results[@]}" --rise-charged derive_committee_key)
merge pallet_pq_verifier dev runtime/weight-template.hbs runtime/src/weights/pallet_pq_verifier.rs "${verifier_results[@]}"
merge pallet_pq_verifier dev-pure-wasm pallets/pq-verifier/weight-template.hbs pallets/pq-verifier/src/weights.rs "${verifier_results[@]}"
[[ "$scope" == all ]] || exit 0
for pallet in "${frame_pallets[@]}"; do
	merge "$pallet" dev runtime/weight-template.hbs "runtime/src/weights/$pallet.rs" "${results[@]}"
done
# Each storage run rendered its averages as a pallet-shaped run (`storage-run-data.hbs`); no
# components, so no raw results: the largest run's average, plus the margin.
merge ParityDb storage runtime/db-weight-template.hbs runtime/src/weights/paritydb_weights.rs
