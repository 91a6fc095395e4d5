#!/usr/bin/env bash
# Issue 7's ablation on the GPU machine: for each example kernel, the search with a
# cold KB (the seed catalogue only) against a warm KB (trained on the other example
# kernels), counting the evaluations needed to reach 95 % of the best speedup found.
#   bench/ablation.sh PHASE [BREADTH DEPTH MAX_TIME SEED]   (defaults 4 3 60 7)
# PHASE is cold, warm or both:
#   cold  runs every kernel with a KB of its own (kb_<kernel>.sqlite); those runs are the
#         training data.
#   warm  runs each kernel again from a KB merged from the other kernels' cold KBs (leave
#         one out, over every kernel of `kblaster plan`), with the same search seed. The
#         cold KBs are read from $KB_DIR, so the two phases may run in separate device
#         calls: carry the first call's ablation/ folder back in the working tree and point
#         KB_DIR at it (a path relative to the repository root works).
# Environment:
#   OUT      output root (default /tmp/out); everything goes under $OUT/ablation, unless
#   ABLATION_DIR names that folder itself (e.g. one in the working tree, for RESUME),
#            which leaves the device tool's $OUT free for what the call sends back.
#   SEEDS    search seeds, space-separated (e.g. SEEDS="7 11 13"). When unset, the one
#            SEED argument is used and the layout is the one-seed layout below; when set
#            (even to one seed), the SEED argument is ignored and each seed s gets its
#            own folder $OUT/ablation/seed_<s>/ with that same layout inside.
#   KB_DIR   where warm reads the cold KBs: without SEEDS the folder holding
#            kb_<kernel>.sqlite (default $OUT/ablation); with SEEDS the folder holding
#            seed_<s>/kb_<kernel>.sqlite (default $OUT/ablation). Each seed's warm runs
#            use that seed's cold KBs.
#   KERNELS  kernels to run, space-separated (default every kernel of `kblaster plan`), to
#            complete an interrupted run for the missing kernels only. Warm still merges
#            every other kernel's cold KB, and the table covers every kernel.
#   LANES    GPU lanes (default the number of GPUs nvidia-smi lists).
#   TRAIN_SEEDS  the seeds whose cold KBs train each warm KB (default: the warm run's own
#            seed; needs SEEDS). With TRAIN_SEEDS="7 11 13" a kernel's warm KB merges the
#            other kernels' cold KBs of all three seeds: more of the other kernels'
#            experience, none of its own. Every training run must have finished (its
#            result.json exists), or the warm run is not started.
#   TRAIN_DIR  where the TRAIN_SEEDS cold runs are, as seed_<s>/ folders (default KB_DIR),
#            so new seeds can be compared in a folder of their own against earlier training.
#   RESUME   when 1, a (phase, seed, kernel) whose result.json exists is not run again, so
#            a run cut by a call's time limit is completed by the next call (carry the
#            output folder in the working tree and point ABLATION_DIR at it).
#   DEADLINE a Unix time: no run starts unless it can end before it (MAX_TIME + 60 s).
#            Runs left out say so and are reported as missing by the table.
# $OUT/ablation below means ABLATION_DIR where that is set.
# Layout of a seed's folder ($OUT/ablation without SEEDS, $OUT/ablation/seed_<s> with):
#   cold_<k>/<k>/result.json, cold_<k>.json, cold_<k>.log, kb_<k>.sqlite     (cold)
#   warm_<k>/<k>/result.json, warm_<k>.json, warm_<k>.log, warm_for_<k>.sqlite,
#   merge_<k>.log                                                            (warm)
# A run first deletes that kernel's earlier outputs of the same phase and seed (a KB
# left by an interrupted run would not be cold, or would hold the warm run's own
# trajectory). The (seed, kernel) runs of a phase, in KERNELS order within each seed (rotated
# by one kernel per seed), are
# taken from one queue by one lane per GPU (CUDA_VISIBLE_DEVICES), a run at a time, so no
# two searches share a GPU. Without TRAIN_SEEDS, both runs every seed's cold phase before
# any warm run (a warm KB needs the other kernels' cold runs of its seed). With TRAIN_SEEDS
# a warm run needs none of its seed's cold runs, so both queues pairs instead: seed, then
# kernel, then cold before warm. Two lanes then run a pair's two arms side by side, and a
# series of calls cut by DEADLINE leaves complete pairs, not half-done seeds. After
# warm (or both), bench/ablation_table.py prints the table of the whole $OUT/ablation
# (with SEEDS: every seed_<s>/ there or in KB_DIR, per kernel and seed and over seeds),
# reading cold results from KB_DIR, into $OUT/ablation/table.md.
# Uses bench/run_on_device.sh's environment.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
D=$PWD/.device
export LD_LIBRARY_PATH=$D/lib KBLASTER_SOURCE_DIR=$PWD KBLASTER_BINARY=$D/kblaster KBLASTER_HARNESS=$D/kblaster-harness
export PATH=/usr/local/cuda/bin:$PATH
PHASE=${1:?usage: [SEEDS=\"S...\"] [KERNELS=\"K...\"] [KB_DIR=DIR] bench/ablation.sh cold|warm|both [BREADTH DEPTH MAX_TIME SEED]}
B=${2:-4} DEPTH=${3:-3} T=${4:-60} SEED=${5:-7}
case "$PHASE" in
  cold | warm | both) ;;
  *) echo "unknown phase $PHASE (cold, warm or both)" >&2; exit 2;;
esac
ROOT=${ABLATION_DIR:-${OUT:-/tmp/out}/ablation}
KB_ROOT=${KB_DIR:-$ROOT}
if [[ -n ${SEEDS+set} ]]; then
  read -ra seeds <<<"$SEEDS"
  per_seed=1
else
  seeds=("$SEED")
  per_seed=0
fi
((${#seeds[@]} >= 1)) || { echo "SEEDS is set but empty" >&2; exit 2; }
read -ra train_seeds <<<"${TRAIN_SEEDS:-}"
for s in "${seeds[@]}" "${train_seeds[@]}"; do
  [[ $s =~ ^[0-9]+$ ]] || { echo "search seed '$s' is not a non-negative integer" >&2; exit 2; }
done
if ((${#train_seeds[@]} > 0 && !per_seed)); then
  echo "TRAIN_SEEDS needs SEEDS (the per-seed layout)" >&2
  exit 2
fi
[[ -z ${DEADLINE:-} || $DEADLINE =~ ^[0-9]+$ ]] || {
  echo "DEADLINE '$DEADLINE' is not a Unix time in seconds" >&2
  exit 2
}
TRAIN_ROOT=${TRAIN_DIR:-$KB_ROOT}

dir_of() { if ((per_seed)); then echo "$ROOT/seed_$1"; else echo "$ROOT"; fi; }     # dir_of SEED
kb_dir_of() { if ((per_seed)); then echo "$KB_ROOT/seed_$1"; else echo "$KB_ROOT"; fi; }

LANES=${LANES:-$(nvidia-smi -L 2>/dev/null | wc -l)}
((LANES >= 1)) || LANES=1
all=$("$D/kblaster" plan examples/kernels --json | python3 -c 'import json,sys; print(" ".join(k["name"] for k in json.load(sys.stdin)["kernels"]))')
[[ -n $all ]] || { echo "kblaster plan listed no kernels" >&2; exit 1; }
kernels=${KERNELS:-$all}
for k in $kernels; do
  [[ " $all " == *" $k "* ]] || { echo "unknown kernel $k (kblaster plan lists: $all)" >&2; exit 2; }
done
for s in "${seeds[@]}"; do mkdir -p "$(dir_of "$s")"; done
echo "ablation $PHASE: breadth $B, depth $DEPTH, $T s per kernel, search seed(s) ${seeds[*]}," \
  "kernels $kernels, $LANES GPU lane(s), folder $ROOT," \
  "warm KBs from $( ((${#train_seeds[@]})) && echo "seeds ${train_seeds[*]} in $TRAIN_ROOT" ||
    echo "each run's own seed in $KB_ROOT")," \
  "resume ${RESUME:-0}, deadline ${DEADLINE:-none}"

run() {  # run SEED NAME KERNEL KB
  local dir tag rc
  dir=$(dir_of "$1")
  tag=$( ((per_seed)) && echo "seed_$1/")
  "$D/kblaster" optimize examples/kernels --kernel "$3" --kb "$4" --breadth "$B" --depth "$DEPTH" \
    --max-time "$T" --search-seed "$1" --out "$dir/$2" >"$dir/$2.json" 2>"$dir/$2.log"
  rc=$?
  echo "$tag$2 (GPU ${CUDA_VISIBLE_DEVICES:-0}): exit $rc $(grep -E '^  result:' "$dir/$2.log" | head -1)"
}

cold() {  # cold SEED KERNEL
  local dir
  dir=$(dir_of "$1")
  rm -rf "${dir:?}/cold_$2" "$dir/cold_$2.json" "$dir/cold_$2.log" "$dir/kb_$2.sqlite"{,-shm,-wal,-journal}
  run "$1" "cold_$2" "$2" "$dir/kb_$2.sqlite"
}

warm() {  # warm SEED KERNEL
  local s=$1 k=$2 dir others=() o t
  dir=$(dir_of "$s")
  rm -rf "${dir:?}/warm_$k" "$dir/warm_$k.json" "$dir/warm_$k.log" "$dir/merge_$k.log" \
    "$dir/warm_for_$k.sqlite"{,-shm,-wal,-journal}
  if ((${#train_seeds[@]} == 0)); then
    for o in $all; do [[ $o == "$k" ]] || others+=(--from "$(kb_dir_of "$s")/kb_$o.sqlite"); done
  else
    for t in "${train_seeds[@]}"; do
      for o in $all; do
        [[ $o == "$k" ]] && continue
        if [[ ! -f $TRAIN_ROOT/seed_$t/cold_$o/$o/result.json ]]; then
          echo "seed_$s/warm_$k: not started, training run seed_$t/cold_$o is incomplete" \
            "(no $TRAIN_ROOT/seed_$t/cold_$o/$o/result.json)"
          return
        fi
        others+=(--from "$TRAIN_ROOT/seed_$t/kb_$o.sqlite")
      done
    done
  fi
  if ! "$D/kblaster" kb merge examples/kernels --kb "$dir/warm_for_$k.sqlite" "${others[@]}" \
    >"$dir/merge_$k.log" 2>&1; then
    echo "$( ((per_seed)) && echo "seed_$s/")warm_$k: kb merge failed: $(tail -1 "$dir/merge_$k.log")"
    return
  fi
  run "$s" "warm_$k" "$k" "$dir/warm_for_$k.sqlite"
}

# done_already PHASE SEED KERNEL: RESUME is on and that run left its result.json.
done_already() { [[ ${RESUME:-0} == 1 && -f $(dir_of "$2")/$1_$3/$3/result.json ]]; }

# phase ARM...: every (seed, kernel, arm) from one queue, in that nesting order, one lane
# per GPU. ARM is cold or warm. The j-th seed (from 0) starts at the j-th kernel of KERNELS
# and wraps around, so runs cut by DEADLINE favour no kernel. With two arms, every other
# (seed, kernel) takes them in reverse order, so neither arm keeps to one GPU.
phase() {
  local lane s k arm arms claims pair j i
  local -a klist
  read -ra klist <<<"$kernels"
  claims=$(mktemp -d)
  for ((lane = 0; lane < LANES; lane++)); do
    (
      export CUDA_VISIBLE_DEVICES=$lane
      pair=0 j=0
      for s in "${seeds[@]}"; do
        for ((i = 0; i < ${#klist[@]}; i++)); do
          k=${klist[(i + j) % ${#klist[@]}]}
          arms=("$@")
          ((pair++ % 2)) && arms=("${arms[@]:1}" "${arms[0]}")
          for arm in "${arms[@]}"; do
            mkdir "$claims/$arm-$s-$k" 2>/dev/null || continue  # another lane took it
            if done_already "$arm" "$s" "$k"; then
              echo "seed $s ${arm}_$k: done in an earlier call"
            elif [[ -n ${DEADLINE:-} ]] && (($(date +%s) + T + 60 > DEADLINE)); then
              echo "seed $s ${arm}_$k: not started, the deadline is too near"
            else
              "$arm" "$s" "$k"
            fi
          done
        done
        ((j++))
      done
    ) &
  done
  wait
  rm -rf "$claims"
}

case "$PHASE" in
  cold) phase cold;;
  warm) phase warm;;
  both) if ((${#train_seeds[@]})); then phase cold warm; else phase cold; phase warm; fi;;
esac
if [[ $PHASE != cold ]]; then
  # shellcheck disable=SC2086  # $all is a space-separated list of kernel names
  python3 bench/ablation_table.py "$ROOT" --cold-dir "$KB_ROOT" $all | tee "$ROOT/table.md"
fi
