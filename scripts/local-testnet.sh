#!/usr/bin/env bash
# Runs a local testnet of N validators (default 3, at most 6: //Alice, //Bob, …) on loopback,
# each an ordinary pq-node process: Aura makes the blocks in turn, GRANDPA finalizes them.
#
#   scripts/local-testnet.sh [N] [--block-time MS]
#
# Builds as scripts/dev-chain.sh does, writes the chain specification (`build-spec --chain
# local-N`, block time set in it) and runs node i with `--<name>` (its dev keys in its keystore,
# as a validator), P2P port 30333+i, JSON-RPC 9944+i, Prometheus 9615+i, base path and log under
# $PQ_TESTNET_DIR (default ./local-testnet). Every node but the first bootstraps from the first.
# Ctrl-C stops them all. A plain script over the node's own flags (and curl, and Node.js to
# edit the JSON): no containers, and each flag is the one an operator would use.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/common.sh

validators=3
block_time_ms=6000
while (($#)); do
	case "$1" in
		--block-time) block_time_ms="${2:-}"; shift $(($# > 1 ? 2 : 1)) ;;
		[1-6]) validators="$1"; shift ;;
		*) echo "usage: scripts/local-testnet.sh [1-6] [--block-time MS]" >&2; exit 1 ;;
	esac
done

if [[ ! "$block_time_ms" =~ ^[1-9][0-9]*$ ]] || ((block_time_ms < 100 || block_time_ms > 3600000)); then
	echo "--block-time: milliseconds, 100 to 3600000" >&2
	exit 1
fi

scripts/install-prerequisites.sh
build_with_progress cargo test --release --workspace --no-run
pq_node="$target_dir/release/pq-node"
dir="${PQ_TESTNET_DIR:-./local-testnet}"
mkdir -p "$dir"
spec="$dir/spec.json"
"$pq_node" build-spec --chain "local-$validators" --disable-default-bootnode 2>"$dir/build-spec.log" |
	node -e '
		let json = ""; process.stdin.on("data", (d) => (json += d)).on("end", () => {
			const spec = JSON.parse(json);
			spec.genesis.runtimeGenesis.patch.auraSlotDurationMs = Number(process.argv[1]);
			process.stdout.write(JSON.stringify(spec, null, 2));
		});' "$block_time_ms" >"$spec"

names=(alice bob charlie dave eve ferdie)
pids=()
stop() {
	trap - INT TERM EXIT
	echo "stopping ${#pids[@]} nodes" >&2
	kill -INT "${pids[@]}" 2>/dev/null || true
	wait "${pids[@]}" 2>/dev/null || true
}
trap stop INT TERM EXIT

bootnode=()
for ((i = 0; i < validators; i++)); do
	name=${names[$i]}
	log="$dir/$name.log"
	"$pq_node" --chain "$spec" "--$name" --base-path "$dir/$name" --unsafe-force-node-key-generation \
		--port $((30333 + i)) --rpc-port $((9944 + i)) --prometheus-port $((9615 + i)) \
		"${bootnode[@]}" >"$log" 2>&1 &
	pids+=($!)
	if ((i == 0)); then
		# The first node's peer id (system_localPeerId, once JSON-RPC is up: a cold start
		# compiles the runtime first) makes the others' bootnode address.
		peer=""
		for _ in $(seq 240); do
			peer=$(curl -s -H 'Content-Type: application/json' 127.0.0.1:9944 \
				-d '{"jsonrpc":"2.0","id":1,"method":"system_localPeerId","params":[]}' |
				grep -o '12D3[A-Za-z0-9]*' || true)
			[[ -n "$peer" ]] && break
			kill -0 "${pids[0]}" 2>/dev/null || break
			sleep 0.5
		done
		[[ -n "$peer" ]] || { echo "$name did not start; see $log" >&2; exit 1; }
		bootnode=(--bootnodes "/ip4/127.0.0.1/tcp/30333/p2p/$peer")
	fi
	echo "$name: ws://127.0.0.1:$((9944 + i)), log $log" >&2
done
echo "$validators validators, ${block_time_ms} ms blocks; Ctrl-C stops them" >&2
wait -n "${pids[@]}" || true
echo "a node exited; see the logs in $dir" >&2
