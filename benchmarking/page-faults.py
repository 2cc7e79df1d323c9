"""Splits the page faults `benchmarking/page-faults.sh` recorded into runtime calls and prints,
per profile, the kinds of call by their fault count, each with where its faults land. Used by
page-faults.sh.

Usage: page-faults.py PROFILE.data...

wasmtime's pooling allocator lays an instance's linear memory out as the Wasm stack (the
runtime's first MiB), the data image (a copy-on-write mapping of `memfd:wasm-memory-image`),
then the heap. Between calls it resets the memory (`madvise(MADV_DONTNEED)`, so every page is
fresh again) and shrinks it to its initial size; each call's instance then grows it by the
executor's `extra_pages` (sc-executor-wasmtime's static heap strategy), an `mprotect` the kernel
reports as a mapping of the read-write heap at the image's end. That event starts a call on its
thread: every fault of the thread until its next one is the call's — the node's own faults
(column `node`) included, until the thread's next call.
"""
import collections
import re
import subprocess
import sys

WASM_STACK = 1 << 20
# A call's kinds whose calls are fewer than this share of the profile's calls are not listed.
LISTED_SHARE = 0.05
MMAP = re.compile(r"PERF_RECORD_MMAP2 \d+/(\d+): \[0x([0-9a-f]+)\((0x[0-9a-f]+)\) @ \S+ .*\]: (\S+) (\S+)")
# `tid addr [addr's symbol] ip symbol`: the faulting address, then the faulting instruction's.
SAMPLE = re.compile(r"\s*(\d+)\s+([0-9a-f]+)\s.*?\s[0-9a-f]{6,16}\s+(.*)$")
LOST = re.compile(r"PERF_RECORD_LOST.*lost (\d+)")


def calls_of(path):
    """The profile's runtime calls, each a list of (region, faulting symbol) per fault, and the
    faults perf lost."""
    script = subprocess.run(
        ["perf", "script", "-i", path, "-F", "tid,addr,ip,sym", "--show-mmap-events",
         "--show-lost-events"],
        capture_output=True, text=True, check=True,
    ).stdout
    images = {}  # an instance slot's image end -> (image start, heap length)
    current = {}  # thread -> its call in progress
    calls, lost = [], 0
    for line in script.splitlines():
        mmap = MMAP.search(line)
        if mmap:
            thread, start, length, protection, name = mmap.groups()
            start, length = int(start, 16), int(length, 16)
            if "wasm-memory-image" in name:
                images.setdefault(start + length, (start, 0))
            elif protection == "rw-p" and name == "//anon" and start in images:
                images[start] = (images[start][0], length)
                current[thread] = []
                calls.append(current[thread])
            continue
        lost_events = LOST.search(line)
        if lost_events:
            lost += int(lost_events.group(1))
            continue
        sample = SAMPLE.match(line)
        # A thread's faults before its first runtime call are not a call's.
        if sample and sample.group(1) in current:
            thread, address, symbol = sample.groups()
            current[thread].append((region_of(int(address, 16), images), symbol.strip() or "?"))
    return calls, lost


def region_of(address, images):
    for end, (start, heap) in images.items():
        if start - WASM_STACK <= address < start:
            return "stack"
        if start <= address < end:
            return "image"
        if end <= address < end + heap:
            return "heap"
    return "node"


def main():
    for path in sys.argv[1:]:
        calls, lost = calls_of(path)
        calls = [call for call in calls if call]
        name = re.sub(r"\.data$", "", path.rsplit("/", 1)[-1]).replace("_", " ")
        print(f"\n{name}: {sum(len(call) for call in calls)} page faults in {len(calls)} runtime "
              f"calls recorded while authoring (the recording starts a little after the first "
              f"block does); {lost} lost")
        print("| calls | faults each | Wasm stack | data image | heap | node | most faulting code |")
        print("|---:|---:|---:|---:|---:|---:|---|")
        by_count = collections.defaultdict(list)
        for call in calls:
            by_count[len(call)].append(call)
        for count, group in sorted(by_count.items(), key=lambda item: -len(item[1])):
            if len(group) < LISTED_SHARE * len(calls):
                continue
            regions = collections.Counter(region for call in group for region, _ in call)
            symbols = collections.Counter(fault for call in group for fault in call)
            top = "; ".join(f"{region}: {symbol[:50]} {k / len(group):.1f}"
                            for (region, symbol), k in symbols.most_common(4))
            cells = " | ".join(f"{regions[r] / len(group):.1f}" for r in ("stack", "image", "heap", "node"))
            print(f"| {len(group)} | {count} | {cells} | {top} |")


if __name__ == "__main__":
    main()
