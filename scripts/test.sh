#!/usr/bin/env bash
# Builds kblaster with its tests and runs them all through ctest. Tests labelled
# `gpu` skip, saying why, on machines without a CUDA device.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --deps-only
nvcc="${KBLASTER_NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}"
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=ON -DCMAKE_CUDA_COMPILER="$nvcc"
cmake --build build
ctest --test-dir build --output-on-failure -j "$(nproc)"
