"""Splits the page faults `benchmarking/page-faults.sh` recorded into runtime calls and prints,
per profile, the faults per transaction and the kinds of call by their fault count, each with
where its faults land. Used by page-faults.sh.

Usage: page-faults.py TRANSACTIONS PROFILE.data...

wasmtime's pooling allocator lays an instance's linear memory out as the Wasm stack (the
runtime's first MiB), the data image (a copy-on-write mapping of `memfd:wasm-memory-image`),
then the heap, and maps the heap afresh (anonymous, zero-filled) for each instance: that mapping
starts a call, and every page the call touches after it is a page fault.
"""
import collections
import re
import subprocess
import sys

WASM_STACK = 1 << 20
# A call's kinds whose calls are fewer than this share of the profile's calls are not listed.
LISTED_SHARE = 0.05
MMAP = re.compile(r"PERF_RECORD_MMAP2 \d+/(\d+): \[0x([0-9a-f]+)\((0x[0-9a-f]+)\) @ \S+ .*\]: (\S+) (\S+)")
# `tid addr [addr's symbol] ip symbol`: the faulting address, then the faulting instruction.
SAMPLE = re.compile(r"\s*(\d+)\s+([0-9a-f]+)\s.*?\s([0-9a-f]{6,16})\s+(.*)$")


def calls_of(path):
    """The profile's calls, in order: each a list of (region, leaf symbol) per fault."""
    script = subprocess.run(
        ["perf", "script", "-i", path, "-F", "tid,addr,ip,sym", "--show-mmap-events"],
        capture_output=True, text=True, check=True,
    ).stdout
    images = []  # (start, end) of each instance's data image
    current = {}  # thread -> its call in progress
    calls = []
    for line in script.splitlines():
        mmap = MMAP.search(line)
        if mmap:
            thread, start, length, protection, name = mmap.groups()
            start, length = int(start, 16), int(length, 16)
            if "wasm-memory-image" in name:
                images.append((start, start + length))
            elif protection == "rw-p" and name == "//anon" and any(end == start for _, end in images):
                current[thread] = []
                calls.append(current[thread])
            continue
        sample = SAMPLE.match(line)
        if sample:
            thread, address, _, symbol = sample.groups()
            region = region_of(int(address, 16), images)
            leaf = re.sub(r"\s*\(.*$", "", symbol).strip() or "?"
            current.setdefault(thread, []).append((region, leaf))
            if len(current[thread]) == 1 and current[thread] not in calls:
                calls.append(current[thread])
    return calls


def region_of(address, images):
    for start, end in images:
        if start - WASM_STACK <= address < start:
            return "stack"
        if start <= address < end:
            return "image"
        if end <= address < end + (1 << 32):
            return "heap"
    return "native"


def main():
    transactions, paths = int(sys.argv[1]), sys.argv[2:]
    for path in paths:
        calls = [call for call in calls_of(path) if call]
        faults = sum(len(call) for call in calls)
        name = re.sub(r"\.data$", "", path.rsplit("/", 1)[-1]).replace("_", " ")
        print(f"\n{name}: {faults} page faults while authoring, {faults / transactions:.1f} a "
              f"transaction; {len(calls)} runtime calls")
        print("| calls | faults each | Wasm stack | data image | heap | node | most faulting code |")
        print("|---:|---:|---:|---:|---:|---:|---|")
        by_count = collections.defaultdict(list)
        for call in calls:
            by_count[len(call)].append(call)
        for count, group in sorted(by_count.items(), key=lambda item: -len(item[1])):
            if len(group) < LISTED_SHARE * len(calls):
                continue
            regions = collections.Counter(region for call in group for region, _ in call)
            leaves = collections.Counter(
                (region, leaf) for call in group for region, leaf in call)
            top = "; ".join(f"{region}: {leaf[:50]} {k / len(group):.1f}"
                            for (region, leaf), k in leaves.most_common(4))
            cells = " | ".join(f"{regions[r] / len(group):.1f}" for r in ("stack", "image", "heap", "native"))
            print(f"| {len(group)} | {count} | {cells} | {top} |")


if __name__ == "__main__":
    main()
