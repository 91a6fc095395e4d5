// The kill test's victim: `kblaster_kb_writer KB_PATH` records trajectories of
// kStepsPerTrajectory steps into the KB in a loop until it is killed.
// Exits 1 with a message if the KB cannot be opened or written.
#include <unistd.h>

#include <cstdio>
#include <string>

#include "kb/store.h"
#include "kb_writer_steps.h"

int main(int argc, char** argv) {
  using namespace kblaster;
  if (argc != 2) {
    std::fprintf(stderr, "usage: kblaster_kb_writer KB_PATH\n");
    return 2;
  }
  Result<Store> store = Store::open(argv[1]);
  if (!store) {
    std::fprintf(stderr, "%s\n", store.error().describe().c_str());
    return 1;
  }
  const std::string prefix = std::to_string(::getpid()) + "-";
  for (std::int64_t n = 0;; ++n) {
    Trajectory t{prefix + std::to_string(n), "task" + std::to_string(n % 7), "sm_90", n, {}};
    for (std::int64_t i = 0; i < kb_test::kStepsPerTrajectory; ++i) {
      const auto outcome = static_cast<StepOutcome>((n + i) % 5);
      t.steps.push_back({i, "memory_bound", "tech" + std::to_string(i), outcome,
                         0.01 * static_cast<double>(i), 100 * i});
    }
    Result<Recorded> r = store->record_trajectory(t);
    if (!r) {
      std::fprintf(stderr, "%s\n", r.error().describe().c_str());
      return 1;
    }
  }
}
