// A fake ncu for tests without a GPU: writes what a real ncu writes to its
// --log-file when profiling counters are refused, then exits 1. Each run also
// appends a line to `runs` beside the script, so tests can count them, and
// writes to `net` there the network interfaces it sees (from /proc/net/dev) and
// whether it can connect to itself over loopback, as a real ncu must.
#pragma once

namespace kblaster::testing {

constexpr const char* kRefusingNcu = R"sh(#!/bin/sh
echo run >> "$(dirname "$0")/runs"
echo $(tail -n +3 /proc/net/dev | cut -d: -f1) > "$(dirname "$0")/net"
python3 -c 'import socket
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(1)
socket.create_connection(s.getsockname(), timeout=5); print("loopback works")' \
  >> "$(dirname "$0")/net" 2>&1
while [ $# -gt 0 ]; do
  if [ "$1" = "--log-file" ]; then log="$2"; fi
  shift
done
printf '==PROF== Connected to process 1\n==ERROR== ERR_NVGPUCTRPERM - The user does not have permission to access NVIDIA GPU Performance Counters on the target device 0.\n' > "$log"
exit 1
)sh";

}  // namespace kblaster::testing
