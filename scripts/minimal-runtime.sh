#!/usr/bin/env bash
# Runs pq-minimal-runtime (minimal-runtime/, the pallet added as docs/pallet.md says) on a stock
# node: builds its Wasm blob, installs polkadot-omni-node from crates.io at the version of this
# workspace's polkadot-sdk (stable2609) unless it is there, writes a chain spec of the runtime's
# `development` preset with the node's own `chain-spec-builder`, and starts the node sealing a
# block every BLOCK_TIME ms (default 3000) with JSON-RPC on 127.0.0.1:9944 — then submit ML-DSA
# transfers with `pq-cli` (docs/pallet.md shows the commands). Installing the node compiles it
# once (an hour or more on two cores); later runs start in seconds.
#
#   scripts/minimal-runtime.sh [BLOCK_TIME]
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/common.sh

block_time="${1:-3000}"
omni_node_version=0.24.0 # the crate of stable2609 (its binary calls itself 1.25.x)
if ! cargo install --list | grep -q "^polkadot-omni-node v$omni_node_version:"; then
	# Its RocksDB bindings are generated from C headers with libclang.
	scripts/install-prerequisites.sh libclang-dev
	# In a build directory of its own: its thousand-odd crates are none of this workspace's.
	cargo install --locked polkadot-omni-node --version "$omni_node_version" \
		--target-dir "$HOME/.cache/pq-verifier/omni-node-target"
fi

cargo build --release -p pq-minimal-runtime --features wasm-blob
blob="$CARGO_TARGET_DIR/release/wbuild/pq-minimal-runtime/pq_minimal_runtime.compact.compressed.wasm"
spec=$(mktemp -d)/pq-minimal-runtime.json
polkadot-omni-node chain-spec-builder -c "$spec" create -t development --relay-chain dev --para-id 1000 \
	--runtime "$blob" --properties tokenSymbol=UNIT,tokenDecimals=12,ss58Format=42 \
	named-preset development
exec polkadot-omni-node --chain "$spec" --dev-block-time "$block_time" --tmp \
	--rpc-port 9944 --rpc-cors all
