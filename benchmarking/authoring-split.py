"""Splits each authoring node's proposer time block by block, from its log (`basic-authorship`
at trace level): before the loop (initializing the block, the inherents, waiting for the pool's
view of the parent), the loop that applies the case's transfers (to the last one pushed), and
after it (the refused tries of a full block's surplus, finalization, roots). Prints a markdown
table, one row per run and case, with each case's speed against the same run's Ed25519 transfers
on the same runtime build (the throughput table compares every case with Ed25519 through host
functions instead). Block import, which the harness's authoring time includes, is not in it.
Used by authoring-split.sh.

Usage: authoring-split.py TRANSACTIONS LOG...   (logs named "RUN. BUILD, CASE.log" by the harness)
"""
import datetime
import os
import re
import sys

TIMESTAMP = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}")
BASELINE = "ed25519 key inline"


def blocks(path):
    """Every block the node proposed, with the times and counts the split needs."""
    found = []
    for line in open(path, errors="replace"):
        match = TIMESTAMP.match(line)
        if not match:
            continue
        at = datetime.datetime.strptime(match.group(0), "%Y-%m-%d %H:%M:%S.%f")
        if "Starting consensus session" in line:
            found.append({"start": at, "loop": None, "tries": 0, "pushed": [], "end": None})
        elif not found:
            continue
        elif "Attempting to push transactions from the pool" in line:
            found[-1]["loop"] = at
        # Handed to the runtime (pushed or refused), or skipped by the proposer for size.
        elif "Pushing to the block" in line or "would overflow the block size limit" in line:
            found[-1]["tries"] += 1
        elif "Pushed to the block" in line:
            found[-1]["pushed"].append(at)
        elif "Prepared block for proposing" in line:
            found[-1]["end"] = at
    return found


def measured(all_blocks, transactions, path):
    """The case's blocks: the last ones, back to where they hold `transactions` (setup first)."""
    chosen, total = [], 0
    for block in reversed(all_blocks):
        if total >= transactions:
            break
        chosen.insert(0, block)
        total += len(block["pushed"])
    whole = all(b["end"] and b["loop"] and b["pushed"] for b in chosen)
    if total != transactions or not whole:
        raise SystemExit(f"{path}: its last blocks do not hold {transactions} transfers")
    return chosen


def split(chosen):
    millis = lambda delta: delta.total_seconds() * 1000
    return {
        "blocks": len(chosen),
        "pushed": sum(len(b["pushed"]) for b in chosen),
        "before": sum(millis(b["loop"] - b["start"]) for b in chosen),
        "loop": sum(millis(b["pushed"][-1] - b["loop"]) for b in chosen),
        "after": sum(millis(b["end"] - b["pushed"][-1]) for b in chosen),
        "refused": sum(b["tries"] - len(b["pushed"]) for b in chosen),
    }


def main():
    transactions = int(sys.argv[1])
    rows = []
    for path in sys.argv[2:]:
        name = re.match(r"^(\d+)\. (.+?), (.+)\.log$", os.path.basename(path))
        if not name:
            raise SystemExit(f"{path}: not a log the harness named")
        chosen = measured(blocks(path), transactions, path)
        rows.append((int(name.group(1)), name.group(2), name.group(3), split(chosen)))
    print(
        "| run | build | case | blocks | ms before the loop | µs a transfer in the loop "
        "| refused tries | ms after the loop | ms in all | Ed25519 ÷ this, µs a transfer in "
        "the loop | Ed25519 ÷ this, ms in all a transfer (TPS ratio) |"
    )
    print("|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    total = lambda s: s["before"] + s["loop"] + s["after"]
    for run, build, case, s in sorted(rows, key=lambda row: row[:2]):
        base = next((r[3] for r in rows if r[:2] == (run, build) and r[2] == BASELINE), None)
        per_transfer = s["loop"] / s["pushed"]
        if base and s["loop"] > 0 and total(s) > 0:
            loop_ratio = f"{base['loop'] / base['pushed'] / per_transfer:.2f}×"
            all_ratio = f"{total(base) / base['pushed'] / (total(s) / s['pushed']):.2f}×"
        else:
            loop_ratio = all_ratio = "—"
        print(
            f"| {run} | {build} | {case} | {s['blocks']} | {s['before']:.0f} | "
            f"{per_transfer * 1000:.0f} | {s['refused']} | {s['after']:.0f} | {total(s):.0f} | "
            f"{loop_ratio} | {all_ratio} |"
        )


if __name__ == "__main__":
    main()
