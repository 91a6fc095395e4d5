// Builds one kernel of a source tree into a loadable candidate object: shim,
// cache lookup, compile, diagnostics. Every build step of the run goes through it.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/kernel_spec.h"
#include "core/status.h"
#include "gpu/compile_cache.h"
#include "gpu/compiler.h"
#include "gpu/nvcc_diagnostics.h"
#include "gpu/shim.h"

namespace kblaster {

// How a build ended. Environment problems (no nvcc, a full disk, a compiler that
// exits 0 without writing a shared object) are Errors, not outcomes.
enum class BuildOutcome {
  built,              // compiled now and stored in the cache
  cache_hit,          // an identical build was already cached
  compile_error,      // the compiler rejected the user's code
  launcher_mismatch,  // the shim's call of the launcher does not compile
  source_missing,     // the kernel's source file is not in the tree
  entry_missing,      // a shared object was built, but it does not export the shim's entry point
};

// A stable snake_case name for reports and JSON: "built", "cache_hit", ...
const char* build_outcome_name(BuildOutcome outcome);

struct BuildRequest {
  std::filesystem::path repo_root;  // absolute; the tree the files are read from
  std::string arch = "sm_90";
  std::map<std::string, std::string>
      macros;                            // NAME -> VALUE; unset tunables take their first value
  std::vector<std::string> extra_flags;  // after the spec's nvcc_flags
  // Tunables built with no -D at all, so that the source's own #define decides: how an
  // optimization's source form (search/source_form.h) is built as a repository builds it.
  std::set<std::string> source_defaults;
  ShimKind shim = ShimKind::candidate;  // cpu_reference to build a reference_spec's CPU function
  bool reference = false;  // the function built is a kernel's reference: messages call it that
};

struct BuildResult {
  BuildOutcome outcome = BuildOutcome::built;
  std::filesystem::path object;          // the cached .so; empty unless built or cache_hit
  std::string cache_key;                 // empty for source_missing
  std::vector<Diagnostic> diagnostics;   // files under repo_root are repository-relative
  std::string summary;                   // one line for reports, naming the first error
  std::string log;                       // the compiler's output; empty on a cache hit
  double seconds = 0.0;                  // compile time; 0 on a cache hit
  std::optional<SandboxReport> sandbox;  // what nvcc's sandbox gave it; unset on a cache hit
  std::string cache_repair;              // why a damaged cached object was removed first (see
                                         // CacheLookup::removed), or ""

  bool ok() const { return outcome == BuildOutcome::built || outcome == BuildOutcome::cache_hit; }
};

// Not thread-safe: one builder per thread. The Compiler and CompileCache must
// outlive it; `work_dir` holds shims (kept after failed builds, since the
// diagnostics may point into them) and is created on demand.
class CandidateBuilder {
 public:
  CandidateBuilder(Compiler& compiler, CompileCache& cache, std::filesystem::path work_dir)
      : compiler_(compiler), cache_(cache), work_dir_(std::move(work_dir)) {}

  // Builds `spec` from request.repo_root. A failed compile is a BuildResult;
  // Errors are for a compiler that cannot run, or exits 0 without writing a shared
  // object (Error::environment), and for directories and files that cannot be
  // written (write_failure's: exit 3 for a full disk or a read-only place).
  // Only an object that passes check_shared_object is stored.
  Result<BuildResult> build(const KernelSpec& spec, const BuildRequest& request);

 private:
  Compiler& compiler_;
  CompileCache& cache_;
  std::filesystem::path work_dir_;
};

}  // namespace kblaster
