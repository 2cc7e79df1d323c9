#!/usr/bin/env bash
# Builds pq-node and pq-cli exactly as the README's test command does (same profile, same
# features, so the tests, the chain and the CLI share one build) and runs the node: `--dev`
# unless given other arguments, e.g. `scripts/dev-chain.sh --dev --base-path ./pq-chain`.
set -euo pipefail
cd "$(dirname "$0")/.."
# Where cargo puts its output: CARGO_TARGET_DIR if set (README: Set up), else ./target.
target_dir="${CARGO_TARGET_DIR:-$PWD/target}"

cargo test --release --workspace --no-run
if (($# == 0)); then
	set -- --dev
fi
exec "$target_dir/release/pq-node" "$@"
