#!/usr/bin/env bash
# Stages the Release build for the GPU test machine in .device/ (git-ignored):
# the binaries and the shared libraries they need (scripts/bundle-libs.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bundle-libs.sh >/dev/null
rm -rf .device && mkdir -p .device
cp build/kblaster build/kblaster-harness build/tests/kblaster_device_tests .device/
cp -r build/lib .device/lib
# The device run carries the working tree and .device together, within 64 MiB.
strip --strip-unneeded .device/kblaster .device/kblaster-harness .device/kblaster_device_tests
du -sh .device
