// Shard k of n of a sweep (issue 20, "kblaster sweep"): which kernels one of n runners takes,
// so that a sweep grows past one runner without a scheduler of kblaster's own. Every runner
// computes the same split from the same inputs, so no kernel is run twice or left out.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/environment.h"
#include "core/status.h"

namespace kblaster {

// Shard `index` of `count`, 1-based: 1 <= index <= count.
struct Shard {
  int index = 1;
  int count = 1;
};

// "K/N" as `--shard` takes it: Error::usage naming `where` unless 1 <= K <= N <= 4096.
Result<Shard> parse_shard(std::string_view text, std::string_view where);

// The shard the environment names, nullopt when none does. In order: KBLASTER_SHARD ("K/N");
// a Slurm array (SLURM_ARRAY_TASK_ID, from SLURM_ARRAY_TASK_MIN, default 0, as shard 1, of
// SLURM_ARRAY_TASK_COUNT); a Kubernetes Indexed Job (JOB_COMPLETION_INDEX, 0-based, of
// KBLASTER_SHARD_COUNT, which the Job must set). A variable set but unusable is Error::usage
// naming it.
Result<std::optional<Shard>> shard_from_environment(const EnvironmentLookup& environment);

// The kernels of `names` that `shard` takes. The split balances the seconds in `cost` (a
// kernel without a figure counts as the median of those known, or 1 when none is): longest
// first, each to the shard with the least so far, ties to the lower shard and the name. The
// same names and costs give every runner the same split; with no costs it is even, by name.
std::vector<std::string> shard_kernels(std::vector<std::string> names,
                                       const std::map<std::string, double>& cost, Shard shard);

// A short digest of the whole split of `names` into `count` shards (shard_kernels for each):
// every runner of one sweep should print the same, and a runner that restored another KB
// (other costs) shows a different one.
std::string split_digest(const std::vector<std::string>& names,
                         const std::map<std::string, double>& cost, int count);

}  // namespace kblaster
