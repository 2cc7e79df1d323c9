#!/usr/bin/env bash
# The gates every change passes (part of scripts/test.sh, so of CI): formatting (rustfmt.toml),
# clippy with every warning an error on every crate and target, and zepter's check that each
# crate forwards its `std`, `runtime-benchmarks` and `try-runtime` features to the dependencies
# that have them (.config/zepter.yaml) — a missing forward builds here and breaks a runtime that
# enables the feature; and that no two modules of a crate import each other
# (scripts/module-layers.py).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/common.sh

cargo fmt --all --check
# SKIP_WASM_BUILD: clippy reads the runtime's Rust, not its Wasm blob. `--release` shares the
# dependencies' checked metadata with the test command's `cargo check --release`.
build_with_progress env SKIP_WASM_BUILD=1 \
	cargo clippy --release --workspace --all-targets --quiet -- -D warnings
# The benchmarks and the try-runtime checks (migrations' checks, `try_state`) compile only
# under their features: the runtime with both, which enables them in the pallet.
build_with_progress env SKIP_WASM_BUILD=1 cargo clippy --release -p pq-runtime --all-targets \
	--features runtime-benchmarks,try-runtime --quiet -- -D warnings
zepter run check
# Imports point down: no two top-level modules of a crate import each other. (An assignment, so
# a failing `cargo metadata` stops the script instead of checking no crate.)
crates=$(cargo metadata --no-deps --format-version 1 |
	python3 -c 'import json, os, sys; print(*(os.path.dirname(p["manifest_path"]) for p in json.load(sys.stdin)["packages"]))')
# shellcheck disable=SC2086 # one directory a word
python3 scripts/module-layers.py $crates
