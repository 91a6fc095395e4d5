#!/usr/bin/env bash
# How long `kblaster plan --json examples/kernels` takes: 50 runs, median and max
# in milliseconds (issue: under 200 ms). No GPU needed.
set -euo pipefail
cd "$(dirname "$0")/.."
times=()
for _ in $(seq 50); do
  start=$(date +%s%N)
  build/kblaster plan --json examples/kernels >/dev/null
  times+=($(( ($(date +%s%N) - start) / 1000 )))
done
printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {printf "plan: median %.2f ms, max %.2f ms over %d runs\n", a[int((NR+1)/2)]/1000, a[NR]/1000, NR}'
