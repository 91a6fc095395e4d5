#!/usr/bin/env bash
# Builds kblaster with its tests and runs them all through ctest. Tests labelled
# `gpu` skip, saying why, on machines without a CUDA device.
#   scripts/test.sh             the suite in build/, the report screenshot test (headless
#                               Chromium), then the fuzz smoke tests: each fuzz target
#                               of fuzz/ built with clang in build-fuzz/ and run over its seeds
#                               and 2000 mutated inputs (ctest label `fuzz`)
#   scripts/test.sh --sanitize  the suite, gpu tests excepted, with every C++ file (not nvcc's)
#                               built with AddressSanitizer and UBSan in build-sanitize/ (slow)
set -euo pipefail
cd "$(dirname "$0")/.."
mode="${1:-}"
case "$mode" in
  "" | --sanitize) ;;
  *) echo "usage: scripts/test.sh [--sanitize]" >&2; exit 2 ;;
esac
scripts/setup.sh --deps-only
nvcc="${KBLASTER_NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}"

if [ "$mode" = --sanitize ]; then
  cmake -S . -B build-sanitize -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DBUILD_TESTING=ON \
    -DKBLASTER_SANITIZE=ON -DCMAKE_CUDA_COMPILER="$nvcc"
  cmake --build build-sanitize
  # abort_on_error: a finding ends the process with SIGABRT, which no test mistakes for one of
  # kblaster's exit codes. LeakSanitizer stays on (detect_leaks=1 is the default).
  asan="abort_on_error=1:strict_string_checks=1:check_initialization_order=1"
  export UBSAN_OPTIONS="print_stacktrace=1"
  # The tests that reach a leak inside a library, not kblaster (scripts/sanitize.supp), run
  # apart: with full stacks (fast_unwind_on_malloc=0, too slow for the whole suite), so that
  # the suppression matches that library function only. Everything else runs unsuppressed.
  library_leaks='^GitRepo\.MergeBaseBeyondAShallowBoundaryNamesTheFix$'
  ASAN_OPTIONS="$asan" ctest --test-dir build-sanitize --output-on-failure -j "$(nproc)" -LE gpu \
    -E "$library_leaks"
  ASAN_OPTIONS="$asan:fast_unwind_on_malloc=0" \
    LSAN_OPTIONS="suppressions=$PWD/scripts/sanitize.supp:print_suppressions=0" \
    ctest --test-dir build-sanitize --output-on-failure -LE gpu -R "$library_leaks"
  exit
fi

cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=ON -DCMAKE_CUDA_COMPILER="$nvcc"
cmake --build build
# setup.sh installed Prism (tools/github-api) and the workflow linters (tools/workflow-lint),
# so the tests that use them must run here: KBLASTER_REQUIRE_PRISM=1 and
# KBLASTER_REQUIRE_WORKFLOW_LINT=1 turn their skips into failures.
KBLASTER_REQUIRE_PRISM=1 KBLASTER_REQUIRE_WORKFLOW_LINT=1 \
  ctest --test-dir build --output-on-failure -j "$(nproc)" -LE screenshot
# The report screenshot test: headless Chromium draws every chart of an HTML report, each
# of which must show its data (tests/report/screenshot_test.py). setup.sh installs
# Chromium, so here its absence fails the test rather than skipping it. The screenshots
# stay in build/report-screenshots/ for a person to look at.
KBLASTER_REQUIRE_CHROMIUM=1 ctest --test-dir build --output-on-failure -L screenshot

# The fuzz smoke tests (fuzz/README.md): clang with libFuzzer, installed here if missing.
fuzz_packages=(clang libclang-rt-14-dev)
installed=$(dpkg-query -W -f='${Status}\n' "${fuzz_packages[@]}" 2>/dev/null | grep -c "install ok installed" || true)
if [ "$installed" -lt "${#fuzz_packages[@]}" ]; then
  echo "test: installing ${fuzz_packages[*]} for the fuzz targets"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${fuzz_packages[@]}"
fi
cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DKBLASTER_FUZZ=ON -DCMAKE_CXX_COMPILER=clang++
cmake --build build-fuzz --target kblaster_fuzz
ctest --test-dir build-fuzz --output-on-failure -j "$(nproc)" -L fuzz
