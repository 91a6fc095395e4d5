// `kblaster verify [REPO]`: every kernel against its reference, at every size,
// with fresh inputs per seed, in the sandboxed harness. Needs a CUDA device.
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/repository.h"
#include "cli/step_flags.h"
#include "eval/build_step.h"
#include "eval/gpu_context.h"
#include "eval/gpu_run.h"
#include "eval/provenance.h"
#include "eval/verify_step.h"

namespace kblaster {
namespace {

struct VerifyOptions {
  CommonOptions common;
  BuildFlags build;
  VerifyFlags verify;
};

Result<ExitCode> run_verify(const VerifyOptions& options, Session& session) {
  auto repo = load_repository(options.common);
  if (!repo) return repo.error();
  Provenance provenance = command_provenance(session, repo->root);
  auto run = start_gpu_run(*repo, options.build, options.verify.timeout_s, provenance, session);
  if (!run) return run.error();
  if (!run->gpu) return Error::environment(run->why_no_device);
  const BuildReport* builds = &run->builds;
  GpuContext* gpu = &*run->gpu;
  auto results = verify_kernels(*builds, *gpu->client, options.verify, session);
  if (!results) return results.error();

  int passed = 0, failed = 0, skipped = 0;
  nlohmann::json kernels = nlohmann::json::array();
  for (const auto& r : *results) {
    (r.status == KernelVerification::Status::passed   ? passed
     : r.status == KernelVerification::Status::failed ? failed
                                                      : skipped)++;
    kernels.push_back(to_json(r));
  }
  session.progress << "verify: " << passed << " passed, " << failed << " failed, " << skipped
                   << " skipped\n";
  if (options.common.json)
    session.out << nlohmann::json{{"device", gpu->harness_device.name}, {"kernels", kernels}}.dump(
                       2)
                << "\n";
  return failed > 0 || builds->failed > 0 ? ExitCode::found_problem : ExitCode::ok;
}

}  // namespace

CommandAction setup_verify(CLI::App& app) {
  auto options = std::make_shared<VerifyOptions>();
  add_common_options(app, options->common);
  add_build_flags(app, options->build);
  add_verify_flags(app, options->verify);
  return [options](Session& session) { return run_verify(*options, session); };
}

}  // namespace kblaster
