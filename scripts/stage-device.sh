#!/usr/bin/env bash
# Stages the Release build for the GPU test machine in .device/ (git-ignored):
# the binaries and the shared libraries they need (scripts/bundle-libs.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bundle-libs.sh >/dev/null
rm -rf .device && mkdir -p .device
cp build/kblaster build/kblaster-harness build/tests/kblaster_device_tests .device/
cp -r build/lib .device/lib
# The device run carries the working tree and .device together, within 64 MiB: strip the
# binaries, and leave out the libraries the H200 machine (Ubuntu 24.04) has itself. The gpu
# tests ran there without these two on 2026-12-02 (bench/results/2026-12-02-h200.md).
# libcrypto stays: libcurl brings Debian's libssl, which must find its own libcrypto.
strip --strip-unneeded .device/kblaster .device/kblaster-harness .device/kblaster_device_tests
rm -f .device/lib/libsqlite3.so.0 .device/lib/libz.so.1
du -sh .device
