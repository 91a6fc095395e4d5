// What `kblaster import kernelbench` writes: the kernels' spec and a starting CUDA file per
// problem that has none.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "kernelbench/problem.h"

namespace kblaster {

// `--rtol`/`--atol`: the tolerance every imported kernel is declared with.
struct ImportTolerance {
  double rtol = 0, atol = 0;
};

// A kblaster.toml declaring one kernel per problem: source <kernel>.cu, launcher run_<kernel>,
// reference "<file>:Model", the inputs, the module's own tensors (init "state(NAME)"), then the
// outputs as buffers of literal dimensions (the problem's fixed sizes), and one size; with
// `tolerance`, each kernel's (else the type's default).
std::string kernels_toml(const std::vector<KernelBenchProblem>& problems,
                         const std::optional<ImportTolerance>& tolerance = std::nullopt);

// <kernel>.cu to start from: the launcher with the spec's signature and a kernel that writes
// nothing yet, so that `kblaster verify` fails it as output_unwritten until it is written.
std::string launcher_skeleton(const KernelBenchProblem& problem);

}  // namespace kblaster
