// Test helpers for the harness connection: a fake kblaster-harness written as a
// /bin/sh script, and a check that a process is really gone.
#pragma once

#include <sys/stat.h>
#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include "test_paths.h"

namespace kblaster::testing {

// Answers one line per request line, on cues in the compact JSON it is sent:
// hello, hang (starts a grandchild, records its pid in grandchild.pid, never
// answers), die (stderr, exit 3), garbage, long_garbage (300 x's), no_ok, refuse;
// anything else is echoed back as {"ok":true,"echo":REQUEST}.
inline constexpr const char* kFakeHarness = R"sh(#!/bin/sh
dir=$(dirname "$0")
echo "fake harness $$ started" >&2
while IFS= read -r line; do
  case "$line" in
    *'"op":"hello"'*) echo '{"ok":true,"version":"fake","pid":'$$'}' ;;
    *'"op":"hang"'*) sleep 1000 & echo $! > "$dir/grandchild.pid"; wait ;;
    *'"op":"die"'*) echo "fatal: kernel fault at x.cu:12" >&2; exit 3 ;;
    *'"op":"garbage"'*) echo 'this is not json' ;;
    *'"op":"long_garbage"'*) head -c 300 /dev/zero | tr '\0' x; echo ;;
    *'"op":"no_ok"'*) echo '{"answer":42}' ;;
    *'"op":"refuse"'*) echo '{"ok":false,"error":"cudaMalloc: out of memory (harness.cc:42)"}' ;;
    *) printf '{"ok":true,"echo":%s}\n' "$line" ;;
  esac
done
)sh";

// Writes `text` to dir/name with mode 0755 and returns its path.
inline std::filesystem::path write_executable(const TempDir& dir, const std::string& name,
                                              const std::string& text) {
  const auto path = dir.write(name, text);
  std::filesystem::permissions(path, std::filesystem::perms(0755));
  return path;
}

// The first integer in `path`, or -1.
inline pid_t read_pid(const std::filesystem::path& path) {
  pid_t pid = -1;
  std::ifstream(path) >> pid;
  return pid;
}

// Whether `pid` has ended (no such process, or a zombie) within `wait`.
inline bool process_gone(pid_t pid, std::chrono::milliseconds wait = std::chrono::seconds(2)) {
  const auto until = std::chrono::steady_clock::now() + wait;
  for (;;) {
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string pid_field, comm, state;
    // comm is "(name)"; our test programs have no spaces in their names.
    if (!stat || !(stat >> pid_field >> comm >> state) || state == "Z") return true;
    if (std::chrono::steady_clock::now() > until) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

}  // namespace kblaster::testing
