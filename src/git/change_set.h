// Which kernels a change between two revisions hits, and why. Pure: it works on
// the configurations loaded at both revisions, the changed paths and a reader of
// each revision's files, so it is tested without git and reused by any Repo.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/include_scan.h"
#include "core/kernel_spec.h"
#include "core/status.h"
#include "git/path_change.h"

namespace kblaster {

// One kernel the change hits: it must be built and measured again.
struct KernelHit {
  // In order of precedence: `why` holds the first that applies.
  enum class Why {
    new_kernel,         // declared at head only: measured with no base
    deleted,            // declared at base only
    renamed,            // its source moved, or its name changed with its source followed
    spec_changed,       // its resolved [[kernel]] fields or the [project] arch differ
    source_changed,     // its source file changed
    reference_changed,  // its reference file changed
    include_changed,    // a file its source or reference includes, transitively, changed
  };
  std::string kernel;  // its name at head (at base when deleted)
  Why why = Why::source_changed;
  // The changed files that hit it, sorted: the spec file for a new, deleted or
  // changed spec; old and new source for a rename; the source, reference or header.
  std::vector<std::string> because;
  std::optional<std::string> base_name;    // the kernel at base; nullopt when new
  std::optional<std::string> base_source;  // its source at base; nullopt when new
  // For each header in `because` (include_changed): the include chain from the
  // kernel's source or reference to it, e.g. {"kernels/a.cu", "include/a.cuh", "include/b.cuh"}.
  std::map<std::string, std::vector<std::string>> include_chains;
};

// "new_kernel", "deleted", "renamed", "spec_changed", … as in the enum.
const char* why_name(KernelHit::Why why);

struct ChangeSet {
  // Head's hit kernels in config order, then the deleted ones in base order.
  std::vector<KernelHit> hits;
  // Why the base revision had no usable configuration (every head kernel is then
  // new); set by whoever loaded it (plan_change), not by compute_change_set.
  std::optional<Error> base_config_error;

  const KernelHit* find(const std::string& kernel) const;
};

// One end of the comparison: its configuration and its files.
struct RevisionFiles {
  const Config* config = nullptr;  // null: none loaded; its kernels count as absent
  SourceReader read;
  SourceLister list;  // the revision's files, for computed includes; may be empty
};

// The kernels that `changes` (from base to head) hit. Each file is read at most
// once per revision; include closures are scanned only where a change could reach them.
ChangeSet compute_change_set(const RevisionFiles& base, const RevisionFiles& head,
                             const std::vector<PathChange>& changes);

}  // namespace kblaster
