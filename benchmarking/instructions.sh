#!/usr/bin/env bash
# Instruction counts of verification (benchmarking/instructions, valgrind's callgrind through
# gungraun): repeatable where wall-clock time on this VM is not. Its own workspace and build
# directory (gungraun's dependencies must not touch the main Cargo.lock). Installs
# gungraun-runner (the version of the gungraun library the bench uses) if missing, and prints
# gungraun's report; docs/benchmarks.md quotes it.
set -euo pipefail
cd "$(dirname "$0")/instructions"
export CARGO_TARGET_DIR="$HOME/.cache/pq-verifier/instructions-target"
version=$(grep -Eo 'gungraun = "=[0-9.]+"' Cargo.toml | grep -Eo '[0-9]+\.[0-9]+\.[0-9]+')
if [[ "$(gungraun-runner --version 2>/dev/null)" != *"$version"* ]]; then
	cargo install gungraun-runner --version "$version" --locked
fi
cargo bench --bench instructions
