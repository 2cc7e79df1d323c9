# Sourced by the scripts that record the dev node while it authors (profile-authoring.sh,
# page-faults.sh): runs the throughput harness and `perf record` on the authoring node from
# the moment its pool has accepted a case's transactions until the case's blocks are authored.
# sc-executor-wasmtime writes /tmp/perf-<pid>.map, naming the runtime's compiled functions.
export WASMTIME_PROFILING_STRATEGY=perfmap

# record_authoring OUT PERF_OPTIONS -- HARNESS_OPTIONS: one OUT/<build>:_<case>.data per case.
record_authoring() {
	local out="$1" perf_options=() current=""
	shift
	while (($#)) && [[ "$1" != -- ]]; do
		perf_options+=("$1")
		shift
	done
	if (($# == 0)); then
		echo "record_authoring: perf's options end with --, then the harness's" >&2
		return 1
	fi
	shift
	"$target_dir/release/throughput" --node "$target_dir/release/pq-node" "$@" 2>&1 >/dev/null |
		while IFS= read -r line; do
			echo "$line" >&2
			if [[ "$line" =~ ^\[run.*\]\ (host\ functions|pure\ Wasm),\ (.*)\ ×\ [0-9]+$ ]]; then
				current="${BASH_REMATCH[1]}: ${BASH_REMATCH[2]}"
			elif [[ "$line" == *"pool accepted"* ]]; then
				# The newest node is the one about to author.
				perf record "${perf_options[@]}" -p "$(pgrep -n -x pq-node)" \
					-o "$out/${current// /_}.data" >/dev/null &
				echo $! >"$out/perf.pid"
			elif [[ "$line" == *"authored"* ]]; then
				kill -INT "$(cat "$out/perf.pid")"
				wait "$(cat "$out/perf.pid")" 2>/dev/null || true
			fi
		done
}
