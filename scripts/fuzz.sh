#!/usr/bin/env bash
# Differential fuzzing of ML-DSA verification (primitives/pq-crypto/fuzz, target
# `differential`): our own verifier on both engines, libcrux and RustCrypto must agree on every
# input. Needs the nightly toolchain and cargo-fuzz (installed here if missing). Not part of the
# test command: a run of 10^7 executions takes hours. Usage:
#   scripts/fuzz.sh [executions [jobs [sanitizer]]]
# (default 10,000,000 executions in 1 job with AddressSanitizer; N jobs share them and the
# corpus, one per core; sanitizer `none` runs about twice as fast — the differential assertion
# is the check, the sanitizer adds memory-safety checks of the `unsafe` SIMD code);
# the corpus is kept in $HOME/.cache/pq-verifier/fuzz-corpus, so runs continue where the last
# one stopped. Prints libFuzzer's final statistics (executions, corpus size, coverage) of each
# job.
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-10000000}"
jobs="${2:-1}"
sanitizer="${3:-address}"
# Sanitizer-instrumented nightly builds, kept apart from the shared build directory (and from
# each other).
export CARGO_TARGET_DIR="$HOME/.cache/pq-verifier/fuzz-target"
if [[ $sanitizer == none ]]; then
	CARGO_TARGET_DIR+=-nosan
fi
if ! cargo +nightly fuzz --version >/dev/null 2>&1; then
	cargo +nightly install cargo-fuzz --locked
fi
corpus="$HOME/.cache/pq-verifier/fuzz-corpus"
mkdir -p "$corpus"
cd primitives/pq-crypto/fuzz
# -print_final_stats: the executions and corpus size docs/signature-core.md reports.
fuzz=(cargo +nightly fuzz run --release -s "$sanitizer" --fuzz-dir "$PWD" differential "$corpus" --
	-print_final_stats=1 -max_len=8192)
if ((jobs == 1)); then
	"${fuzz[@]}" -runs="$runs"
else
	# libFuzzer writes job N's output to fuzz-N.log in the working directory.
	cd "$(mktemp -d)"
	"${fuzz[@]}" -runs=$((runs / jobs)) -jobs="$jobs" -workers="$jobs"
	for log in fuzz-*.log; do
		echo "== $log"
		grep -E '^(stat::|==|.*(panicked|disagree|deadly signal))' "$log" || true
	done
fi
