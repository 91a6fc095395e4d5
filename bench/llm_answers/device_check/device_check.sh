#!/usr/bin/env bash
# Builds device_check.cu once per answer file (and once per original kernel, for the
# baseline's time) into DIR (default /tmp/llm_answers_check), then runs each binary when a
# GPU is present. Usage: bench/llm_answers/device_check/device_check.sh [--build-only] [DIR]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
build_only=0
if [[ "${1:-}" == "--build-only" ]]; then build_only=1; shift; fi
out="${1:-/tmp/llm_answers_check}"
nvcc="${NVCC:-/usr/local/cuda/bin/nvcc}"
mkdir -p "$out"
k="$root/examples/kernels/kernels"
a="$root/bench/llm_answers"
# binary name, kind, source
entries=(
  "orig_matmul_naive MATMUL $k/matmul_naive.cu"
  "matmul_smem_tiled MATMUL $a/matmul_smem_tiled.cu"
  "matmul_register_tiled MATMUL $a/matmul_register_tiled.cu"
  "cheat_matmul_timed_shape MATMUL $a/cheat_matmul_timed_shape.cu"
  "orig_softmax_slow SOFTMAX $k/softmax_slow.cu"
  "softmax_warp SOFTMAX $a/softmax_warp.cu"
  "cheat_softmax_cached SOFTMAX $a/cheat_softmax_cached.cu"
  "orig_scale_rows SCALE_ROWS $k/scale_rows.cu"
  "scale_rows_float4 SCALE_ROWS $a/scale_rows_float4.cu"
  "orig_axpy AXPY $k/axpy.cu"
  "axpy_float4 AXPY $a/axpy_float4.cu"
)
for e in "${entries[@]}"; do
  read -r name kind src <<<"$e"
  "$nvcc" -std=c++17 -O3 -arch=sm_90 -cudart static -I "$root/examples/kernels/include" \
    -DKIND_"$kind" -DANSWER="\"$src\"" "$here/device_check.cu" -o "$out/$name" &
done
wait
[[ $build_only == 1 ]] && exit 0
status=0
for e in "${entries[@]}"; do
  read -r name _ _ <<<"$e"
  echo "=== $name"
  "$out/$name" || status=1
done
exit $status
