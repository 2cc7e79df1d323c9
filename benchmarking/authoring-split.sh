#!/usr/bin/env bash
# Block authoring split block by block, from the authoring node's own proposer log: the time
# before the loop that applies a case's transfers, in it, and after the last one (a full block's
# surplus tried and refused, finalization, roots), with each case's ratios to the same run's Ed25519
# transfers on the same build. Answers what a case's authoring time is made of where the
# throughput table gives only its sum (docs/throughput.md, "Block by block").
# Usage: benchmarking/authoring-split.sh [throughput options]
#        e.g. --verifiers pure-wasm --only "ed25519 key inline,ml-dsa-87 registered"
#             --transactions 2000 --repeat 3
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/common.sh

# The harness's transfers per case (its default, or as given), to find each case's blocks.
transactions=2000
arguments=("$@")
for ((i = 0; i < ${#arguments[@]}; i++)); do
	case "${arguments[$i]}" in
	--transactions=*) transactions="${arguments[$i]#*=}" ;;
	--transactions) transactions="${arguments[$((i + 1))]:-}" ;;
	esac
done
if ! [[ "$transactions" =~ ^[0-9]+$ ]]; then
	echo "authoring-split: --transactions needs a number" >&2
	exit 1
fi

cargo test --release --workspace --no-run --quiet
logs="$(mktemp -d)"
trap 'rm -rf "$logs"' EXIT
# The proposer logs each transfer it pushes at trace level, with millisecond timestamps.
RUST_LOG="basic-authorship=trace" "$target_dir/release/throughput" \
	--node "$target_dir/release/pq-node" --node-logs "$logs" "$@" >/dev/null
python3 benchmarking/authoring-split.py "$transactions" "$logs"/*.log
