#include "eval/verify_run.h"

#include <map>

#include "core/result_envelope.h"
#include "eval/gpu_run.h"

namespace kblaster {
namespace {

// How many kernels have each status.
std::map<std::string, int> tally(const std::vector<KernelVerification>& kernels) {
  std::map<std::string, int> out;
  for (const auto& k : kernels) ++out[verification_status_name(k.status)];
  return out;
}

}  // namespace

Result<VerifyRun> run_verify(const LoadedRepo& repo, const BuildFlags& build,
                             const VerifyFlags& flags, Provenance provenance, Session& session) {
  VerifyRun run{.provenance = std::move(provenance), .builds = {}, .kernels = {}, .skipped = {}};
  const VerifyFlags verify = seeded(flags);
  auto gpu = start_gpu_run(repo, build, verify.timeout_s, run.provenance, session);
  if (!gpu) return gpu.error();
  if (!gpu->gpu) {
    run.skipped = "verification skipped: " + gpu->why_no_device;
    run.kernels = skipped_verifications(repo, "no CUDA device");
  } else {
    auto verified = verify_kernels(gpu->builds, *gpu->gpu->client, verify, session);
    if (!verified) return verified.error();
    run.kernels = std::move(*verified);
    run.builds = std::move(gpu->builds);
    run.provenance.seeds = verification_seeds(verify, verify.seed_base);
    const auto counts = tally(run.kernels);
    auto count = [&counts](const char* status) {
      const auto it = counts.find(status);
      return it == counts.end() ? 0 : it->second;
    };
    session.progress << "verify: " << count("passed") << " passed, " << count("failed")
                     << " failed, " << count("skipped") << " skipped\n";
  }
  stamp_finished(run.provenance);
  return run;
}

nlohmann::json to_json(const VerifyRun& run) {
  nlohmann::json kernels = nlohmann::json::array();
  for (const auto& k : run.kernels) kernels.push_back(to_json(k));
  nlohmann::json j = result_envelope("verify", kVerifySchemaVersion, run.provenance);
  j["summary"] = tally(run.kernels);
  j["kernels"] = kernels;
  add_builds(j, run.builds, run.skipped);
  return j;
}

ExitCode verify_exit_code(const VerifyRun& run) {
  if (!run.skipped.empty()) return ExitCode::missing_environment;
  return tally(run.kernels).contains("failed") || run.builds.failed > 0 ? ExitCode::found_problem
                                                                        : ExitCode::ok;
}

}  // namespace kblaster
