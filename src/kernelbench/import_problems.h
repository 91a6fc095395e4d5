// `kblaster import kernelbench DIR`: a directory of KernelBench-style problems made a kernel
// repository, in place.
#pragma once

#include <filesystem>
#include <ostream>
#include <string>
#include <vector>

#include "core/status.h"
#include "kernelbench/problem_describer.h"
#include "kernelbench/spec_text.h"

namespace kblaster {

// What the import does with an existing kblaster.toml: keep it (a usage error) or replace it.
enum class SpecFile { keep, replace };

struct ImportReport {
  std::vector<KernelBenchProblem> imported;
  std::vector<std::pair<std::string, std::string>> skipped;  // file, why
  std::vector<std::string> skeletons;                        // .cu files written to start from
  std::filesystem::path spec;                                // the kblaster.toml written
};

// Describes every *.py in `dir` (in name order), writes `dir`/kblaster.toml declaring the ones
// kblaster can take, and a launcher skeleton <kernel>.cu for each that has no .cu file yet (an
// existing one, a solution, is kept); with `tolerance`, every kernel is declared with it. Progress,
// one line per problem, goes to `progress`. An existing kblaster.toml is an Error::usage unless
// SpecFile::replace; no problem imported is an Error::config listing why each was skipped; write
// failures are Error::environment (exit 3).
Result<ImportReport> import_kernelbench(const std::filesystem::path& dir,
                                        const DescribeOptions& options, SpecFile spec_file,
                                        const std::optional<ImportTolerance>& tolerance,
                                        std::ostream& progress);

}  // namespace kblaster
