#!/usr/bin/env bash
# Fuzzes each parser of fuzz/ (fuzz/README.md) for SECONDS (default 600), from its seeds,
# in libFuzzer's fork mode, so that a crash or a hang is counted and fuzzing goes on.
# Builds build-fuzz first (clang, -DKBLASTER_FUZZ=ON). Runs up to `nproc` targets at once.
#   scripts/fuzz.sh [SECONDS]
# Results go to $KBLASTER_FUZZ_OUT (default build-fuzz/results/<date-time>/): <target>.log, and
# <target>/ with the inputs found (corpus/) and every crash-*, timeout-* and oom-* input.
# Last, a table: target, runs, crashes (crash, leak or out-of-memory), hangs (over 10 s).
# Exits 1 when any target crashed or hung.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-600}"
[[ "$seconds" =~ ^[0-9]+$ ]] || { echo "usage: scripts/fuzz.sh [SECONDS]" >&2; exit 2; }
out="${KBLASTER_FUZZ_OUT:-build-fuzz/results/$(date +%Y-%m-%d-%H%M%S)}"

cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DKBLASTER_FUZZ=ON \
  -DCMAKE_CXX_COMPILER="${KBLASTER_CLANG:-clang++}" >/dev/null
cmake --build build-fuzz --target kblaster_fuzz

# One target: "name binary max_len seed_dir..." from build-fuzz/fuzz/targets.txt.
fuzz_one() {
  local name="$1" binary="$2" max_len="$3"
  shift 3
  mkdir -p "$out/$name/corpus"
  "$binary" -fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
    -max_total_time="$seconds" -max_len="$max_len" -timeout=10 \
    -artifact_prefix="$out/$name/" "$out/$name/corpus" "$@" >"$out/$name.log" 2>&1 || true
}

mkdir -p "$out"
echo "fuzz: $seconds s per target, results in $out"
names=()
while read -r name binary max_len seeds; do
  names+=("$name")
  # shellcheck disable=SC2086  # the seed folders are space-separated, without spaces
  fuzz_one "$name" "$binary" "$max_len" $seeds &
  while (($(jobs -rp | wc -l) >= $(nproc))); do wait -n; done
done <build-fuzz/fuzz/targets.txt
wait

# libFuzzer's fork mode logs "#RUNS: cov: … oom/timeout/crash: O/T/C time: …" as it goes.
failed=0
printf '%-16s %12s %8s %6s\n' target runs crashes hangs
for name in "${names[@]}"; do
  last=$(grep -E '^#[0-9]+: ' "$out/$name.log" | tail -n 1 || true)
  runs=$(sed -E 's/^#([0-9]+):.*/\1/' <<<"$last")
  counts=$(sed -E 's#.*oom/timeout/crash: ([0-9]+)/([0-9]+)/([0-9]+).*#\1 \2 \3#' <<<"$last")
  read -r ooms hangs crashes <<<"${counts:-? ? ?}"
  [ -n "$last" ] || { runs="?"; ooms=0; hangs="?"; crashes="?"; }
  crashes=$([ "$crashes" = "?" ] && echo "?" || echo $((crashes + ooms)))
  [ "$crashes" = 0 ] && [ "$hangs" = 0 ] || failed=1
  printf '%-16s %12s %8s %6s\n' "$name" "$runs" "$crashes" "$hangs"
done
exit "$failed"
