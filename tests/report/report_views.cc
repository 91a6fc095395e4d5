#include "report_views.h"

namespace kblaster::testing {

ResultView check_view(std::size_t n, const std::string& reason) {
  ResultView r;
  r.kind = ResultKind::check;
  r.origin = "made.json";
  r.title = "check 1111111..2222222";
  r.facts = {{"GPU", "NVIDIA H200"}, {"nvcc", "release 13.0"}, {"seeds", "1, 2, 3"}};
  for (std::size_t i = 0; i < n; ++i) {
    KernelView k;
    k.name = "k" + std::to_string(i);
    k.base = k.head = "built";
    k.ratio = Estimate{.value = 1.5, .low = 1.4, .high = 1.6};
    k.finding = Finding::slower;
    k.reason = reason;
    k.verification = {"head: verified at every size before it was timed"};
    k.profile = ProfileChange{
        .rows = {{.metric = "duration", .unit = "us", .before = 10, .after = 15},
                 {.metric = "DRAM throughput", .unit = "%", .before = 80, .after = std::nullopt}},
        .state_before = "memory.dram_saturated",
        .state_after = "memory.dram_saturated"};
    r.kernels.push_back(std::move(k));
  }
  return r;
}

}  // namespace kblaster::testing
