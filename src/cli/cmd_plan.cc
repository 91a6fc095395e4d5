// `kblaster plan [REPO]`: the kernels and their resolved specs. Needs no GPU.
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/plan_text.h"
#include "cli/repository.h"
#include "core/spec_json.h"

namespace kblaster {
namespace {

struct PlanOptions {
  CommonOptions common;
};

Result<ExitCode> run_plan(const PlanOptions& options, Session& session) {
  auto repo = load_repository(options.common);
  if (!repo) return repo.error();
  nlohmann::json kernels = nlohmann::json::array();
  if (!options.common.json)
    session.out << "kernel repository " << repo->root.string() << ": "
                << repo->config.kernels.size() << " kernels from " << repo->config.spec_files.size()
                << " spec file(s)\n\n";
  for (const KernelSpec* spec : repo->selected) {
    auto plan = plan_kernel(*spec);
    if (!plan)
      return Error::internal("kernel `" + spec->name +
                             "` passed validation but cannot be planned: " + plan.error().message);
    if (options.common.json) {
      nlohmann::json j = to_json(*spec);
      j["sizes"] = nlohmann::json::array();
      for (const auto& s : plan->sizes) j["sizes"].push_back(to_json(s));
      kernels.push_back(std::move(j));
    } else {
      print_kernel_plan(session.out, *spec, *plan);
      session.out << "\n";
    }
  }
  if (options.common.json)
    session.out << nlohmann::json{{"repo", repo->root.string()},
                                  {"arch", repo->config.project.arch},
                                  {"spec_files", repo->config.spec_files},
                                  {"kernels", kernels}}
                       .dump(2)
                << "\n";
  return ExitCode::ok;
}

}  // namespace

CommandAction setup_plan(CLI::App& app) {
  auto options = std::make_shared<PlanOptions>();
  add_common_options(app, options->common);
  return [options](Session& session) { return run_plan(*options, session); };
}

}  // namespace kblaster
