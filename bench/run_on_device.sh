#!/usr/bin/env bash
# Runs on the GPU test machine (../shared/GPU.md) from the repository root, with
# the build carried in .device/ (scripts/stage-device.sh makes it). Writes logs
# and JSON under $OUT and prints a short summary last; as the device tool returns at most 8
# files of 16 MiB, a file over 8 MiB is gzipped and more than 8 files are packed into
# $OUT/all.tgz (split into 15-MiB parts when larger).
#   bench/run_on_device.sh tests [FILTER]   the gpu-labelled tests (gtest filter); the check
#                                           study's tables and JSON go to $OUT too. Exits 1
#                                           when a test failed or skipped: on the GPU machine a
#                                           skip means a test did not test what it is for
#   bench/run_on_device.sh tests-split      the same, the verify tests on GPU 0 and the check, sandbox and
#                                           profile tests on GPU 1 at once (a 2-GPU machine);
#                                           logs in $OUT/gpu0 and $OUT/gpu1
#   bench/run_on_device.sh bench [ARGS…]    kblaster bench examples/kernels ARGS
#   bench/run_on_device.sh noise            kblaster bench --repeat 10, then the same kernels
#                                           under triton's do_bench and a torch event loop
#   bench/run_on_device.sh compare N [B…]   kblaster compare --repeat N on bench/compare_kernels,
#                                           base against each B (default: every variant)
#   bench/run_on_device.sh results          one real result of each GPU kind (bench, compare,
#                                           verify, profile, optimize with --report) in
#                                           $OUT/results, for tests/eval/fixtures/h200
#   bench/run_on_device.sh llm [ARGS…]      optimize --llm command with the scripted answer set of
#                                           bench/llm_answers (not a model) on matmul_naive,
#                                           softmax_slow and scale_rows, choosing only the techniques
#                                           the set answers; result, log, exchanges and KB lessons
#                                           in $OUT/llm
#   bench/run_on_device.sh llm-idle N KERNEL… [-- ARGS…]
#                                           the GPU idle share of optimize with N requests in
#                                           flight ([llm] in_flight) and scripted answers that each
#                                           take 10 s (scripted_model.py --delay 10 --echo-parent:
#                                           every apply gets code); result, log and exchanges in
#                                           $OUT/llm-idle-N, with the timeline in result.json;
#                                           the default budget unless ARGS say otherwise, the
#                                           techniques of `llm` unless LLM_IDLE_TECHNIQUES (a list,
#                                           or "all")
#   bench/run_on_device.sh spread N KERNEL… N separate `kblaster bench --json` processes on the
#                                           kernels, each result in $OUT/spread/bench-I.json, then
#                                           bench/spread.py over them: the spread of the cold and
#                                           hot medians across processes (issue 21 A)
#   bench/run_on_device.sh power RUNS [FAMILY [SLOWDOWN…]]
#                                           the power study of compare (issue 21 B): for the
#                                           family (stream or tiny; default both) its base against
#                                           itself (SLOWDOWN 0), its twin (twin: the same
#                                           code as another module) and against each slower variant
#                                           (1 1_5 2 3 5 10; default all; or a B kernel's
#                                           own name, as tiny_fma_8), `compare --repeat
#                                           RUNS` each, into $OUT/power/, then
#                                           bench/power_table.py over them. Split a study over
#                                           several calls by family and slowdown; POWER_ARGS
#                                           adds compare flags (POWER_ARGS="--min-effect 0.015")
#   bench/run_on_device.sh sweep-shards one|shards [KERNEL_TIME]
#                                           issue 20's comparison, in two calls: `one` sweeps
#                                           examples/kernels unsharded, `shards` in 3 shards one
#                                           after the other, then merges their KBs; each leaves
#                                           run-*.json, optimize-*.json, kb.json and report.json
#                                           in $OUT/sweep-shards/{one,merged} for
#                                           bench/sweep_compare.py (same seeds, 2 x 2 searches
#                                           of KERNEL_TIME s, default 20)
#   bench/run_on_device.sh kernelbench [KERNEL…]
#                                           issue 22's KernelBench run: a copy of bench/kernelbench in
#                                           $OUT/kernelbench imported with `kblaster import
#                                           kernelbench` (the machine's torch), then verified
#                                           against the PyTorch references and benched with
#                                           --baseline torch (only the KERNELs named, if any;
#                                           import, verify and bench JSON and logs there)
#   bench/run_on_device.sh compile-idle [KERNEL…]
#                                           issue 21 B2: optimize (embedded policy, 105-s budget,
#                                           fresh cache and KB) on bench/slow_compile, whose
#                                           builds take seconds; results with their timelines
#                                           and bench/idle_share.py's reading in $OUT/compile-idle
#   bench/run_on_device.sh cmd ARGS…        kblaster ARGS
set -uo pipefail
cd "$(dirname "$0")/.."
D=${KBLASTER_DEVICE_DIR:-$PWD/.device}  # the staged build; a test may point it elsewhere
export LD_LIBRARY_PATH=$D/lib KBLASTER_SOURCE_DIR=$PWD KBLASTER_BINARY=$D/kblaster KBLASTER_HARNESS=$D/kblaster-harness
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-/tmp/out}
# Only a folder this run starts empty is packed (below): a reused one's files are not ours to move.
fresh_out=no
[ -z "$(ls -A "$OUT" 2>/dev/null)" ] && fresh_out=yes
mkdir -p "$OUT"
what=${1:-tests}
shift || true
# verdict STATUS LOG: a gpu test run passes only when gtest exited 0 and nothing skipped, since
# on the GPU machine a skip means the test did not test what it is for. Says why otherwise.
verdict() {
  local skipped
  skipped=$(grep -cE "^\[  SKIPPED \] [A-Za-z0-9_]+\.[A-Za-z0-9_]+ \(" "$2")
  if [ "$1" -ne 0 ]; then echo "device tests FAILED: gtest exited $1 ($2)"; return 1; fi
  if [ "$skipped" -gt 0 ]; then echo "device tests FAILED: $skipped skipped on the GPU machine ($2)"; return 1; fi
  echo "device tests passed ($2)"
}
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv >>"$OUT/gpu.txt" 2>&1
case "$what" in
  tests)
    KBLASTER_DEVICE_LOG_DIR=$OUT "$D/kblaster_device_tests" --gtest_filter="${1:-*}" 2>&1 |
      tee "$OUT/device_tests.log" | grep -E "^\[ *(OK|FAILED|SKIPPED|PASSED) "
    verdict "${PIPESTATUS[0]}" "$OUT/device_tests.log";;
  tests-split)
    # `wait` for the two runs: polling with `pgrep -f` would match this shell's own command line.
    split_run() {  # split_run GPU FILTER
      mkdir -p "$OUT/gpu$1"
      CUDA_VISIBLE_DEVICES=$1 KBLASTER_DEVICE_LOG_DIR=$OUT/gpu$1 "$D/kblaster_device_tests" \
        --gtest_filter="$2" >"$OUT/gpu$1/device_tests.log" 2>&1
    }
    split_run 0 'DeviceTest.*' & gpu0=$!
    split_run 1 'CheckOnDevice.*:ProfileOnDevice.*:SandboxOnDevice.*' & gpu1=$!
    wait "$gpu0"; rc0=$?
    wait "$gpu1"; rc1=$?
    grep -hE "^\[ *(OK|FAILED|SKIPPED|PASSED) " "$OUT"/gpu0/device_tests.log "$OUT"/gpu1/device_tests.log
    verdict "$rc0" "$OUT/gpu0/device_tests.log" && verdict "$rc1" "$OUT/gpu1/device_tests.log";;
  bench) "$D/kblaster" bench examples/kernels --json "$@" >"$OUT/bench.json" 2>"$OUT/bench.log"; echo "exit $?"; grep -E "^bench|REJECTED|FAILED|error" "$OUT/bench.log";;
  noise)
    "$D/kblaster" bench examples/kernels --repeat 10 --json >"$OUT/bench_repeat10.json" 2>"$OUT/bench_repeat10.log"
    echo "kblaster bench exit $?"; grep -E "spread|REJECTED" "$OUT/bench_repeat10.log"
    PYTHONUNBUFFERED=1 python3 bench/noise/other_timers.py "$D/kblaster" examples/kernels /tmp/kblaster-cache \
      >"$OUT/other_timers.json" 2>"$OUT/other_timers.log"
    echo "other timers exit $?"; cat "$OUT/other_timers.log" | tail -12;;
  compare)
    n=${1:-20}
    shift || true
    for b in ${*:-base slower_10 slower_5 slower_3 slower_2}; do
      "$D/kblaster" compare bench/compare_kernels --a base --b "$b" --repeat "$n" --json \
        >"$OUT/compare_$b.json" 2>"$OUT/compare_$b.log"
      echo "base vs $b: $(tail -1 "$OUT/compare_$b.log")"
    done;;
  results)
    mkdir -p "$OUT/results"
    result() {  # result NAME ARGS…: kblaster ARGS --json into NAME.json, its progress into NAME.log
      local name=$1; shift
      "$D/kblaster" "$@" --json >"$OUT/results/$name.json" 2>"$OUT/results/$name.log"
      echo "$name: exit $?"
    }
    K=examples/kernels
    result bench bench $K --kernel axpy --kernel matmul_naive --seed 11
    result compare compare bench/compare_kernels --a base --b slower_5 --seed 11
    result verify verify $K --kernel axpy --kernel softmax
    result profile profile $K --kernel matmul_naive
    result optimize optimize $K --kernel softmax_slow --kernel matmul_naive --search-seed 7 \
      --breadth 4 --depth 3 --max-time 90 --out /tmp/kblaster-optimize --report "$OUT/results/optimize_report";;
  llm)
    mkdir -p "$OUT/llm" /tmp/kblaster-llm
    T=shared_memory_tiling,register_tiling,thread_coarsening,warp_shuffle_reduction,memory_coalescing,vectorized_access,split_k,algebraic_simplification
    "$D/kblaster" optimize examples/kernels --kernel matmul_naive --kernel softmax_slow \
      --kernel scale_rows --search-seed 7 --breadth 4 --depth 3 --max-time 100 --techniques "$T" \
      --llm command --llm-command "python3 $PWD/bench/llm_answers/scripted_model.py" \
      --kb /tmp/kblaster-llm/kb.sqlite --out /tmp/kblaster-llm/out --json "$@" \
      >"$OUT/llm/optimize_llm.json" 2>"$OUT/llm/optimize_llm.log"
    echo "optimize --llm command: exit $?"
    cp -r /tmp/kblaster-llm/out/llm "$OUT/llm/exchanges"
    "$D/kblaster" kb show --kb /tmp/kblaster-llm/kb.sqlite --json >"$OUT/llm/kb_show.json" 2>"$OUT/llm/kb_show.log"
    grep -E "^optimize|result:|asking|-> |source form|LLM" "$OUT/llm/optimize_llm.log" | tail -60;;
  sweep-shards)
    part=${1:-one}; ktime=${2:-20}
    W=$OUT/sweep-shards
    common=(--seed 4242 --search-seed 7 --breadth 2 --depth 2 --kernel-time "$ktime" --deadline 540)
    # sweep_part NAME SHARD: one sweep into $W/NAME with a KB of its own.
    sweep_part() {
      mkdir -p "$W/$1"
      "$D/kblaster" sweep examples/kernels --shard "$2" --kb "$W/$1/kb.sqlite" --out "$W/$1/out" \
        "${common[@]}" --json >"$W/$1/sweep.json" 2>"$W/$1/sweep.log"
      echo "sweep $1 ($2): exit $?"
    }
    # gather DIR NAME…: the parts' results, KB and report in DIR.
    gather() {
      local dir=$1; shift
      local from=()
      mkdir -p "$W/$dir"
      for part in "$@"; do
        cp "$W/$part/out/run.json" "$W/$dir/run-$part.json"
        cp "$W/$part"/out/optimize-*.json "$W/$dir/" 2>/dev/null
        from+=(--from "$W/$part/kb.sqlite")
      done
      "$D/kblaster" kb merge examples/kernels --kb "$W/$dir/kb.sqlite" "${from[@]}" >/dev/null
      "$D/kblaster" kb export examples/kernels --kb "$W/$dir/kb.sqlite" >"$W/$dir/kb.json"
      "$D/kblaster" report "$W/$dir"/run-*.json "$W/$dir"/optimize-*.json --format json \
        --out "$W/$dir/report.json"
    }
    if [ "$part" = one ]; then
      sweep_part s0 1/1
      gather one s0
    else
      for k in 1 2 3; do sweep_part "s$k" "$k/3"; done
      gather merged s1 s2 s3
    fi;;
  power)
    runs=${1:-20}
    shift || true
    mkdir -p "$OUT/power"
    families=${1:-stream tiny}
    shift || true
    slowdowns=${*:-0 1 1_5 2 3 5 10}
    for family in $families; do
      if [ "$family" = tiny ]; then a=tiny_base; p=tiny_slower_; else a=base; p=slower_; fi
      for s in $slowdowns; do
        case $s in
          0) b=$a ;;
          twin) b=${a}_twin ;;
          [0-9]*) b=$p$s ;;
          *) b=$s ;;  # a kernel's own name: tiny_fma_8
        esac
        # shellcheck disable=SC2086  # POWER_ARGS: extra compare flags, split on spaces
        "$D/kblaster" compare bench/compare_kernels --a "$a" --b "$b" --repeat "$runs" --json \
          ${POWER_ARGS:-} >"$OUT/power/compare_${a}_$b.json" 2>"$OUT/power/compare_${a}_$b.log"
        echo "$a vs $b: $(tail -1 "$OUT/power/compare_${a}_$b.log")"
      done
    done
    python3 bench/power_table.py "$OUT"/power/compare_*.json | tee "$OUT/power/table.md";;
  spread)
    n=$1; shift
    kernels=()
    for k in "$@"; do kernels+=(--kernel "$k"); done
    mkdir -p "$OUT/spread"
    for i in $(seq 1 "$n"); do
      "$D/kblaster" bench examples/kernels "${kernels[@]}" --json \
        >"$OUT/spread/bench-$i.json" 2>"$OUT/spread/bench-$i.log"
      echo "bench process $i: exit $?"
    done
    python3 bench/spread.py "$OUT"/spread/bench-*.json | tee "$OUT/spread/spread.txt";;
  compile-idle)
    # Issue 21 B2: the embedded search on kernels whose builds take seconds (cub, cooperative groups), with
    # a fresh compile cache and KB, so every child compiles; the timeline of each result holds the
    # GPU's spans and the search's waits for builds.
    R=$OUT/compile-idle
    W=$(mktemp -d /tmp/kblaster-compile-idle.XXXXXX)
    mkdir -p "$R"
    kernels=()
    for k in "$@"; do kernels+=(--kernel "$k"); done
    "$D/kblaster" optimize bench/slow_compile "${kernels[@]}" --search-seed 7 --max-time 105 \
      --cache-dir "$W/cache" --kb "$W/kb.sqlite" --out "$W/out" --json \
      >"$R/optimize.json" 2>"$R/optimize.log"
    echo "optimize on bench/slow_compile: exit $?"
    for k in "$W"/out/*/result.json; do
      cp "$k" "$R/$(basename "$(dirname "$k")").result.json"
    done
    grep -E "built in|^optimize|GPU idle" "$R/optimize.log" | head -20
    python3 bench/idle_share.py "$R"/*.result.json | tee "$R/idle.txt";;
  llm-idle)
    n=$1; shift
    kernels=()
    while [ $# -gt 0 ] && [ "$1" != "--" ]; do kernels+=(--kernel "$1"); shift; done
    [ "${1:-}" = "--" ] && shift
    R=$OUT/llm-idle-$n
    W=$(mktemp -d "/tmp/kblaster-idle-$n.XXXXXX")  # a fresh KB and output for each run
    mkdir -p "$R"
    cat >"$R/llm.toml" <<TOML
[llm]
backend = "command"
command = ["python3", "$PWD/bench/llm_answers/scripted_model.py", "--delay", "10", "--echo-parent"]
in_flight = $n
TOML
    # The techniques of `llm` unless LLM_IDLE_TECHNIQUES says otherwise; "all" for every one.
    T=${LLM_IDLE_TECHNIQUES:-shared_memory_tiling,register_tiling,thread_coarsening,warp_shuffle_reduction,memory_coalescing,vectorized_access,split_k,algebraic_simplification}
    only=(--techniques "$T")
    [ "$T" = all ] && only=()
    "$D/kblaster" optimize examples/kernels "${kernels[@]}" --search-seed 7 \
      "${only[@]}" --llm-config "$R/llm.toml" --kb "$W/kb.sqlite" \
      --out "$W/out" --json "$@" >"$R/optimize.json" 2>"$R/optimize.log"
    echo "optimize, $n in flight: exit $?"
    cp -r "$W/out/llm" "$R/exchanges"
    for k in "$W"/out/*/result.json; do
      cp "$k" "$R/$(basename "$(dirname "$k")").result.json"
    done
    grep -E "^optimize|result:|in flight" "$R/optimize.log";;
  kernelbench)
    k=$OUT/kernelbench
    rm -rf "$k" && mkdir -p "$k" && cp bench/kernelbench/*.py bench/kernelbench/*.cu "$k"/
    python3 -c 'import torch; print("torch", torch.__version__, "cuda", torch.cuda.is_available())' 2>&1 | tee "$k/torch.txt"
    for step in import verify bench; do
      case $step in
        import) args=(import kernelbench "$k");;
        bench) args=(bench "$k" --baseline torch)
               for name in "$@"; do args+=(--kernel "$name"); done;;
        *) args=("$step" "$k");;
      esac
      "$D/kblaster" "${args[@]}" --json >"$k/$step.json" 2>"$k/$step.log"
      echo "$step: exit $?"
      grep -E "^\[|passed|FAILED|wrong|skipped|^bench|error" "$k/$step.log" | head -40
    done;;
  cmd) "$D/kblaster" "$@";;
esac
status=$?
# The device tool returns at most 8 files from $OUT, each at most 16 MiB: a file over 8 MiB is
# gzipped (a 26-MB power-study JSON was lost on 2026-12-03 for want of this), more than 8 files
# are packed into $OUT/all.tgz (the session-15 gpu-test logs were lost for want of that), and a
# pack over 15 MiB is split into all.tgz.part-00, -01, … (rejoin with cat). The run's exit
# status is kept.
if [ "$fresh_out" = yes ]; then
  big=$(find "$OUT" -type f -size +8M ! -name '*.gz' ! -name '*.tgz')
  if [ -n "$big" ]; then
    while IFS= read -r f; do gzip -9f "$f"; done <<<"$big"
    echo "gzipped $(wc -l <<<"$big") file(s) over 8 MiB (the device tool returns files up to 16 MiB)"
  fi
fi
files=$(find "$OUT" -type f | wc -l)
if [ "$files" -gt 8 ] && [ "$fresh_out" = no ]; then
  echo "left $files files in $OUT unpacked: it held files before this run"
elif [ "$files" -gt 8 ]; then
  pack=$(mktemp "/tmp/kblaster-pack.XXXXXX")
  tar czf "$pack" -C "$OUT" . && find "$OUT" -mindepth 1 -delete && mv "$pack" "$OUT/all.tgz" &&
    echo "packed $files files into $OUT/all.tgz (the device tool returns at most 8)"
  if [ -f "$OUT/all.tgz" ] && [ "$(stat -c %s "$OUT/all.tgz")" -gt $((15 * 1024 * 1024)) ]; then
    split -b 15M -d "$OUT/all.tgz" "$OUT/all.tgz.part-" && rm "$OUT/all.tgz"
    parts=$(find "$OUT" -name 'all.tgz.part-*' | wc -l)
    echo "split all.tgz into $parts parts of 15 MiB (rejoin: cat all.tgz.part-* > all.tgz)"
    [ "$parts" -gt 8 ] && echo "warning: $parts parts; the device tool returns only 8 files"
  fi
fi
too_big=$(find "$OUT" -type f -size +16M ! -name 'all.tgz.part-*')
[ -n "$too_big" ] && echo "warning: over the device tool's 16 MiB, so not returned: $too_big"
exit "$status"
