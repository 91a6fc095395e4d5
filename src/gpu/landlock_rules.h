// Confining a sandboxed child's file access with Landlock (Linux 5.13+, no
// privileges needed): it may read and execute only beneath the read roots, and
// write only beneath the write roots. The ruleset is built in the parent, which
// may allocate and open paths; the forked child only calls restrict_in_child.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "gpu/file_descriptor.h"

namespace kblaster {

// Where a confined child may read and where it may write. A path that does not
// exist is skipped; a file (not a directory) gets only the file rights.
struct FilesystemAccess {
  std::vector<std::filesystem::path> read;   // read, list and execute beneath
  std::vector<std::filesystem::path> write;  // everything beneath, writes included
};

// A prepared Landlock ruleset. Copy deleted: it owns the ruleset's descriptor.
class LandlockRules {
 public:
  // Builds the ruleset for `access`; null builds none. When the kernel has no
  // Landlock, or a call fails, ready() is false and why_not() names the call
  // and its error.
  explicit LandlockRules(const FilesystemAccess* access);
  LandlockRules(const LandlockRules&) = delete;
  LandlockRules& operator=(const LandlockRules&) = delete;

  bool ready() const { return ruleset_.get() >= 0; }
  const std::string& why_not() const { return why_not_; }
  // In the forked child, after PR_SET_NO_NEW_PRIVS (async-signal-safe): 0, or
  // the errno of landlock_restrict_self.
  int restrict_in_child() const noexcept;

 private:
  FileDescriptor ruleset_;
  std::string why_not_;
};

// The Landlock ABI version the kernel offers; 0 when it has none.
int landlock_abi();

}  // namespace kblaster
