"""Sums `perf record` samples of block authoring into categories and prints a markdown table of
CPU microseconds per transaction, one column per profile. Used by profile-authoring.sh.

Usage: profile-categories.py TRANSACTIONS PROFILE.data...
"""
import re
import subprocess
import sys

SAMPLE_HZ = 999
# First match wins; symbols come as "<dso> [.] <symbol>".
CATEGORIES = [
    ("signature verification (host functions: our ML-DSA verifier, dalek; AVX2)", r"fips204|keccak|libcrux|curve25519|ed25519|core_arch"),
    ("hashing (blake2, twox host functions)", r"blake2|twox|xxhash"),
    ("storage: overlay, trie, database", r"trie|parity_db|memory_db|hash_db|sp_state_machine|overlayed|sc_client_db|LZ4"),
    ("Wasm: memcpy inside the runtime", r"^\[JIT\].*(memcpy|memmove|memset)"),
    ("Wasm: other runtime code (SCALE, FRAME)", r"^\[JIT\]"),
    ("host: Wasm memory, allocator, host-call glue", r"wasmtime|sc_allocator|sc_executor|sp_wasm_interface|sp_io::allocator"),
    ("host: memcpy, malloc (libc)", r"libc\.so"),
    ("kernel: page faults, scheduling", r"kernel"),
    ("RPC, JSON, metrics", r"serde_json|jsonrpsee|impl_serde|prometheus"),
]


def samples_by_category(path):
    report = subprocess.run(
        ["perf", "report", "-i", path, "--no-children", "-n", "--sort", "dso,sym", "--stdio"],
        capture_output=True, text=True, check=True,
    ).stdout
    totals = {name: 0 for name, _ in CATEGORIES}
    totals["other"] = 0
    for line in report.splitlines():
        match = re.match(r"\s+[0-9.]+%\s+([0-9]+)\s+(.*)$", line)
        if not match:
            continue
        count, symbol = int(match.group(1)), match.group(2)
        name = next((name for name, pattern in CATEGORIES if re.search(pattern, symbol)), "other")
        totals[name] += count
    return totals


def main():
    transactions, paths = int(sys.argv[1]), sys.argv[2:]
    profiles = [samples_by_category(path) for path in paths]
    micros = lambda count: count / SAMPLE_HZ / transactions * 1e6
    # profile-authoring.sh names each profile after its case, spaces as underscores.
    names = [re.sub(r"\.data$", "", path.rsplit("/", 1)[-1]).replace("_", " ") for path in paths]
    print("| where the CPU time goes | " + " | ".join(f"{name} µs/tx" for name in names) + " |")
    print("|---|" + "---:|" * len(paths))
    for category in profiles[0]:
        print(f"| {category} | " + " | ".join(f"{micros(p[category]):.0f}" for p in profiles) + " |")
    print("| **total** | " + " | ".join(f"**{micros(sum(p.values())):.0f}**" for p in profiles) + " |")


if __name__ == "__main__":
    main()
