#!/usr/bin/env bash
# Where the instructions of a block import go, by function of the pure-Wasm runtime: callgrind
# over `parachain-costs` (a parachain validator's executor importing a block of TRANSACTIONS
# transfers of KIND and its timestamp-only baseline, once each), collecting only the imports,
# with wasmtime writing a perf map so that the code it compiled is named by function
# (benchmarking/wasm-functions.py). Instructions are repeatable on this VM where time is not.
# The Ed25519 kind always runs too (every ratio's baseline): its functions appear beside
# KIND's, all divided by TRANSACTIONS. The profile stays in $target_dir/wasm-functions.
# With CALLEE (a regular expression over those names, e.g. '^\[wasm\] memcpy$'), it lists who
# calls the matching functions and the instructions each spends in them instead.
# Usage: benchmarking/wasm-functions.sh KIND [TRANSACTIONS] [TOP] [CALLEE]
#        (KIND as parachain-costs names it, e.g. "ml-dsa-87 registered"; defaults 50 and 40)
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/common.sh
kind="${1:?usage: benchmarking/wasm-functions.sh KIND [TRANSACTIONS] [TOP]}"
transactions="${2:-50}"
top="${3:-40}"
callee=("${@:4:1}")

# The build of the README's test command, without a second compile.
cargo test --release --workspace --no-run
out="$target_dir/wasm-functions"
mkdir -p "$out"
WASMTIME_PROFILING_STRATEGY=perfmap valgrind --tool=callgrind \
	--callgrind-out-file="$out/callgrind.out" --toggle-collect='*import_time*' \
	"$target_dir/release/parachain-costs" --transactions "$transactions" --runs 1 \
	--recreate-instances --only "$kind" >"$out/run.log" 2>&1
pid=$(sed -n 's/^pid: //p' "$out/callgrind.out")
python3 benchmarking/wasm-functions.py "$out/callgrind.out" "/tmp/perf-$pid.map" "$transactions" "$top" \
	${callee[@]+"${callee[@]}"}
