"""Sums callgrind's self cost by function for a run of the pure-Wasm runtime, naming the code
wasmtime compiled (which callgrind knows only by address) from the perf map wasmtime wrote
(`WASMTIME_PROFILING_STRATEGY=perfmap`). Prints a markdown table of instructions per
transaction, the runtime's functions marked [wasm], the node's and the libraries' [host].
Used by wasm-functions.sh.

Usage: wasm-functions.py CALLGRIND.OUT PERF.MAP TRANSACTIONS TOP
"""
import bisect
import collections
import re
import subprocess
import sys


def compiled_functions(perf_map):
    """(start, end, name) of each compiled function, sorted, Rust's hash suffix dropped."""
    functions = []
    with open(perf_map) as lines:
        for line in lines:
            start, size, name = line.rstrip("\n").split(" ", 2)
            start = int(start, 16)
            functions.append((start, start + int(size, 16), re.sub(r"::h[0-9a-f]{16}$", "", name)))
    return sorted(functions)


def main():
    out, perf_map, transactions, top = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    functions = compiled_functions(perf_map)
    starts = [start for start, _, _ in functions]
    annotated = subprocess.run(
        ["callgrind_annotate", "--inclusive=no", "--threshold=100", out],
        capture_output=True, text=True, check=True,
    ).stdout
    totals = collections.Counter()
    for line in annotated.splitlines():
        row = re.match(r"\s*([\d,]+) \([^)]*\)\s+(.*)$", line)
        if not row or "PROGRAM TOTALS" in row.group(2):
            continue
        instructions, name = int(row.group(1).replace(",", "")), row.group(2)
        address = re.search(r"\?\?\?:0x([0-9a-f]+)", name)
        if address:
            at = int(address.group(1), 16)
            i = bisect.bisect_right(starts, at) - 1
            inside = i >= 0 and at < functions[i][1]
            totals["[wasm] " + functions[i][2] if inside else "[unnamed compiled code]"] += instructions
        else:
            totals["[host] " + re.sub(r"\s+\[.*\]$", "", name)] += instructions
    print(f"| instructions per transaction | function |\n|---:|---|")
    for name, instructions in totals.most_common(top):
        print(f"| {instructions / transactions:,.0f} | {name.replace('|', '/')} |")


main()
