#!/usr/bin/env bash
# Runs pq-minimal-runtime (minimal-runtime/, the pallet added as docs/pallet.md says) on a stock
# node: builds its Wasm blob, installs polkadot-omni-node from crates.io at the version of this
# workspace's polkadot-sdk (stable2609) unless it is there, writes a chain spec of the runtime's
# `development` preset with the node's own `chain-spec-builder`, and starts the node sealing a
# block every BLOCK_TIME ms (default 3000) with JSON-RPC on 127.0.0.1:9944 — then submit ML-DSA
# transfers with `pq-cli` (docs/pallet.md shows the commands). With `--transfers` it submits
# them itself — ML-DSA-44 and ML-DSA-87 transfers from the preset's `//Alice` accounts, each
# checked to apply and pay its fee — and stops the node. Installing the node compiles it once
# (about two hours on two cores); later runs start in seconds.
#
#   scripts/minimal-runtime.sh [--transfers] [BLOCK_TIME]
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/common.sh

transfers=false
if [[ "${1:-}" == --transfers ]]; then
	transfers=true
	shift
fi
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
node=(polkadot-omni-node --chain "$spec" --dev-block-time "$block_time" --tmp
	--rpc-port 9944 --rpc-cors all)
if ! $transfers; then
	exec "${node[@]}"
fi

# pq-cli as the tests and scripts/dev-chain.sh build it (one build for all of them).
build_with_progress cargo test --release --workspace --no-run
cli="$target_dir/release/pq-cli"
log=$(dirname "$spec")/node.log
"${node[@]}" >"$log" 2>&1 &
node_pid=$!
trap 'kill "$node_pid" 2>/dev/null || true' EXIT
for _ in $(seq 120); do
	curl -sf -H 'Content-Type: application/json' \
		-d '{"id":1,"jsonrpc":"2.0","method":"system_health","params":[]}' \
		http://127.0.0.1:9944 >/dev/null && break
	kill -0 "$node_pid" 2>/dev/null || { cat "$log" >&2; exit 1; }
	sleep 1
done
# pq-cli fails unless the transfer is in a block with its call applied.
"$cli" transfer --from ml-dsa-44://Alice --to ed25519://Alice --amount 1
"$cli" transfer --from ml-dsa-87://Alice --to ed25519://Alice --amount 1
echo "ML-DSA-44 and ML-DSA-87 transfers applied on polkadot-omni-node (node log: $log)" >&2
