#!/usr/bin/env bash
# Installs what a fresh Debian/Ubuntu machine with rustup needs to build this workspace, and
# nothing that is already there (a second run takes a second): the C toolchain and libraries
# (clang: sp-io's secp256k1 for Wasm; libssl-dev and pkg-config: the node's OpenSSL;
# protobuf-compiler: libp2p), the Rust toolchain, target and components rust-toolchain.toml
# names (machines with RUSTUP_AUTO_INSTALL=0 do not add them on their own), and zepter. Debian
# packages a script needs beyond these are its arguments.
#
#   scripts/install-prerequisites.sh [DEBIAN_PACKAGE...]
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(clang libssl-dev pkg-config protobuf-compiler "$@")
missing=()
for package in "${packages[@]}"; do
	dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
done
if ((${#missing[@]})); then
	echo "installing: ${missing[*]}" >&2
	sudo=$([[ $(id -u) -eq 0 ]] || echo sudo)
	$sudo apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

if ! command -v rustup >/dev/null; then
	echo "rustup is needed (https://rustup.rs); it installs the toolchain rust-toolchain.toml names" >&2
	exit 1
fi
# With no arguments, `rustup toolchain install` installs rust-toolchain.toml's toolchain with its
# targets and components, and does nothing when they are there.
rustup toolchain install --no-self-update >/dev/null 2>&1 || rustup toolchain install
installed=$(rustup target list --installed)
grep -qx wasm32v1-none <<<"$installed" || rustup target add wasm32v1-none
components=$(rustup component list --installed)
for component in rust-src rustfmt clippy; do
	grep -q "^$component" <<<"$components" || rustup component add "$component"
done
# zepter checks that every crate forwards its features to its dependencies (scripts/lint.sh).
zepter_version=1.88.2
if [[ "$(zepter --version 2>/dev/null)" != "zepter $zepter_version" ]]; then
	cargo install --locked --quiet zepter --version "$zepter_version"
fi

# The JavaScript client (clients/js) is tested with Node.js's own test runner.
if ! command -v npm >/dev/null || (( $(node -p 'process.versions.node.split(".")[0]') < 20 )); then
	echo "Node.js 20 or later with npm is needed for the JavaScript client (clients/js)" >&2
	exit 1
fi
