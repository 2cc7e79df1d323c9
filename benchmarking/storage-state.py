#!/usr/bin/env python3
"""Adds ACCOUNTS endowed accounts to the chain specification on stdin and writes it to stdout.

`benchmark storage` measures a read and a write over the keys of a real database; on the dev
chain's genesis alone (a few dozen keys) the trie is two levels deep and every read is cheap.
This gives it a state of a busy chain's shape: ACCOUNTS `System::Account` entries, each id
derived from its index (no one holds their keys; they are only read and written).
Usage: pq-node build-spec --chain dev | storage-state.py ACCOUNTS > spec.json
"""
import hashlib
import json
import sys

ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
GENERIC_SUBSTRATE_PREFIX = 42


def base58(data: bytes) -> str:
    number = int.from_bytes(data, "big")
    encoded = ""
    while number:
        number, digit = divmod(number, 58)
        encoded = ALPHABET[digit] + encoded
    return "1" * (len(data) - len(data.lstrip(b"\0"))) + encoded


def ss58(account_id: bytes) -> str:
    payload = bytes([GENERIC_SUBSTRATE_PREFIX]) + account_id
    checksum = hashlib.blake2b(b"SS58PRE" + payload, digest_size=64).digest()[:2]
    return base58(payload + checksum)


def main() -> None:
    accounts = int(sys.argv[1])
    spec = json.load(sys.stdin)
    balances = spec["genesis"]["runtimeGenesis"]["patch"]["balances"]["balances"]
    for index in range(accounts):
        account_id = hashlib.blake2b(b"storage-benchmark" + index.to_bytes(4, "little"), digest_size=32).digest()
        balances.append([ss58(account_id), 10**15])
    json.dump(spec, sys.stdout)


if __name__ == "__main__":
    main()
