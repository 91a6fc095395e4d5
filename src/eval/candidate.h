// One point of the optimisation search: the kernel's source text and the build
// settings the embedded techniques change, plus how it was reached.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace kblaster {

struct Candidate {
  std::string source;                                 // the whole text of the kernel's source file
  std::vector<std::string> extra_flags;               // nvcc flags added after the spec's own
  std::string arch;                                   // empty: the run's arch
  std::map<std::string, std::string> macros;          // -D tunables (spec `tunables`)
  std::map<std::string, std::int64_t> launcher_args;  // launcher-argument tunables
  // -D tunables built with no -D, so that the source's own #define decides (a source
  // form, search/source_form.h); such a tunable has no entry in `macros`.
  std::set<std::string> source_defaults;
  std::vector<std::string> path;     // technique ids applied since the baseline, in order
  std::vector<std::string> changes;  // one description per applied technique

  // A short stable identity of what would be built: a hash of source and settings.
  std::string fingerprint() const;
};

}  // namespace kblaster
