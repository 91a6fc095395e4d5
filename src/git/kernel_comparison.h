// Whether one kernel, declared at both revisions, is hit by a change, and why.
// Internal to the change set; pure, like it.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "git/change_set.h"
#include "git/kernel_deps.h"

namespace kblaster {

// The changed paths, indexed for the questions a change set asks.
struct ChangedPaths {
  explicit ChangedPaths(const std::vector<PathChange>& changes);
  std::set<std::string> paths;               // every old and new path
  std::map<std::string, std::string> moved;  // renamed: old -> new
  bool adds = false;                         // some path exists only at head
};

// Compares kernels across the two revisions. Include scans are cached across
// kernels, so one comparison serves a whole change set. Not thread-safe.
class KernelComparison {
 public:
  // `changes` must outlive this object.
  KernelComparison(const RevisionFiles& base, const RevisionFiles& head,
                   const ChangedPaths& changes);

  // The hit for the kernel that is `b` at base and `h` at head; nullopt when
  // nothing it depends on changed.
  std::optional<KernelHit> compare(const KernelSpec& b, const KernelSpec& h);

 private:
  const ChangedPaths& changes_;
  DependencyScanner at_base_;
  DependencyScanner at_head_;
  bool project_changed_;
  bool specs_unchanged_;  // both revisions read their specs from the same files, none changed
};

}  // namespace kblaster
