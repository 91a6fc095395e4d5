// The result type of every source applier in src/transform/: each applier is a
// pure function from CUDA source text to rewritten source text.
#pragma once

#include <string>

namespace kblaster {

// What a rewrite did: the new source, and a one-line description; when nothing
// applied, `changed` is false, `source` is the input and `description` says why.
struct SourceRewrite {
  bool changed = false;
  std::string source;
  std::string description;
};

}  // namespace kblaster
