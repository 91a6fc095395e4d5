// The run results of one sweep's shards merged into the run result of the sweep, so that a
// report over N shards reads as the report of the unsharded sweep (issue 20).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace kblaster {

// A saved result as read from its file, before a report reads it into a view.
struct SavedResult {
  nlohmann::json value;
  std::string origin;  // the file, or "a.json + b.json" for merged shards
};

// `results` with every group of run results that are shards of one sweep merged into one, in
// the place of the group's first: runs of the same repository, revisions, GPU model, arch,
// nvcc and kblaster whose kernels are disjoint. The merged run holds every kernel (by name),
// every build, the summed cache counts, and the earliest start and latest finish. Other
// results, and runs that overlap or differ, are kept as they are.
std::vector<SavedResult> merge_sweep_shards(std::vector<SavedResult> results);

}  // namespace kblaster
