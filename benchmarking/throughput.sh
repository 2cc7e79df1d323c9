#!/usr/bin/env bash
# Measures block-level throughput of every scheme and transaction form on the dev node and
# writes the table into docs/throughput.md (between the `results` markers) and the plots beside
# it. Usage: benchmarking/throughput.sh [--section NAME] [--transactions N] [--repeat N]
# [--only CASE[,CASE…]] [--verifiers host-functions,pure-wasm]
# `--section NAME` writes between the `results:NAME` markers instead, without plots: a run of
# some cases (a target's) beside the full table rather than in its place.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/common.sh
# The command as the report shows it: an argument with spaces in quotes, so it can be rerun.
shown=""
for argument in "$@"; do
	[[ "$argument" == *" "* ]] && argument="\"$argument\""
	shown+=" $argument"
done
markers=results
plots=(--plots docs)
if [[ "${1:-}" == --section ]]; then
	markers="results:$2"
	plots=()
	shift 2
fi

# The build of the README's test command: pq-node and the harness, without a second compile.
cargo test --release --workspace --no-run
"$target_dir/release/throughput" --node "$target_dir/release/pq-node" "${plots[@]}" "$@" |
	benchmarking/write-results.sh docs/throughput.md "benchmarking/throughput.sh$shown" "$markers"
