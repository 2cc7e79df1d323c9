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
source benchmarking/record-authoring.sh
profile() { # CASE: the case on $build, and the harness's baseline (Ed25519, host functions)
	record_authoring "$out" -F 999 -- --only "$1" --verifiers "$build" --transactions "$transactions"
}
profile "$case_label"
# The harness always runs Ed25519 through host functions; another build's Ed25519 is a case.
[[ "$build" == host-functions ]] || profile "ed25519 key inline"
python3 benchmarking/profile-categories.py "$transactions" "$out"/*.data
