"""Sums callgrind's self cost by function for a run of the pure-Wasm runtime, naming the code
wasmtime compiled (which callgrind knows only by address) from the perf map wasmtime wrote
(`WASMTIME_PROFILING_STRATEGY=perfmap`). Prints a markdown table of instructions per
transaction, the runtime's functions marked [wasm], the node's and the libraries' [host].
Used by wasm-functions.sh.

With CALLEE (a regular expression over those names, e.g. '^\\[wasm\\] memcpy$'), prints instead
who calls the matching functions: each caller's instructions spent inside them, inclusive, per
transaction, with its calls per transaction (callgrind counts calls into compiled Wasm several
times over, so read the instructions).

Usage: wasm-functions.py CALLGRIND.OUT PERF.MAP TRANSACTIONS TOP [CALLEE]
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


def namer(perf_map):
    """Names a callgrind function: compiled Wasm by the perf map, anything else as the host's."""
    functions = compiled_functions(perf_map)
    starts = [start for start, _, _ in functions]

    def name(raw):
        address = re.search(r"\?\?\?:0x([0-9a-f]+)", raw) or re.match(r"0x([0-9a-f]+)$", raw)
        if not address:
            return "[host] " + re.sub(r"\s+\[.*\]$", "", raw)
        at = int(address.group(1), 16)
        i = bisect.bisect_right(starts, at) - 1
        inside = i >= 0 and at < functions[i][1]
        return "[wasm] " + functions[i][2] if inside else "[unnamed compiled code]"

    return name


def callers(out, name, callee, transactions, top):
    """Each caller's inclusive instructions in calls to functions named like `callee`."""
    compressed = {}

    def resolve(field):
        # callgrind names a function in full once, as "(id) name", and by "(id)" after.
        match = re.match(r"\((\d+)\)(?: (.*))?$", field)
        if not match:
            return field
        if match.group(2) is not None:
            compressed[match.group(1)] = match.group(2)
        return compressed.get(match.group(1), field)

    spent, calls = collections.Counter(), collections.Counter()
    caller = target = None
    count = None
    for line in open(out):
        line = line.rstrip("\n")
        if line.startswith("fn="):
            caller, target = name(resolve(line[3:])), None
        elif line.startswith("cfn="):
            target = name(resolve(line[4:]))
        elif line.startswith("calls="):
            count = int(line[6:].split()[0])
        elif count is not None:
            # The line after `calls=`: the call's position and its inclusive cost.
            cost = line.split()
            if len(cost) >= 2 and target and re.search(callee, target):
                spent[caller] += int(cost[1])
                calls[caller] += count
            count = None
    print(f"| instructions per transaction in `{callee}` | calls per transaction | caller |")
    print("|---:|---:|---|")
    for caller, instructions in spent.most_common(top):
        per = calls[caller] / transactions
        print(f"| {instructions / transactions:,.0f} | {per:,.1f} | {caller.replace('|', '/')} |")


def main():
    out, perf_map, transactions, top = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    name = namer(perf_map)
    if len(sys.argv) > 5:
        callers(out, name, sys.argv[5], transactions, top)
        return
    annotated = subprocess.run(
        ["callgrind_annotate", "--inclusive=no", "--threshold=100", out],
        capture_output=True, text=True, check=True,
    ).stdout
    totals = collections.Counter()
    for line in annotated.splitlines():
        row = re.match(r"\s*([\d,]+) \([^)]*\)\s+(.*)$", line)
        if not row or "PROGRAM TOTALS" in row.group(2):
            continue
        totals[name(row.group(2))] += int(row.group(1).replace(",", ""))
    print(f"| instructions per transaction | function |\n|---:|---|")
    for name, instructions in totals.most_common(top):
        print(f"| {instructions / transactions:,.0f} | {name.replace('|', '/')} |")


main()
