#!/usr/bin/env bash
# Rewrites docs/wire-format-vectors.json, the reference vectors of docs/wire-format.md, from the
# Rust transaction builder (runtime-client/tests/wire_format.rs, which fails while the file is stale).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/common.sh
PQ_UPDATE_WIRE_VECTORS=1 cargo test --release --workspace --test wire_format
