#include "eval/compare_series.h"

#include "eval/repeat_guard.h"

namespace kblaster {

std::string CompareSeries::summary() const {
  std::string text;
  for (const auto& [verdict, count] : tally)
    text += (text.empty() ? "" : ", ") + verdict + " " + std::to_string(count);
  return text;
}

Result<CompareSeries> compare_series(HarnessClient& harness, const KernelSpec& spec,
                                     const CompareFlags& flags, int repeat, Session& session) {
  CompareSeries series;
  RepeatGuard guard;
  for (int i = 0; i < repeat; ++i) {
    CompareFlags run = flags;
    if (flags.seed != 0) run.seed = flags.seed + static_cast<std::uint64_t>(i);
    auto r = compare_once(harness, spec, run, session.clock);
    if (!r) return r.error();
    const std::string counter = "[" + std::to_string(i + 1) + "/" + std::to_string(repeat) + "] ";
    if (!r->rejected.empty()) {
      ++series.tally["REJECTED"];
      session.progress << counter << "REJECTED: " << r->rejected << "\n";
    } else {
      ++series.tally[verdict_name(r->comparison.verdict)];
      session.progress << counter << r->comparison.reason;
      if (const std::string how = ab_method_note(*r); !how.empty())
        session.progress << "; timed " << how;
      session.progress << "\n";
    }
    series.runs.push_back(std::move(*r));
    if (i + 1 < repeat && guard.stop_after_run(harness)) {
      series.stopped = "stopped after " + std::to_string(i + 1) + " of " + std::to_string(repeat) +
                       " run(s): " + guard.why();
      session.progress << "compare: " << series.stopped << "\n";
      break;
    }
  }
  return series;
}

}  // namespace kblaster
