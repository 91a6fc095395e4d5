// What the model's throughput lets the GPU do in an LLM search (docs/llm.md, "What bounds the
// idle share"): `slots` calls run at once, so the calls of a search take at least
// calls x their mean answer time / slots of wall time, and the GPU, busy for gpu_busy_s, is idle
// at least the rest of that. Pure.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "search/llm_policy.h"

namespace kblaster {

struct ModelBound {
  int slots = 0;               // calls at once ([llm] in_flight)
  std::size_t calls = 0;       // the search's calls to the model
  double mean_answer_s = 0;    // their mean time in the backend, without waiting for a slot
  double least_wall_s = 0;     // calls x mean_answer_s / slots
  double least_idle_share = 0; // 1 - gpu_busy_s / least_wall_s, at least 0
};

// The bound of a search that made `calls` through `slots` slots with the GPU busy for
// `gpu_busy_s`; nullopt without calls or slots.
std::optional<ModelBound> model_bound(int slots, const std::vector<ModelCall>& calls,
                                      double gpu_busy_s);

// For the progress line: "78 calls of 10.0 s on average through 8 slot(s) need at least 98 s,
// so the GPU (37.6 s busy) was idle at least 62 %".
std::string describe_model_bound(const ModelBound& bound, double gpu_busy_s);

}  // namespace kblaster
