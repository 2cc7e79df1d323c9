#!/usr/bin/env bash
# Packages the crates others can depend on as `cargo publish` would upload them, and builds
# each package from its own files alone (cargo's verification: a file missing from a package, a
# path dependency without a version, a feature a package's own manifest lacks, all fail here).
# Arguments are packages; by default fips204, pq-crypto, pq-signer, pallet-pq-verifier and
# pq-client, which cargo packages in dependency order, resolving each one's dependencies on the
# others to the packages it has just made. Not part of the test command: verifying builds every package's
# dependencies in the debug profile, which nothing else here uses (about half an hour cold).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/common.sh

packages=("$@")
if ((${#packages[@]} == 0)); then
	packages=(fips204 pq-crypto pq-signer pallet-pq-verifier pq-client)
fi
args=()
for package in "${packages[@]}"; do
	args+=(-p "$package")
done
# Cargo extracts the packages it has just made into the registry's source cache by name and
# version, and reuses an extraction of the same version from an earlier run, however stale; and
# it takes a registry crate's build to be current whatever its files say, so the verification
# builds (debug profile, used by nothing else) of an earlier run's packages go too.
for package in "${packages[@]}"; do
	rm -rf "${CARGO_HOME:-$HOME/.cargo}"/registry/src/-*/"$package"-[0-9]*
	rm -rf "$CARGO_TARGET_DIR"/debug/.fingerprint/"$package"-*
done
# SKIP_WASM_BUILD: no package here is a runtime, but their builds must not start one.
SKIP_WASM_BUILD=1 cargo package --allow-dirty "${args[@]}"
ls -l "$CARGO_TARGET_DIR"/package/*.crate
