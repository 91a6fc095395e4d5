#include "eval/bench_step.h"

#include <algorithm>

#include "eval/ceilings_cache.h"
#include "eval/repeat_guard.h"
#include "eval/seed_source.h"
#include "stats/quantile.h"

namespace kblaster {

Result<BenchOutcome> verify_and_bench(const BuildReport& builds, GpuContext& gpu,
                                      const VerifyFlags& verify, const BenchFlags& bench,
                                      Session& session) {
  auto verified = verify_kernels(builds, *gpu.client, verify, session);
  if (!verified) return verified.error();
  auto measured = measured_ceilings(*gpu.client, gpu.harness_device.name,
                                    builds.cache_dir / "ceilings.json", session);
  if (!measured) return measured.error();
  const Ceilings ceilings = *measured;

  BenchOutcome outcome;
  nlohmann::json kernels = nlohmann::json::array();
  for (std::size_t i = 0; i < verified->size(); ++i) {
    const KernelVerification& v = (*verified)[i];
    const KernelBuild& b = builds.kernels[i];
    nlohmann::json j = {{"name", v.spec->name}, {"verification", to_json(v)}};
    if (v.status != KernelVerification::Status::passed) {
      outcome.problem = outcome.problem || v.status == KernelVerification::Status::failed;
      session.progress << "bench " << v.spec->name << ": not timed, verification "
                       << verification_status_name(v.status) << "\n";
      kernels.push_back(std::move(j));
      continue;
    }
    KB_TRY(gpu.client->load({b.result.object.string()}, reference_object(b)));
    std::vector<double> medians;
    nlohmann::json repeats = nlohmann::json::array();
    RepeatGuard guard;
    for (int r = 0; r < bench.repeat; ++r) {
      BenchFlags run = bench;
      run.seed = timing_seed(verify.seed_base, r);
      auto m = measure(*gpu.client, *v.spec, 0, run, ceilings, session.clock);
      if (!m) return m.error();
      session.progress << "bench " << v.spec->name << "  " << m->size << "  "
                       << describe(*m, ceilings)
                       << (m->rejected.empty() ? "" : "\n  REJECTED: " + m->rejected) << "\n";
      outcome.problem = outcome.problem || !m->rejected.empty();
      medians.push_back(m->summary.median);
      if (r == 0)
        j["measurement"] = to_json(*m, ceilings);
      else
        repeats.push_back(to_json(*m, ceilings));
      if (r + 1 < bench.repeat && guard.stop_after_run(*gpu.client)) {
        session.progress << "bench " << v.spec->name << ": stopped after " << r + 1 << " of "
                         << bench.repeat << " run(s): " << guard.why() << "\n";
        break;
      }
    }
    if (bench.repeat > 1) {
      const auto [lo, hi] = std::minmax_element(medians.begin(), medians.end());
      const double spread = (*hi - *lo) / median_of(medians);
      session.progress << "bench " << v.spec->name << "  spread of " << medians.size()
                       << " medians (max - min) / median: " << spread * 100.0 << "%\n";
      j["repeats"] = repeats;
      j["medians_s"] = medians;
      j["median_spread"] = spread;
    }
    kernels.push_back(std::move(j));
  }
  outcome.report = {{"device", gpu.harness_device.name},
                    {"peak_bytes_per_s", ceilings.dram_bytes_per_s},
                    {"peak_fp32_flops_per_s", ceilings.fp32_flops_per_s},
                    {"kernels", kernels}};
  return outcome;
}

}  // namespace kblaster
