#!/usr/bin/env bash
# Profiles block authoring on the dev node: runs the throughput harness for one case and the
# Ed25519 baselines, attaches `perf record` to the node only while it authors each case's
# blocks, and prints where the CPU time per transaction goes, by category, one column per case.
# Wasm frames are named through wasmtime's perf map.
# Usage: benchmarking/profile-authoring.sh [CASE [BUILD]] (defaults "ml-dsa-87 key inline" and
#        host-functions); BUILD pure-wasm profiles the case and Ed25519 transfers on the
#        pure-Wasm runtime too, beside their host-function columns (the harness runs those
#        always). Needs `perf`.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/common.sh
case_label="${1:-ml-dsa-87 key inline}"
build="${2:-host-functions}"
transactions=2000
out="$(mktemp -d)"

cargo test --release --workspace --no-run --quiet
# sc-executor-wasmtime writes /tmp/perf-<pid>.map for the runtime's compiled code.
export WASMTIME_PROFILING_STRATEGY=perfmap
profile() { # CASE: the case on $build, and the harness's baseline (Ed25519, host functions)
	local current=""
	"$target_dir/release/throughput" --node "$target_dir/release/pq-node" --only "$1" \
		--verifiers "$build" --transactions "$transactions" 2>&1 >/dev/null |
		while IFS= read -r line; do
			echo "$line" >&2
			if [[ "$line" =~ ^\[run.*\]\ (host\ functions|pure\ Wasm),\ (.*)\ ×\ [0-9]+$ ]]; then
				current="${BASH_REMATCH[1]}: ${BASH_REMATCH[2]}"
			elif [[ "$line" == *"pool accepted"* ]]; then
				# The newest node is the one about to author.
				perf record -F 999 -p "$(pgrep -n -x pq-node)" -o "$out/${current// /_}.data" >/dev/null 2>&1 &
				echo $! >"$out/perf.pid"
			elif [[ "$line" == *"authored"* ]]; then
				kill -INT "$(cat "$out/perf.pid")"
				wait "$(cat "$out/perf.pid")" 2>/dev/null || true
			fi
		done
}
profile "$case_label"
# The harness always runs Ed25519 through host functions; another build's Ed25519 is a case.
[[ "$build" == host-functions ]] || profile "ed25519 key inline"
python3 benchmarking/profile-categories.py "$transactions" "$out"/*.data
