#!/usr/bin/env bash
# Counts the page faults of block authoring on the dev node, runtime call by runtime call:
# runs the throughput harness for the given cases, records every page fault of the node
# (`perf record -e page-faults -c 1 -d`, the faulting address and instruction) only while it
# authors each case's blocks, and splits them into runtime calls — each call's instance grows
# its reset memory by the executor's pre-allocated heap, which perf sees as a mapping, so each
# such mapping starts one — by where they land: the runtime's Wasm stack (its first MiB), its
# data image, its heap, or the node's own memory (page-faults.py). Page faults are counted, not
# timed, so the figures repeat on a VM whose speed drifts.
# Usage: benchmarking/page-faults.sh [CASES [BUILD [TRANSACTIONS]]]
#        (defaults "ml-dsa-87 registered", pure-wasm, 2000; CASES as the harness's --only,
#        e.g. "ed25519 key inline,ml-dsa-87 registered"). Needs `perf`.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/common.sh
cases="${1:-ml-dsa-87 registered}"
build="${2:-pure-wasm}"
transactions="${3:-2000}"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT

cargo test --release --workspace --no-run --quiet
source benchmarking/record-authoring.sh
record_authoring "$out" -e page-faults -c 1 -d -m 1024 -- \
	--only "$cases" --verifiers "$build" --transactions "$transactions"
python3 benchmarking/page-faults.py "$out"/*.data
