// An optimization's source form: the best candidate with every build setting it needs
// (nvcc flags, a -D tunable's value) written into its source where a source form exists,
// so that the repository's own build, which knows nothing of kblaster.toml, compiles the
// optimization. What has no source form is named, with why. Pure: the caller builds,
// verifies and times the form before anything proposes it (docs/optimize.md, "Build
// settings and their source form").
#pragma once

#include <string>
#include <vector>

#include "eval/candidate.h"

namespace kblaster {

struct SourceForm {
  Candidate candidate;                   // the best, its expressible settings in the source
  std::vector<std::string> rewrites;     // one line per setting written as source
  std::vector<std::string> not_carried;  // "args: block_size = 256: …", one per setting left
  // True when the form needs no build setting beyond what the repository already has.
  bool complete() const { return not_carried.empty(); }
};

// The source form of `best`:
// - -use_fast_math: the transcendental calls of device code as intrinsics
//   (transform/fast_intrinsics.h); the flag's other effects are not carried, so the form
//   may be slower than the best, which is why the caller times it;
// - --maxrregcount=N: __maxnreg__(N) on the kernels (transform/register_cap.h);
// - a -D tunable: its value as the default of the source's #define
//   (transform/macro_default.h), built with no -D for it (Candidate::source_defaults).
// Other flags, a target arch and launcher-argument tunables (chosen by the caller of the
// launcher, not by the kernel's file) have no source form and stay in not_carried.
SourceForm source_form_of(const Candidate& best);

}  // namespace kblaster
