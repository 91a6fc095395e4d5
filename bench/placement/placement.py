#!/usr/bin/env python3
"""Reads bench/placement/placement's JSON lines (one file per process) and says at which level
axpy_small's timing offset lives: placement, stream, context or process.

  bench/placement/placement.py FILE...

For each timing (cold, hot) it prints every cell's median (process, context, stream, placement),
then the spread (max/min - 1) of medians within each level and the spread of the per-process
"mean of per-placement medians" (the estimator the harness would use if placement is the cause).
Standard library only.
"""

import json
import statistics as st
import sys


def spread(values):
    return max(values) / min(values) - 1 if values else 0.0


def main(paths):
    cells = []
    for proc, path in enumerate(paths):
        with open(path, encoding="utf-8") as f:
            for line in f:
                if line.startswith("{"):
                    row = json.loads(line)
                    row["process"] = proc
                    cells.append(row)
    for timing in ("cold_us", "hot_us"):
        print(f"== {timing}: median of each cell (process/context/stream/placement)")
        for c in cells:
            c["m"] = st.median(c[timing])
        for proc in sorted({c["process"] for c in cells}):
            mine = [c for c in cells if c["process"] == proc]
            line = []
            for ctx in sorted({c["context"] for c in mine}):
                for s in sorted({c["stream"] for c in mine}):
                    ms = [c["m"] for c in mine if c["context"] == ctx and c["stream"] == s]
                    line.append(f"ctx{ctx}/s{s}: " + " ".join(f"{m:.3f}" for m in ms))
            print(f"process {proc}: " + " | ".join(line))
        within_placements = [
            spread([c["m"] for c in cells if (c["process"], c["context"], c["stream"]) == key])
            for key in {(c["process"], c["context"], c["stream"]) for c in cells}]
        streams = [
            spread([c["m"] for c in cells if (c["process"], c["context"], c["placement"]) == key])
            for key in {(c["process"], c["context"], c["placement"]) for c in cells}]
        per_context = {}
        for c in cells:
            per_context.setdefault((c["process"], c["context"]), []).append(c["m"])
        per_process = {}
        for c in cells:
            per_process.setdefault(c["process"], []).append(c["m"])
        first = {}
        for c in cells:
            if c["context"] == 0 and c["stream"] == 0 and c["placement"] == 0:
                first[c["process"]] = c["m"]
        print(f"spread across placements within a (process, context, stream): "
              f"median {st.median(within_placements):.2%}, max {max(within_placements):.2%}")
        print(f"spread across streams within a (process, context, placement): "
              f"median {st.median(streams):.2%}, max {max(streams):.2%}")
        print(f"spread of context means (mean of per-placement medians): "
              f"{spread([st.mean(v) for v in per_context.values()]):.2%} over {len(per_context)}")
        print(f"spread of process means: {spread([st.mean(v) for v in per_process.values()]):.2%}"
              f" over {len(per_process)}")
        print(f"spread of each process's first cell (one placement, as bench times today): "
              f"{spread(list(first.values())):.2%} over {len(first)}")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
