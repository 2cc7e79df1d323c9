#!/usr/bin/env bash
# Runs every test: installs what is missing (scripts/install-prerequisites.sh), builds into the
# shared build directory (scripts/common.sh), runs the gates (scripts/lint.sh) and the unit, property, vector, runtime and
# end-to-end tests, the pallet's benchmarks as tests on its mock runtime, then the JavaScript
# client's tests against a pq-node of this build. CI runs exactly this (README.md's test
# command). Arguments go to the first `cargo test` (e.g. a test name).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/common.sh
scripts/install-prerequisites.sh

vectors="${PQ_VECTORS_DIR:-../shared/vectors}"
if [[ ! -d "$vectors" ]]; then
	echo "the NIST ACVP vectors are read from $vectors (PQ_VECTORS_DIR overrides); it does not exist" >&2
	exit 1
fi

log=$(mktemp)
trap 'rm -f "$log"' EXIT
build_with_progress cargo test --release --workspace --no-run
# pq-minimal-runtime, the pallet added as docs/pallet.md says, for Wasm without default
# features: where a missing `default-features = false` or `std` forward shows. A check of the
# runtime crate as substrate-wasm-builder compiles it (`substrate_runtime`), not a blob build.
build_with_progress env SKIP_WASM_BUILD=1 RUSTFLAGS="--cfg substrate_runtime" cargo check \
	--release -p pq-minimal-runtime --target wasm32v1-none --no-default-features
# The JavaScript client's dependencies, exactly as package-lock.json pins them.
npm ci --no-audit --no-fund --loglevel=error
# pq-client and pq-cli are clients for any runtime with the pallet: nothing of pq-runtime in
# their dependency trees (`cargo tree -i` fails when the package is not in the tree).
for client in pq-client pq-cli; do
	if cargo tree --quiet -p "$client" -e normal,build -i pq-runtime >/dev/null 2>&1; then
		echo "$client depends on pq-runtime: it must work with any runtime's metadata" >&2
		exit 1
	fi
done
# The log sums every test binary's, doc-test's and JavaScript test file's results into one
# closing line, printed whether or not a test failed. Every command runs (`step` records a
# failure instead of stopping), any failing one fails the script, and each is named ("step
# failed: …", repeated at the end): a command can fail with every test it ran passing (a gate,
# a test binary that crashes after its results), which the count alone would not show.
status=0
{
	failed=0
	step() {
		local code=0
		"$@" || code=$?
		if ((code != 0)); then
			echo "step failed: $* (exit $code)"
			failed=1
		fi
	}
	# Formatting, clippy (also of the runtime's `runtime-benchmarks` and `try-runtime` code:
	# a check, not a second build) and feature propagation.
	step scripts/lint.sh
	# --no-fail-fast: a failing test binary must not hide the results of those after it.
	step cargo test --release --workspace --no-fail-fast "$@"
	step cargo test --release -p pallet-pq-verifier --features runtime-benchmarks --no-fail-fast
	# The JavaScript client against a pq-node of this build (clients/js).
	step npm test
	exit "$failed"
} 2>&1 | tee "$log" || status=$?
# Closing lines: what failed, and why where cargo said (a test binary's exit status), so the
# end of a long log tells it.
grep -a -E "^step failed: |^error: |^  process didn't exit successfully" "$log" | tail -n 20 || true
awk '/^test result:/ { passed += $4; failed += $6; ignored += $8 }
	/^# pass / { passed += $3 } /^# fail / { failed += $3 } /^# skipped / { ignored += $3 }
	END { printf "tests: %d passed, %d failed, %d skipped\n", passed, failed, ignored }' "$log"
exit "$status"
