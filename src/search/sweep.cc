#include "search/sweep.h"

#include <algorithm>

#include "core/clock.h"
#include "core/file_write.h"
#include "core/result_envelope.h"
#include "eval/seed_source.h"
#include "eval/session.h"
#include "kb/store.h"

namespace kblaster {
namespace {

// The worse of two exit codes of finished work: a problem found outranks a skipped GPU.
ExitCode worse(ExitCode a, ExitCode b) {
  if (a == ExitCode::found_problem || b == ExitCode::found_problem) return ExitCode::found_problem;
  if (a == ExitCode::missing_environment || b == ExitCode::missing_environment)
    return ExitCode::missing_environment;
  return ExitCode::ok;
}

Status write_json(const std::filesystem::path& file, const nlohmann::json& value) {
  return write_file(file, value.dump(2) + "\n");
}

// Why the run gives `kernel` no search: it did not build, or did not verify; "" when it may.
std::string unfit(const CiRun& run, const KernelSpec* kernel) {
  for (const auto& b : run.builds.kernels)
    if (b.spec == kernel && !b.ok()) return "it did not build";
  for (const auto& k : run.outcome.kernels)
    if (k.verification.spec == kernel &&
        k.verification.status != KernelVerification::Status::passed)
      return std::string("its verification ") + verification_status_name(k.verification.status) +
             (k.verification.skip_reason.empty() ? "" : ": " + k.verification.skip_reason);
  return "";
}

}  // namespace

Result<SweepResult> run_sweep(LoadedRepo repo, std::size_t repository_kernels,
                              const BuildFlags& build, const VerifyFlags& verify,
                              const BenchFlags& bench, const Catalogue& catalogue,
                              SweepSettings settings, Provenance provenance, Session& session) {
  const double start = session.clock.now_seconds();
  SweepResult r;
  r.provenance = provenance;
  r.settings = settings;
  r.repository_kernels = repository_kernels;
  for (const KernelSpec* k : repo.selected) r.kernels.push_back(k->name);
  session.progress << "sweep: shard " << settings.shard.index << "/" << settings.shard.count << " ("
                   << settings.shard_from << "): " << r.kernels.size() << " of "
                   << repository_kernels << " kernel(s), split " << settings.split_digest << " ("
                   << settings.costs_known << " cost(s) from the KB); deadline "
                   << settings.max_seconds << " s, each search at most " << settings.kernel_seconds
                   << " s; results in " << settings.out_dir.string() << "\n";
  KB_TRY(make_directories(settings.out_dir));
  if (r.kernels.empty()) {
    session.progress << "sweep: this shard takes no kernel (more shards than kernels)\n";
    return r;
  }
  // One set of verification seeds for the run step and every search, so each search finds the
  // reference outputs the run step computed in the command's folder (docs/cli.md, verify).
  const VerifyFlags verify_seeded = seeded(verify);
  auto run = run_ci(repo, build, verify_seeded, bench, provenance, session);
  if (!run) return run.error();
  r.run_file = settings.out_dir / "run.json";
  r.results.push_back(to_json(*run));
  KB_TRY(write_json(r.run_file, r.results.back()));
  session.progress << "sweep: wrote " << r.run_file.string() << "\n";
  r.exit = ci_exit_code(*run);
  if (!run->skipped.empty()) {
    r.skipped = run->skipped;
    for (const auto& name : r.kernels) r.not_searched.push_back({name, "no GPU: " + run->skipped});
    return r;
  }
  if (settings.optimize.search_seed == 0) settings.optimize.search_seed = draw_seed();
  const double run_share = (session.clock.now_seconds() - start) / double(r.kernels.size());
  const std::vector<const KernelSpec*> shard = repo.selected;
  for (const KernelSpec* kernel : shard) {
    if (const std::string why = unfit(*run, kernel); !why.empty()) {
      r.not_searched.push_back({kernel->name, why});
      session.progress << "sweep " << kernel->name << ": not searched, " << why << "\n";
      continue;
    }
    const double left = settings.max_seconds - (session.clock.now_seconds() - start);
    if (left < settings.least_search_s) {
      r.not_searched.push_back(
          {kernel->name, "the shard's deadline (" +
                             std::to_string(static_cast<int>(settings.max_seconds)) +
                             " s) came first"});
      session.progress << "sweep " << kernel->name << ": not searched, the deadline came first\n";
      continue;
    }
    repo.selected = {kernel};
    const double searched_from = session.clock.now_seconds();
    OptimizeSettings search = settings.optimize;
    search.budget.max_seconds = std::min(settings.kernel_seconds, left);
    auto optimized =
        run_optimize(repo, build, verify_seeded, catalogue, std::move(search), provenance, session);
    if (!optimized) return optimized.error();
    const auto file = settings.out_dir / ("optimize-" + kernel->name + ".json");
    r.results.push_back(to_json(*optimized));
    KB_TRY(write_json(file, r.results.back()));
    session.progress << "sweep " << kernel->name << ": wrote " << file.string() << "\n";
    r.optimized.push_back(file);
    r.exit = worse(r.exit, optimize_exit_code(*optimized));
    if (optimized->skipped.empty()) {
      auto kb = Store::open(settings.optimize.kb_file);
      if (!kb) return kb.error();
      KB_TRY(
          kb->record_cost({kernel->name, run->builds.arch,
                           session.clock.now_seconds() - searched_from + run_share, unix_now()}));
    }
  }
  return r;
}

nlohmann::json to_json(const SweepResult& r) {
  Provenance p = r.provenance;
  stamp_finished(p);
  nlohmann::json j = result_envelope("sweep", kSweepSchemaVersion, p);
  j["shard"] = {{"index", r.settings.shard.index},
                {"count", r.settings.shard.count},
                {"from", r.settings.shard_from},
                {"split_digest", r.settings.split_digest},
                {"costs_known", r.settings.costs_known}};
  j["kernels"] = r.kernels;
  j["repository_kernels"] = r.repository_kernels;
  j["budget"] = {{"max_seconds", r.settings.max_seconds},
                 {"kernel_seconds", r.settings.kernel_seconds}};
  j["run_file"] =
      r.run_file.empty() ? nlohmann::json(nullptr) : nlohmann::json(r.run_file.string());
  nlohmann::json files = nlohmann::json::array();
  for (const auto& f : r.optimized) files.push_back(f.string());
  j["optimize_files"] = files;
  nlohmann::json skipped = nlohmann::json::array();
  for (const auto& n : r.not_searched) skipped.push_back({{"kernel", n.kernel}, {"why", n.why}});
  j["not_searched"] = skipped;
  if (!r.skipped.empty()) j["skipped"] = r.skipped;
  j["exit_code"] = to_int(r.exit);
  return j;
}

}  // namespace kblaster
