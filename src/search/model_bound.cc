#include "search/model_bound.h"

#include <algorithm>
#include <cstdio>

namespace kblaster {

std::optional<ModelBound> model_bound(int slots, const std::vector<ModelCall>& calls,
                                      double gpu_busy_s) {
  if (slots < 1 || calls.empty()) return std::nullopt;
  ModelBound b;
  b.slots = slots;
  b.calls = calls.size();
  double answering = 0;
  for (const ModelCall& c : calls) answering += c.answer_s;
  b.mean_answer_s = answering / static_cast<double>(calls.size());
  b.least_wall_s = answering / slots;
  b.least_idle_share = b.least_wall_s > 0 ? std::max(0.0, 1.0 - gpu_busy_s / b.least_wall_s) : 0.0;
  return b;
}

std::string describe_model_bound(const ModelBound& b, double gpu_busy_s) {
  char text[200];
  std::snprintf(text, sizeof text,
                "%zu calls of %.1f s on average through %d slot(s) need at least %.0f s, so the "
                "GPU (%.1f s busy) was idle at least %d %%",
                b.calls, b.mean_answer_s, b.slots, b.least_wall_s, gpu_busy_s,
                static_cast<int>(b.least_idle_share * 100));
  return text;
}

}  // namespace kblaster
