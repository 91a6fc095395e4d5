#!/usr/bin/env bash
# Issue 7's ablation on the GPU machine: for each example kernel, the search with a
# cold KB (the seed catalogue only) against a warm KB (trained on the other example
# kernels), counting the evaluations needed to reach 95 % of the best speedup found.
#   bench/ablation.sh [BREADTH DEPTH MAX_TIME SEED]   (defaults 4 3 60 7)
# Phase 1 runs every kernel cold, each into a KB of its own; those runs are the
# training data. Phase 2 runs each kernel again from a KB merged from the other
# kernels' KBs (leave one out), with the same search seed. Writes $OUT/ablation/
# (logs, result.json per run, KB files) and prints the table last
# (bench/ablation_table.py). Runs through bench/run_on_device.sh's environment.
set -uo pipefail
cd "$(dirname "$0")/.."
D=$PWD/.device
export LD_LIBRARY_PATH=$D/lib KBLASTER_SOURCE_DIR=$PWD KBLASTER_BINARY=$D/kblaster KBLASTER_HARNESS=$D/kblaster-harness
export PATH=/usr/local/cuda/bin:$PATH
B=${1:-4} DEPTH=${2:-3} T=${3:-60} SEED=${4:-7}
OUT=${OUT:-/tmp/out}/ablation
mkdir -p "$OUT"
kernels=$("$D/kblaster" plan examples/kernels --json | python3 -c 'import json,sys; print(" ".join(k["name"] for k in json.load(sys.stdin)["kernels"]))')
run() {  # run NAME KERNEL KB
  "$D/kblaster" optimize examples/kernels --kernel "$2" --kb "$3" --breadth "$B" --depth "$DEPTH" \
    --max-time "$T" --search-seed "$SEED" --out "$OUT/$1" >"$OUT/$1.json" 2>"$OUT/$1.log"
  echo "$1: exit $? $(grep -E '^  result:' "$OUT/$1.log" | head -1)"
}
for k in $kernels; do run "cold_$k" "$k" "$OUT/kb_$k.sqlite"; done
for k in $kernels; do
  others=()
  for o in $kernels; do [[ $o == "$k" ]] || others+=(--from "$OUT/kb_$o.sqlite"); done
  "$D/kblaster" kb merge examples/kernels --kb "$OUT/warm_for_$k.sqlite" "${others[@]}" >/dev/null
  run "warm_$k" "$k" "$OUT/warm_for_$k.sqlite"
done
python3 bench/ablation_table.py "$OUT" $kernels | tee "$OUT/table.md"
