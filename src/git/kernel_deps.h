// The files a kernel depends on at one revision: its source, its reference
// file, and every repository file either includes, transitively, honouring the
// kernel's include_dirs. Pure: files are read through a reader.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/include_scan.h"
#include "core/kernel_spec.h"

namespace kblaster {

// One changed file a kernel depends on, and how.
struct DependencyHit {
  enum class Via { source, reference, include };
  Via via = Via::source;
  std::string path;
  // Via::include: how the kernel reaches `path`, from its source or reference
  // through each including header to `path` itself.
  std::vector<std::string> chain;
};

// Answers dependency questions for the kernels of one revision. Each file is read at most
// once, its includes parsed and resolved once per include dirs (IncludeGraph), and each
// include closure computed once per include dirs, so kernels that share headers or a
// reference share the work. Not thread-safe.
class DependencyScanner {
 public:
  // `list` lists the revision's files, for computed includes (scan_include_tree).
  explicit DependencyScanner(SourceReader read, SourceLister list = {});
  DependencyScanner(const DependencyScanner&) = delete;  // the cached reader captures `this`
  DependencyScanner& operator=(const DependencyScanner&) = delete;

  // The files in `changed` that `kernel` depends on, source first, then reference, then includes.
  std::vector<DependencyHit> hits(const KernelSpec& kernel, const std::set<std::string>& changed);

 private:
  const std::vector<IncludedFile>& includes(const std::string& file,
                                            const std::vector<std::string>& include_dirs);
  IncludeGraph& graph(const std::vector<std::string>& include_dirs);
  // Whether `file`'s include closure under `include_dirs` holds a path of `changed`: known
  // without walking the closure again for each kernel (Reach).
  bool reaches(const std::string& file, const std::vector<std::string>& include_dirs,
               const std::set<std::string>& changed);

  // Which files reach a changed one, learnt as the graph is discovered: a file reaches one
  // when it is changed or includes one that reaches one; each edge is seen once, and a file
  // found to reach one marks its includers, so cycles are handled.
  struct Reach {
    std::set<std::string> changed;  // the changed paths this answers for
    std::set<std::string> discovered;
    std::set<std::string> reaching;
    std::map<std::string, std::vector<std::string>> includers;
  };

  SourceReader read_;
  SourceLister list_;
  SourceReader cached_;  // read_, memoised in texts_
  std::unordered_map<std::string, std::optional<std::string>> texts_;
  std::map<std::vector<std::string>, IncludeGraph> graphs_;  // by include dirs: parsed once
  std::map<std::vector<std::string>, Reach> reach_;          // by include dirs
  std::map<std::pair<std::string, std::vector<std::string>>, std::vector<IncludedFile>> closures_;
};

}  // namespace kblaster
