#!/usr/bin/env bash
# Installs what a fresh Debian/Ubuntu machine needs to build this workspace: the C toolchain and
# libraries (clang: sp-io's secp256k1 for Wasm; libssl-dev and pkg-config: the node's OpenSSL;
# protobuf-compiler: libp2p), and the Rust target and component rust-toolchain.toml names
# (machines with RUSTUP_AUTO_INSTALL=0 do not add them on their own).
set -euo pipefail

packages=(clang libssl-dev pkg-config protobuf-compiler)
missing=()
for package in "${packages[@]}"; do
	dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
done
if ((${#missing[@]})); then
	echo "installing: ${missing[*]}"
	sudo=$([[ $(id -u) -eq 0 ]] || echo sudo)
	$sudo apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

cd "$(dirname "$0")/.."
rustup target add wasm32v1-none
rustup component add rust-src
