#!/usr/bin/env bash
# Copies the shared libraries build/kblaster needs (less glibc and libstdc++)
# into build/lib, so the build tree runs on a machine without them (the GPU
# test machine: ../shared/GPU.md). Run there with LD_LIBRARY_PATH=build/lib.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p build/lib
for binary in build/kblaster build/kblaster-harness build/tests/kblaster_device_tests; do
  [ -x "$binary" ] || continue
  ldd "$binary" | awk '/=> \// {print $3}' | while read -r lib; do
    case "$(basename "$lib")" in
      libc.so*|libm.so*|libstdc++.so*|libgcc_s.so*|libpthread.so*|libdl.so*|ld-linux*|librt.so*) ;;
      *) cp -Lu "$lib" build/lib/ ;;
    esac
  done
done
ls build/lib
