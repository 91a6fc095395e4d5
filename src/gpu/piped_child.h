// A sandboxed child whose stdin, stdout and stderr are pipes the parent holds: the start
// that the long-lived harness (gpu/child_process.h) and a one-shot filter such as an LLM
// command (gpu/filter_process.h) share, and the pipe helpers both read and write with.
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include "core/status.h"
#include "gpu/file_descriptor.h"
#include "gpu/sandbox.h"
#include "gpu/subprocess.h"

namespace kblaster {

// Both ends of a close-on-exec pipe. When pipe2 fails both are -1 and `error` says why.
struct Pipe {
  Pipe();
  FileDescriptor read_end, write_end;
  int error = 0;
};

// A started child: the parent's ends of its three pipes (non-blocking) and its process
// group. Members are declared so that the group is killed before the pipes close.
struct PipedChild {
  std::string program;  // argv[0], for messages
  Pipe to_child, from_child, child_stderr;
  ProcessGroup group;
  SandboxReport report;
};

// Forks `argv` into `policy`'s sandbox in `working_dir` (empty = the caller's), with the
// environment sandbox_environment(policy) and then `extra_env` ("NAME=VALUE", passed as
// given: the one way a credential the caller means the child to have reaches it).
// Error::environment when it cannot be started (no such program, a sandbox step failed).
Result<PipedChild> start_piped(const std::vector<std::string>& argv,
                               const std::filesystem::path& working_dir,
                               const SandboxPolicy& policy,
                               const std::vector<std::string>& extra_env = {});

// write(2) that reports a closed reader as EPIPE without raising SIGPIPE here.
ssize_t write_without_sigpipe(int fd, const char* data, std::size_t size);

// Reads what `fd` holds now (it must be non-blocking), keeping the last `tail_bytes` in
// `tail`; closes `fd` at end of file or on an error that will not go away.
void read_tail(FileDescriptor& fd, std::string& tail, std::size_t tail_bytes);

// "exited with status 3", "was killed by signal 9 (Killed)".
std::string describe_exit(int code);

}  // namespace kblaster
