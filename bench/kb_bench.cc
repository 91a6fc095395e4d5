// KB benchmark (issue 6, item 7): a KB with 10,000 five-step trajectories over the
// catalogue's states x techniques x 2 archs; reports the median `predict` time over 200
// queries and the file size after a WAL checkpoint. Targets: < 1 ms, < 20 MB.
// Usage: kblaster_bench_kb [kb-path]   (default: a fresh file under the temp dir, removed)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "kb/prediction.h"

namespace {

using namespace kblaster;
constexpr int kTrajectories = 10'000;
constexpr int kSteps = 5;
constexpr int kQueries = 200;

std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

int fail(const Error& e) {
  std::fprintf(stderr, "kb_bench: %s\n", e.describe().c_str());
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  const auto dir = std::filesystem::path(KBLASTER_SOURCE_DIR) / "kb" / "catalogue";
  Result<Catalogue> cat =
      load_catalogue(read_text(dir / "techniques.json"), read_text(dir / "states.json"));
  if (!cat) return fail(cat.error());
  const bool temp = argc < 2;
  const std::filesystem::path path =
      temp ? std::filesystem::temp_directory_path() / "kblaster_bench_kb" / "kb.sqlite"
           : std::filesystem::path(argv[1]);
  std::filesystem::remove_all(temp ? path.parent_path() : path);
  Result<Store> store = Store::open(path);
  if (!store) return fail(store.error());
  // Loading only: one fsync per trajectory would time the disk, not the KB.
  if (auto s = store->database().exec("PRAGMA synchronous=OFF"); !s) return fail(s.error());

  const std::vector<std::string> archs = {"sm_80", "sm_90"};
  std::mt19937_64 rng(20261130);
  std::normal_distribution<double> noise(0.0, 0.1);
  const auto load_start = std::chrono::steady_clock::now();
  for (int i = 0; i < kTrajectories; ++i) {
    Trajectory t{"bench-" + std::to_string(i),
                 "task-" + std::to_string(i % 500),
                 archs[i % archs.size()],
                 1'700'000'000 + i,
                 {}};
    for (int s = 0; s < kSteps; ++s) {
      const PerfStateInfo& st = cat->states[rng() % cat->states.size()];
      const Technique& tech = cat->techniques[rng() % cat->techniques.size()];
      const auto prior = st.priors.find(tech.id);
      const double reward =
          (prior == st.priors.end() ? 0.0 : prior->second.expected_log_speedup) + noise(rng);
      const unsigned roll = rng() % 100;
      const StepOutcome outcome = roll < 10        ? StepOutcome::compile_failure
                                  : roll < 15      ? StepOutcome::verify_failure
                                  : reward > 0.01  ? StepOutcome::faster
                                  : reward < -0.01 ? StepOutcome::slower
                                                   : StepOutcome::same;
      t.steps.push_back({s, st.key, tech.id, outcome, is_measured(outcome) ? reward : 0.0, 1500});
    }
    if (auto r = store->record_trajectory(t); !r) return fail(r.error());
  }
  const double load_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - load_start).count();

  std::vector<double> micros;
  std::size_t results = 0;
  for (int q = 0; q < kQueries; ++q) {
    const std::string& state = cat->states[q % cat->states.size()].key;
    const auto start = std::chrono::steady_clock::now();
    Result<std::vector<Prediction>> p = predict(*store, *cat, state, archs[q % archs.size()]);
    const auto end = std::chrono::steady_clock::now();
    if (!p) return fail(p.error());
    results += p->size();
    micros.push_back(std::chrono::duration<double, std::micro>(end - start).count());
  }
  std::sort(micros.begin(), micros.end());

  if (auto s = store->database().exec("PRAGMA wal_checkpoint(TRUNCATE)"); !s)
    return fail(s.error());
  const auto size = std::filesystem::file_size(path);
  std::error_code ec;
  const auto wal = std::filesystem::file_size(path.string() + "-wal", ec);
  Result<std::int64_t> count = store->trajectory_count();
  if (!count) return fail(count.error());

  std::printf("trajectories          %lld (%d steps each), loaded in %.1f s\n",
              static_cast<long long>(*count), kSteps, load_s);
  std::printf("catalogue             %zu states x %zu techniques x %zu archs\n", cat->states.size(),
              cat->techniques.size(), archs.size());
  std::printf("predict, %d queries   median %.1f us, p95 %.1f us, max %.1f us (%zu predictions)\n",
              kQueries, micros[micros.size() / 2], micros[micros.size() * 95 / 100], micros.back(),
              results);
  std::printf("file after checkpoint %.2f MB (%llu bytes; wal %llu bytes)\n", size / 1e6,
              static_cast<unsigned long long>(size), static_cast<unsigned long long>(ec ? 0 : wal));
  const bool ok = micros[micros.size() / 2] < 1000.0 && size < 20'000'000;
  std::printf("targets (< 1 ms, < 20 MB): %s\n", ok ? "met" : "MISSED");
  if (temp) std::filesystem::remove_all(path.parent_path());
  return ok ? 0 : 2;
}
