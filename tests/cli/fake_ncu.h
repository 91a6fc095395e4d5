// A fake ncu for tests without a GPU: writes what a real ncu writes to its
// --log-file when profiling counters are refused, then exits 1. Each run also
// appends a line to `runs` beside the script, so tests can count them.
#pragma once

namespace kblaster::testing {

constexpr const char* kRefusingNcu = R"sh(#!/bin/sh
echo run >> "$(dirname "$0")/runs"
while [ $# -gt 0 ]; do
  if [ "$1" = "--log-file" ]; then log="$2"; fi
  shift
done
printf '==PROF== Connected to process 1\n==ERROR== ERR_NVGPUCTRPERM - The user does not have permission to access NVIDIA GPU Performance Counters on the target device 0.\n' > "$log"
exit 1
)sh";

// The same, after writing the network interfaces it sees (names from
// /proc/net/dev, space-separated) to `net` beside the script.
constexpr const char* kNetworkProbingNcu = R"sh(#!/bin/sh
echo $(tail -n +3 /proc/net/dev | cut -d: -f1) > "$(dirname "$0")/net"
while [ $# -gt 0 ]; do
  if [ "$1" = "--log-file" ]; then log="$2"; fi
  shift
done
printf '==ERROR== ERR_NVGPUCTRPERM - The user does not have permission to access NVIDIA GPU Performance Counters on the target device 0.\n' > "$log"
exit 1
)sh";

}  // namespace kblaster::testing
