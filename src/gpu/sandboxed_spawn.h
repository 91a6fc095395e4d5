// Forking a child that applies a ChildSandbox and then execs: the one place
// kblaster does so, for the long-lived harness (gpu/child_process.h) and for
// short-lived tools such as nvcc (gpu/subprocess.h).
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

#include "gpu/sandbox.h"

namespace kblaster {

// Everything the forked child needs, prepared before fork so it need not allocate.
struct SandboxedLaunch {
  const char* path;         // absolute, or as execve takes it
  char* const* argv;        // null-terminated
  char* const* envp;        // null-terminated
  const char* working_dir;  // nullptr = stay
  int stdio[3];             // become the child's 0, 1 and 2
  int status_fd;            // the write end of the status pipe (close-on-exec)
  const ChildSandbox* sandbox;
};

// Forks. The child leads a process group of its own, resets its signals,
// applies the sandbox, moves to the working directory, takes its stdio and
// execs, reporting a failed step on status_fd (gpu/sandbox.h). The child's
// pid, or -1 with errno set when fork fails.
pid_t fork_sandboxed(const SandboxedLaunch& launch);

// The path execve needs: `program` made absolute when it has a '/', else found
// on the caller's PATH. An unknown name is returned as is; execve then fails.
std::string resolve_program(const std::string& program);

// argv-style pointers into `strings`, ending with nullptr; valid while `strings` is.
std::vector<char*> c_strings(const std::vector<std::string>& strings);

}  // namespace kblaster
