#!/usr/bin/env python3
"""One unsharded sweep against the same sweep in N shards, merged (issue 20's done-when).

  bench/sweep_compare.py ONE_DIR MERGED_DIR

Each DIR holds what `bench/run_on_device.sh sweep-shards` leaves: run-*.json (the shards' run
results, or the one), optimize-*.json, kb.json (`kb export` of the KB, merged for the shards)
and report.json (`kblaster report … --format json`). Compared, and each line says same or what
differs:
  - verdicts: every kernel's verification status, and whether it was timed (trusted);
  - the kernels searched;
  - the KB: the catalogue's tables (techniques, states) byte for byte; the tasks with
    trajectories and with a recorded cost; row counts per table. Stats, trajectories' steps and
    costs hold measured values, which differ between any two runs;
  - the report's structure: its results' kinds and kernels, and the keys of each result.
Exits 1 when something that should be the same is not. Standard library only.
"""

import glob
import json
import os
import sys


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def verdicts(folder):
    out = {}
    for path in sorted(glob.glob(os.path.join(folder, "run*.json"))):
        for k in load(path).get("kernels", []):
            m = k.get("measurement") or {}
            out[k["name"]] = ((k.get("verification") or {}).get("status"), bool(m.get("trusted")))
    return out


def searched(folder):
    return sorted(load(p)["kernels"][0]["kernel"] for p in glob.glob(os.path.join(folder, "optimize-*.json"))
                  if load(p).get("kernels"))


def kb_summary(folder):
    kb = load(os.path.join(folder, "kb.json"))
    return {
        "catalogue": json.dumps([kb.get("techniques"), kb.get("states")], sort_keys=True),
        "tasks with trajectories": sorted({t["task"] for t in kb.get("trajectories", [])}),
        "tasks with a cost": sorted({c["task"] for c in kb.get("kernel_costs", [])}),
        "rows": {table: len(kb.get(table, [])) for table in
                 ("techniques", "states", "stats", "trajectories", "lessons", "best_kernels",
                  "kernel_costs")},
    }


def report_structure(folder):
    report = load(os.path.join(folder, "report.json"))
    return sorted((r.get("kind"), sorted(k.get("name") or k.get("kernel") or "" for k in r.get("kernels", [])),
                   sorted(r.keys())) for r in report.get("results", []))


def compare(one, merged):
    """[(what, same, detail)]: rows counts are shown, not judged."""
    rows = []
    a, b = verdicts(one), verdicts(merged)
    rows.append(("verdicts", a == b, "" if a == b else "one %s, shards %s" % (a, b)))
    a, b = searched(one), searched(merged)
    rows.append(("kernels searched", a == b, "" if a == b else "one %s, shards %s" % (a, b)))
    ka, kb = kb_summary(one), kb_summary(merged)
    for key in ("catalogue", "tasks with trajectories", "tasks with a cost"):
        same = ka[key] == kb[key]
        rows.append(("KB " + key, same, "" if same or key == "catalogue"
                     else "one %s, shards %s" % (ka[key], kb[key])))
    rows.append(("KB rows (not judged)", True, "one %s, shards %s" % (ka["rows"], kb["rows"])))
    a, b = report_structure(one), report_structure(merged)
    rows.append(("report structure", a == b, "" if a == b else "one %s, shards %s" % (a, b)))
    return rows


def main(one, merged):
    failed = False
    for what, same, detail in compare(one, merged):
        print("%-26s %s%s" % (what, "same" if same else "DIFFERS", "  " + detail if detail else ""))
        failed = failed or not same
    return 1 if failed else 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1], sys.argv[2]))
