#!/usr/bin/env python3
"""CPU seconds (user + sys, from getrusage) of `kblaster plan` over make_repo.py's two ranges.

  bench/plan_scale/time_plan.py KBLASTER REPO "BASE=… DOCS=… ROOT=…" [RUNS]

Prints each range's per-run figures and their median. Standard library only.
"""

import resource
import subprocess
import sys


def main():
    kblaster, repo, ids = sys.argv[1], sys.argv[2], dict(x.split("=") for x in sys.argv[3].split())
    runs = int(sys.argv[4]) if len(sys.argv) > 4 else 10
    for name, base, head in (("docs-only", ids["BASE"], ids["DOCS"]),
                             ("root-header", ids["DOCS"], ids["ROOT"])):
        seconds = []
        for _ in range(runs):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            subprocess.run([kblaster, "plan", repo, "--base", base, "--head", head, "--json"],
                           stdout=subprocess.DEVNULL, check=True)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            seconds.append(round(after.ru_utime - before.ru_utime +
                                 after.ru_stime - before.ru_stime, 4))
        print(name, seconds, "median", sorted(seconds)[len(seconds) // 2])


if __name__ == "__main__":
    main()
