# Sourced by the project's scripts: where builds go, and the set-up every command needs.

# Build output lives outside the clone, so every checkout, every script and CI share one build;
# CARGO_TARGET_DIR overrides it.
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/pq-verifier/target}"
target_dir="$CARGO_TARGET_DIR"

# Runs a build command ("$@") so that a person can follow a long first build: cargo's lines,
# and a line a minute saying how long it has run and what it is on.
build_with_progress() {
	if [[ ! -x "$target_dir/release/pq-node" ]]; then
		echo "First build into $target_dir: about 45 minutes on two cores — the dependencies," \
			"then the runtime's two Wasm blobs (pq-runtime, about 10 minutes, quiet), then the node," \
			"CLI and tests. Later builds reuse it and take seconds to a few minutes." >&2
	fi
	local log start ticker status=0
	log=$(mktemp)
	start=$(date +%s)
	(
		while sleep 60; do
			local current
			# `|| true`: a quiet build (`--quiet`, clippy's `Checking`) matches nothing, and under
			# `set -e` the ticker would end at its first tick and `kill` below fail the caller.
			current=$(grep -Eo '(Compiling|Building) [^ ]+' "$log" | tail -n 1 || true)
			echo "… $(( ($(date +%s) - start) / 60 )) min so far${current:+, last: $current}" >&2
		done
	) &
	ticker=$!
	"$@" 2> >(tee -a "$log" >&2) || status=$?
	kill "$ticker" 2>/dev/null || true
	wait "$ticker" 2>/dev/null || true
	rm -f "$log"
	return "$status"
}
