#!/usr/bin/env bash
# Runs the dev chain: installs what is missing, builds pq-node and pq-cli exactly as
# scripts/test.sh does (same profile, same features, same build directory, so the tests, the
# chain and the CLI share one build) and runs the node: `--dev` unless given other arguments,
# e.g. `scripts/dev-chain.sh --dev --base-path ./pq-chain`.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/common.sh
scripts/install-prerequisites.sh

build_with_progress cargo test --release --workspace --no-run
echo "pq-node and pq-cli are in $target_dir/release" >&2
if (($# == 0)); then
	set -- --dev
fi
exec "$target_dir/release/pq-node" "$@"
