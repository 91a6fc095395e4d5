#!/usr/bin/env python3
"""Generates issue 21 D's big kernel repository for timing `kblaster plan` over a range.

  bench/plan_scale/make_repo.py DIR [--kernels 1000] [--headers 3000] [--docs 1000] [--depth 8]

DIR gets a git repository with three commits, their ids printed as shell assignments:
  BASE   every file;
  DOCS   BASE plus an edit to one docs file (a docs-only range);
  ROOT   DOCS plus an edit to include/level7/h0.cuh, which every kernel reaches (a root-header range).
Headers sit in `depth` levels; each header of level L includes two of level L+1, and each kernel
includes three of level 0, so every kernel's closure is `depth` levels deep. Deterministic (seed 1).
Standard library and git only.
"""

import argparse
import os
import random
import subprocess


def git(repo, *args):
    return subprocess.run(["git", "-C", repo, *args], check=True, capture_output=True,
                          text=True).stdout.strip()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("dir")
    p.add_argument("--kernels", type=int, default=1000)
    p.add_argument("--headers", type=int, default=3000)
    p.add_argument("--docs", type=int, default=1000)
    p.add_argument("--depth", type=int, default=8)
    a = p.parse_args()
    rng = random.Random(1)
    os.makedirs(a.dir, exist_ok=True)
    per_level = a.headers // a.depth

    def write(path, text):
        full = os.path.join(a.dir, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w") as f:
            f.write(text)

    for level in range(a.depth):
        for i in range(per_level):
            lines = ["#pragma once"]
            if level + 1 < a.depth:
                for j in sorted({rng.randrange(per_level), 0}):
                    lines.append('#include "../level%d/h%d.cuh"' % (level + 1, j))
            lines.append("#define L%d_H%d %d" % (level, i, i))
            write("include/level%d/h%d.cuh" % (level, i), "\n".join(lines) + "\n")
    tables = ['[project]\ninclude_dirs = ["include"]\n']
    for k in range(a.kernels):
        incs = "".join('#include <level0/h%d.cuh>\n' % j
                       for j in sorted({rng.randrange(per_level) for _ in range(3)}))
        write("kernels/k%d.cu" % k, incs + "void k%d(float* y, int n) {}\n" % k)
        tables.append('[[kernel]]\nname = "k%d"\nsource = "kernels/k%d.cu"\nlauncher = "k%d"\n'
                      'args = [\n  { name = "y", type = "f32", shape = "n", role = "out" },\n'
                      '  { name = "n", type = "i32" },\n]\nsizes = [ { n = 1024 } ]\n' % (k, k, k))
    write("kblaster.toml", "\n".join(tables))
    for d in range(a.docs):
        write("docs/page%d.md" % d, "# Page %d\n" % d)
    git(a.dir, "init", "-q")
    git(a.dir, "config", "user.email", "bench@example.com")
    git(a.dir, "config", "user.name", "bench")
    git(a.dir, "add", "-A")
    git(a.dir, "commit", "-qm", "base")
    base = git(a.dir, "rev-parse", "HEAD")
    write("docs/page0.md", "# Page 0, edited\n")
    git(a.dir, "commit", "-qam", "docs")
    docs = git(a.dir, "rev-parse", "HEAD")
    write("include/level%d/h0.cuh" % (a.depth - 1), "#pragma once\n#define ROOT 2\n")
    git(a.dir, "commit", "-qam", "root header")
    root = git(a.dir, "rev-parse", "HEAD")
    print("BASE=%s DOCS=%s ROOT=%s" % (base, docs, root))


if __name__ == "__main__":
    main()
