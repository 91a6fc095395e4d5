// The sandbox kblaster runs the harness and nvcc in: an environment with no
// secrets, rlimits, no new privileges, a network namespace of its own where the
// platform allows, holding only a loopback interface that is up (so a wrapper
// such as ncu can talk to its target, and nothing can reach the host's
// network), and, where asked, file access confined by Landlock.
// ChildProcess and run_process apply it between fork and exec
// (gpu/sandboxed_spawn.h). docs/security.md has the threat model.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"
#include "gpu/landlock_rules.h"

namespace kblaster {

enum class NetworkIsolation {
  off,             // the child shares the parent's network
  when_available,  // a namespace of its own (loopback only) where possible; the report says if not
  required,        // without a network namespace the child is not started
};

enum class FilesystemIsolation {
  off,             // the child may read and write what the user may
  when_available,  // Landlock confines it where the kernel has Landlock; the report says if not
  required,        // without Landlock the child is not started
};

enum class Capabilities {
  drop,  // none at exec, even when kblaster runs as root
  keep,  // a root kblaster's child keeps root's (ncu may need CAP_SYS_ADMIN for counters)
};

// What a sandboxed child may see and use. The defaults suit kblaster-harness.
struct SandboxPolicy {
  // Environment names passed through; names that look like secrets are dropped even if listed.
  std::vector<std::string> env_allow = {"PATH",
                                        "HOME",
                                        "LANG",
                                        "LC_ALL",
                                        "TMPDIR",
                                        "CUDA_VISIBLE_DEVICES",
                                        "CUDA_DEVICE_ORDER",
                                        "LD_LIBRARY_PATH",
                                        "NVIDIA_VISIBLE_DEVICES",
                                        "NVIDIA_DRIVER_CAPABILITIES",
                                        // a PyTorch reference's interpreter and where its
                                        // torch may be
                                        "KBLASTER_PYTHON",
                                        "PYTHONPATH"};
  // "NAME=VALUE" entries set after filtering (replacing a passed-through NAME),
  // such as TMPDIR; names that look like secrets are dropped here too.
  std::vector<std::string> env_set;
  // The longest any one request may run; a caller's longer timeout is cut to this.
  double wall_timeout_s = 600.0;
  // Resource limits, soft and hard; a limit above the parent's hard limit is cut to it.
  std::uint64_t max_core_file_bytes = 0;      // RLIMIT_CORE: no core dumps
  std::uint64_t max_open_files = 256;         // RLIMIT_NOFILE
  std::uint64_t max_file_bytes = 1ULL << 30;  // RLIMIT_FSIZE: 1 GiB per written file
  bool no_new_privileges = true;              // PR_SET_NO_NEW_PRIVS: setuid cannot raise them
  // Added to the child's nice value (at most 19 in all): a compile running beside a timing
  // yields the CPU to the harness's host side. 0 leaves it as the parent's.
  int niceness = 0;
  Capabilities capabilities = Capabilities::drop;
  NetworkIsolation network = NetworkIsolation::when_available;
  FilesystemIsolation filesystem = FilesystemIsolation::off;
  FilesystemAccess files;  // where the child may read and write, when filesystem is not off
};

// What the child got besides rlimits and no_new_privs, which it always gets:
// a child that cannot have them is not started.
struct SandboxReport {
  bool network_isolated = false;
  std::string why_not;  // when not isolated: the policy, or each unshare call and its error
  // Isolated, and the namespace's own loopback interface is up. When isolated
  // without it, loopback_why_not names the call that failed.
  bool loopback_up = false;
  std::string loopback_why_not;
  // Landlock confines its reads and writes to the policy's roots; when not,
  // filesystem_why_not says why (the policy, or the call that failed).
  bool filesystem_confined = false;
  std::string filesystem_why_not;
};

// One line for progress output: "no network (a namespace of its own, loopback
// only)", or "the host's network (unshare(CLONE_NEWNET): ...)" with the reason.
std::string network_summary(const SandboxReport& report);
// "only its own directories" or "all the user's files (REASON)".
std::string filesystem_summary(const SandboxReport& report);

// True when `name` matches a secret pattern (GITHUB_TOKEN, *_API_KEY, AWS_*…),
// case-insensitively. Such names never reach a sandboxed child.
bool looks_like_secret(std::string_view name);

// The child's environment: the "NAME=VALUE" entries of `parent` (null-terminated,
// like environ) whose names are allow-listed and do not look like secrets, in
// order, then the policy's env_set entries.
std::vector<std::string> sandbox_environment(const SandboxPolicy& policy,
                                             const char* const* parent);
// The same, from this process's environment.
std::vector<std::string> sandbox_environment(const SandboxPolicy& policy);

// The status pipe: how the forked child tells the parent what it applied. The
// child writes SetupRecords to a close-on-exec pipe: first a `network` record
// (unless the policy is off) with the errno of each unshare attempt and of
// bringing the new namespace's loopback up, 0 where it worked; then, only if a
// step fails, one record naming that step, and it _exits(127). End of file with
// no failure record means exec succeeded.
enum class SetupStep : std::int32_t {
  network,
  process_group,
  signals,
  rlimits,
  no_new_privileges,
  filesystem,  // error: errno of landlock_restrict_self, 0 = confined
  working_dir,
  stdio,
  exec,
};
struct SetupRecord {
  SetupStep step = SetupStep::exec;
  std::int32_t error = 0;           // errno of the step (network: of unshare(CLONE_NEWNET))
  std::int32_t fallback_error = 0;  // network: errno of unshare(CLONE_NEWUSER | CLONE_NEWNET)
  std::int32_t loopback_error = 0;  // network: errno of bringing `lo` up in the new namespace
};
// Writes one record; async-signal-safe. A failed write is ignored: the child
// then exits without a record, and its first request reports that exit.
void write_setup_record(int status_fd, SetupRecord record) noexcept;

// A policy's child-side steps, prepared in the parent (which may allocate) so
// that the forked child only makes system calls. Copy deleted: it owns the
// Landlock ruleset.
class ChildSandbox {
 public:
  explicit ChildSandbox(const SandboxPolicy& policy);
  ChildSandbox(const ChildSandbox&) = delete;
  ChildSandbox& operator=(const ChildSandbox&) = delete;
  // Error::environment when the policy requires Landlock and it cannot be had;
  // call before forking.
  Status check_ready(const std::string& program) const;
  // In the forked child (async-signal-safe): isolates the network (bringing the
  // new namespace's loopback up), sets rlimits and no_new_privs, confines file
  // access, writing records
  // to `status_fd`. False = a step failed (its record is written) and the child
  // must _exit.
  bool apply_in_child(int status_fd) const noexcept;
  // In the parent: reads `status_fd` to end of file. Error::environment names
  // `program` and the step that failed in the child.
  Result<SandboxReport> read_report(int status_fd, const std::string& program) const;

 private:
  NetworkIsolation network_;
  FilesystemIsolation filesystem_;
  LandlockRules rules_;
  bool no_new_privileges_;
  int niceness_;
  Capabilities capabilities_;
  std::uint64_t limits_[3];        // core, open files, file size
  std::string uid_map_, gid_map_;  // identity maps for a user namespace
};

}  // namespace kblaster
