#include "eval/bench_step.h"

#include <algorithm>

#include "eval/ceilings_cache.h"
#include "eval/repeat_guard.h"
#include "eval/seed_source.h"
#include "stats/quantile.h"

namespace kblaster {
namespace {

// With --baseline torch, a kernel that cannot be compared with its PyTorch reference: none for a
// kernel whose reference is no module; for one that is, each mode `failed` for `why`, so that
// fast_p counts it against the kernel. Returns whether the baselines can be timed.
bool baselines_possible(const KernelSpec& spec, const std::string& why, BenchedKernel& k,
                        Session& session) {
  if (spec.reference.kind != ReferenceSpec::Kind::python)
    k.no_baseline = "its reference is not a PyTorch module";
  if (!k.no_baseline.empty()) {
    session.progress << "bench " << spec.name << "  no torch baseline: " << k.no_baseline << "\n";
    return false;
  }
  if (why.empty()) return true;
  for (const auto& mode : kTorchModes) {
    BaselineMeasurement b;
    b.mode = mode;
    b.failed = why;
    k.baselines.push_back(std::move(b));
  }
  session.progress << "bench " << spec.name << "  torch baselines not timed: " << why << "\n";
  return false;
}

// With --baseline torch, after the kernel's first timing: its PyTorch reference timed eager and
// compiled on the same inputs, in the harness that holds them.
Status time_baselines(const KernelBuild& b, GpuContext& gpu, const BenchFlags& bench,
                      BenchedKernel& k, Session& session) {
  const std::string& name = b.spec->name;
  const Measurement& m = k.runs.front();
  if (!baselines_possible(*b.spec, m.rejected.empty() ? "" : "the kernel's timing was rejected", k,
                          session))
    return Ok{};
  for (const auto& mode : kTorchModes) {
    auto baseline =
        measure_baseline(*gpu.client, mode, m.summary.median, m.seed, bench, session.clock);
    if (!baseline) return baseline.error();
    session.progress << "bench " << name << "  " << describe(*baseline) << "\n";
    k.baselines.push_back(std::move(*baseline));
  }
  return Ok{};
}

// Times a verified kernel `bench.repeat` times on fresh inputs, stopping early when the
// harness keeps ending.
Status time_kernel(const KernelBuild& b, GpuContext& gpu, std::uint64_t run_seed,
                   const BenchFlags& bench, const Ceilings& ceilings, BenchedKernel& k,
                   BenchOutcome& outcome, Session& session) {
  const std::string& name = b.spec->name;
  KB_TRY(gpu.client->load({b.result.object.string()}, reference_object(b)));
  RepeatGuard guard;
  for (int r = 0; r < bench.repeat; ++r) {
    BenchFlags run = bench;
    run.seed = timing_seed(run_seed, r);
    auto m = measure(*gpu.client, *b.spec, 0, run, ceilings, session.clock);
    if (!m) return m.error();
    session.progress << "bench " << name << "  " << m->size << "  " << describe(*m, ceilings)
                     << (m->rejected.empty() ? "" : "\n  REJECTED: " + m->rejected) << "\n";
    outcome.problem = outcome.problem || !m->rejected.empty();
    outcome.seeds.push_back(m->seed);
    k.runs.push_back(std::move(*m));
    if (r == 0 && bench.torch_baseline) KB_TRY(time_baselines(b, gpu, bench, k, session));
    if (r + 1 < bench.repeat && guard.stop_after_run(*gpu.client)) {
      k.stopped = "stopped after " + std::to_string(r + 1) + " of " + std::to_string(bench.repeat) +
                  " run(s): " + guard.why();
      session.progress << "bench " << name << ": " << k.stopped << "\n";
      break;
    }
  }
  return Ok{};
}

std::vector<double> medians(const BenchedKernel& k) {
  std::vector<double> out;
  for (const auto& m : k.runs) out.push_back(m.summary.median);
  return out;
}

// (max - min) / median of the runs' medians: how far a rerun's median may land.
double median_spread(const std::vector<double>& medians) {
  const auto [lo, hi] = std::minmax_element(medians.begin(), medians.end());
  return (*hi - *lo) / median_of(medians);
}

}  // namespace

Result<BenchOutcome> verify_and_bench(const BuildReport& builds, GpuContext& gpu,
                                      const VerifyFlags& flags, const BenchFlags& bench,
                                      Session& session) {
  const VerifyFlags verify = seeded(flags);
  auto verified = verify_kernels(builds, *gpu.client, verify, session);
  if (!verified) return verified.error();
  auto measured = measured_ceilings(*gpu.client, gpu.harness_device.name,
                                    builds.cache_dir / "ceilings.json", session);
  if (!measured) return measured.error();

  const ReferenceWork before = gpu.client->reference_work();
  BenchOutcome outcome;
  outcome.ceilings = *measured;
  outcome.seeds = verification_seeds(verify, verify.seed_base);
  for (std::size_t i = 0; i < verified->size(); ++i) {
    BenchedKernel k{.verification = std::move((*verified)[i]), .runs = {}, .stopped = {}};
    const KernelVerification& v = k.verification;
    if (v.status != KernelVerification::Status::passed) {
      outcome.problem = outcome.problem || v.status == KernelVerification::Status::failed;
      session.progress << "bench " << v.spec->name << ": not timed, verification "
                       << verification_status_name(v.status) << "\n";
      if (bench.torch_baseline)
        baselines_possible(*v.spec,
                           std::string("the kernel was not timed: verification ") +
                               verification_status_name(v.status),
                           k, session);
    } else {
      KB_TRY(time_kernel(builds.kernels[i], gpu, verify.seed_base, bench, outcome.ceilings, k,
                         outcome, session));
    }
    if (k.runs.size() > 1) {
      session.progress << "bench " << v.spec->name << "  spread of " << k.runs.size()
                       << " medians (max - min) / median: " << median_spread(medians(k)) * 100.0
                       << "%\n";
    }
    outcome.kernels.push_back(std::move(k));
  }
  say_reference_work(session.progress, "bench ", gpu.client->reference_work() - before);
  return outcome;
}

nlohmann::json to_json(const BenchOutcome& outcome) {
  nlohmann::json kernels = nlohmann::json::array();
  for (const auto& k : outcome.kernels) {
    nlohmann::json j = {{"name", k.verification.spec->name},
                        {"verification", to_json(k.verification)}};
    if (!k.runs.empty()) j["measurement"] = to_json(k.runs.front(), outcome.ceilings);
    if (k.runs.size() > 1) {
      nlohmann::json repeats = nlohmann::json::array();
      for (std::size_t r = 1; r < k.runs.size(); ++r)
        repeats.push_back(to_json(k.runs[r], outcome.ceilings));
      j["repeats"] = repeats;
      j["medians_s"] = medians(k);
      j["median_spread"] = median_spread(medians(k));
    }
    if (!k.stopped.empty()) j["stopped"] = k.stopped;
    if (!k.baselines.empty()) {
      j["baselines"] = nlohmann::json::array();
      for (const auto& b : k.baselines) j["baselines"].push_back(to_json(b));
    }
    if (!k.no_baseline.empty()) j["no_baseline"] = k.no_baseline;
    kernels.push_back(std::move(j));
  }
  return {{"peak_bytes_per_s", outcome.ceilings.dram_bytes_per_s},
          {"peak_fp32_flops_per_s", outcome.ceilings.fp32_flops_per_s},
          {"kernels", kernels}};
}

std::vector<double> timing_clocks(const BenchOutcome& outcome) {
  std::vector<double> clocks;
  for (const auto& k : outcome.kernels)
    for (const auto& m : k.runs) clocks.push_back(m.sm_mhz);
  return clocks;
}

}  // namespace kblaster
