#!/usr/bin/env bash
# Issue 7's ablation on the GPU machine: for each example kernel, the search with a
# cold KB (the seed catalogue only) against a warm KB (trained on the other example
# kernels), counting the evaluations needed to reach 95 % of the best speedup found.
#   bench/ablation.sh PHASE [BREADTH DEPTH MAX_TIME SEED]   (defaults 4 3 60 7)
# PHASE is cold, warm or both:
#   cold  runs every kernel with a KB of its own ($OUT/ablation/kb_<kernel>.sqlite); those
#         runs are the training data.
#   warm  runs each kernel again from a KB merged from the other kernels' cold KBs (leave
#         one out), with the same search seed. The cold KBs are read from $KB_DIR (default
#         $OUT/ablation), so the two phases may run in separate device calls: carry the
#         first call's ablation/ folder back in the working tree and point KB_DIR at it.
# Kernels are dealt round-robin to one lane per GPU (CUDA_VISIBLE_DEVICES); each lane runs
# its kernels one after another, so no two searches share a GPU. Writes $OUT/ablation/
# (logs, result.json per run, KB files) and, after warm, the table (bench/ablation_table.py,
# also reading cold results from $KB_DIR). Uses bench/run_on_device.sh's environment.
set -uo pipefail
cd "$(dirname "$0")/.."
D=$PWD/.device
export LD_LIBRARY_PATH=$D/lib KBLASTER_SOURCE_DIR=$PWD KBLASTER_BINARY=$D/kblaster KBLASTER_HARNESS=$D/kblaster-harness
export PATH=/usr/local/cuda/bin:$PATH
PHASE=${1:?usage: bench/ablation.sh cold|warm|both [BREADTH DEPTH MAX_TIME SEED]}
B=${2:-4} DEPTH=${3:-3} T=${4:-60} SEED=${5:-7}
OUT=${OUT:-/tmp/out}/ablation
KB_DIR=${KB_DIR:-$OUT}
mkdir -p "$OUT"
LANES=${LANES:-$(nvidia-smi -L 2>/dev/null | wc -l)}
((LANES >= 1)) || LANES=1
kernels=$("$D/kblaster" plan examples/kernels --json | python3 -c 'import json,sys; print(" ".join(k["name"] for k in json.load(sys.stdin)["kernels"]))')
echo "ablation $PHASE: breadth $B, depth $DEPTH, $T s per kernel, search seed $SEED, $LANES GPU lane(s)"

run() {  # run NAME KERNEL KB
  "$D/kblaster" optimize examples/kernels --kernel "$2" --kb "$3" --breadth "$B" --depth "$DEPTH" \
    --max-time "$T" --search-seed "$SEED" --out "$OUT/$1" >"$OUT/$1.json" 2>"$OUT/$1.log"
  echo "$1 (GPU ${CUDA_VISIBLE_DEVICES:-0}): exit $? $(grep -E '^  result:' "$OUT/$1.log" | head -1)"
}

cold() { run "cold_$1" "$1" "$OUT/kb_$1.sqlite"; }

warm() {
  local k=$1 others=() o
  for o in $kernels; do [[ $o == "$k" ]] || others+=(--from "$KB_DIR/kb_$o.sqlite"); done
  "$D/kblaster" kb merge examples/kernels --kb "$OUT/warm_for_$k.sqlite" "${others[@]}" \
    >"$OUT/merge_$k.log" 2>&1 || { echo "warm_$k: kb merge failed: $(tail -1 "$OUT/merge_$k.log")"; return; }
  run "warm_$k" "$k" "$OUT/warm_for_$k.sqlite"
}

phase() {  # phase FUNCTION: every kernel, one lane per GPU
  local lane i k
  for ((lane = 0; lane < LANES; lane++)); do
    (
      export CUDA_VISIBLE_DEVICES=$lane
      i=0
      for k in $kernels; do
        ((i++ % LANES == lane)) && "$1" "$k"
      done
    ) &
  done
  wait
}

case "$PHASE" in
  cold) phase cold;;
  warm) phase warm;;
  both) phase cold; phase warm;;
  *) echo "unknown phase $PHASE (cold, warm or both)" >&2; exit 2;;
esac
if [[ $PHASE != cold ]]; then
  python3 bench/ablation_table.py "$OUT" --cold-dir "$KB_DIR" $kernels | tee "$OUT/table.md"
fi
