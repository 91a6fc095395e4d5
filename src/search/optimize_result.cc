#include "search/optimize_result.h"

#include "core/result_envelope.h"
#include "eval/ceilings_cache.h"
#include "eval/gpu_run.h"
#include "eval/provenance.h"
#include "eval/seed_source.h"
#include "eval/verify_step.h"
#include "gpu/compiler.h"
#include "kb/seed.h"
#include "kb/store.h"
#include "llm/exchange_recording.h"
#include "search/optimize_kernel.h"

namespace kblaster {
namespace {

// Says what the search may change and what --apply will do with the best.
void print_plan(const OptimizeResult& r, Session& session) {
  const OptimizeSettings& s = r.settings;
  session.progress << "optimize: KB " << s.kb_file.string() << ", search seed " << s.search_seed
                   << " (repeat with --search-seed " << s.search_seed
                   << "), verification seeds from " << r.verification_seeds.front() << ", budget "
                   << s.budget.breadth << " x " << s.budget.depth << ", " << s.budget.max_seconds
                   << " s per kernel\n";
  if (s.write_back == WriteBack::if_verified)
    session.progress
        << "optimize: source rewrites only: --apply writes the best back to the "
           "source, which cannot carry build settings or tunables; without --apply the "
           "search also tries flags, arch and tunables\n";
  else if (s.source_only)
    session.progress << "optimize: source rewrites only (--source-only)\n";
}

// Every built kernel searched in turn on the started GPU.
Status search_kernels(const GpuRun& run, const LoadedRepo& repo, const Catalogue& catalogue,
                      OptimizeResult& r, Session& session) {
  auto ceilings = measured_ceilings(*run.gpu->client, run.gpu->harness_device.name,
                                    run.builds.cache_dir / "ceilings.json", session);
  if (!ceilings) return ceilings.error();
  NcuProfiler profiler = NcuProfiler::from_environment();
  if (!profiler.available())
    session.progress << "profiles: none (" << profiler.why_unavailable()
                     << "); states from timing only\n";
  auto kb = Store::open(r.settings.kb_file);
  if (!kb) return kb.error();
  KB_TRY(seed_catalogue(*kb, catalogue));
  auto compiler = NvccCompiler::find();
  if (!compiler) return compiler.error();
  print_plan(r, session);
  // The LLM policy: its prompts, its calls recorded under the output folder, its ledger.
  std::optional<PromptSet> prompts;
  std::optional<RecordingBackend> recording;
  std::optional<TokenLedger> ledger;
  std::optional<LlmPolicy> policy;
  const auto exchanges = r.settings.out_dir / "llm";
  if (const auto& llm = r.settings.llm) {
    auto loaded = load_prompt_set(llm->prompts_dir);
    if (!loaded) return loaded.error();
    prompts = std::move(*loaded);
    recording.emplace(*llm->backend, ExchangeStore(exchanges));
    ledger.emplace(llm->prices, llm->caps);
    LlmPolicyOptions options = llm->options;
    options.clock = &session.clock;  // each call's time, for the search's timeline
    policy.emplace(*recording, std::move(*prompts), catalogue, *ledger, options);
    session.progress << "optimize: LLM policy: " << llm->backend_name
                     << (llm->model.empty() ? "" : " " + llm->model) << ", prompts from "
                     << llm->prompts_dir.string() << ", every exchange kept in "
                     << exchanges.string() << "; " << llm->in_flight
                     << " requests in flight, so up to " << llm->in_flight
                     << " rollouts searched at once\n";
  }
  const OptimizeRun shared{.repo_root = repo.root,
                           .builds = &run.builds,
                           .harness = run.gpu->client.get(),
                           .compiler = &*compiler,
                           .kb = &*kb,
                           .catalogue = &catalogue,
                           .ceilings = *ceilings,
                           .profiler = &profiler,
                           .out_dir = r.settings.out_dir,
                           .seed = r.settings.search_seed,
                           .verification = r.verification_seeds,
                           .budget = r.settings.budget,
                           .source_only = r.settings.source_only,
                           .write_back = r.settings.write_back,
                           .llm = policy ? &*policy : nullptr,
                           .only_techniques = r.settings.only_techniques,
                           .lanes = policy ? std::max(1, r.settings.llm->in_flight) : 1};
  std::vector<double> clocks;
  const std::vector<KernelBuild>& kernels = run.builds.kernels;
  // The next kernel's search, made while this one's result is measured and written, with its
  // first children building: the compiler is idle then, and the GPU need not wait for them.
  std::unique_ptr<KernelOptimization> next;
  auto start_next = [&](std::size_t after, const std::string& now) {
    // With --apply, this kernel's result may rewrite a file the next one reads (axpy and
    // axpy_small share theirs): the next must read the repository after it, not before.
    if (shared.write_back == WriteBack::if_verified) return;
    for (std::size_t j = after + 1; j < kernels.size(); ++j) {
      if (!kernels[j].ok()) continue;
      auto prepared = KernelOptimization::prepare(kernels[j], shared, session.clock);
      if (!prepared) return;  // said when its turn comes
      const std::size_t asked = (*prepared)->build_first_children_ahead();
      session.progress << "optimize: building " << asked << " first child(ren) of "
                       << (*prepared)->kernel() << " while " << now << "'s result is measured\n";
      next = std::move(*prepared);
      return;
    }
  };
  for (std::size_t i = 0; i < kernels.size(); ++i) {
    const KernelBuild& b = kernels[i];
    if (!b.ok()) {
      session.progress << "optimize " << b.spec->name << ": skipped, the baseline does not build\n";
      r.kernels.push_back({b.spec->name, std::nullopt, "the baseline does not build"});
      continue;
    }
    session.progress << "optimize " << b.spec->name << ":\n";
    std::unique_ptr<KernelOptimization> current = std::move(next);
    if (!current || current->kernel() != b.spec->name) {
      auto prepared = KernelOptimization::prepare(b, shared, session.clock);
      if (!prepared) return prepared.error();
      current = std::move(*prepared);
    }
    auto written = current->run(session, [&] { start_next(i, b.spec->name); });
    if (!written) return written.error();
    if (const auto& ab = written->value("final_ab", nlohmann::json()); ab.is_object())
      clocks.push_back(ab.value("sm_mhz", 0.0));
    r.kernels.push_back({b.spec->name, std::move(*written), ""});
  }
  // What the references cost the search: each child is checked against outputs kept by seed.
  say_reference_work(session.progress, "optimize: ", run.gpu->client->reference_work());
  record_sm_clock(r.provenance, clocks);
  if (ledger) {
    const TokenTotals totals = ledger->run();
    nlohmann::json llm = to_json(totals);
    llm["backend"] = r.settings.llm->backend_name;
    llm["model"] = r.settings.llm->model;
    llm["exchanges"] = exchanges.string();
    r.llm = std::move(llm);
    session.progress << "optimize: LLM " << totals.calls << " calls, " << totals.usage.input
                     << " tokens in, " << totals.usage.output << " out\n";
  }
  return Ok{};
}

}  // namespace

Result<OptimizeResult> run_optimize(const LoadedRepo& repo, const BuildFlags& build,
                                    const VerifyFlags& verify, const Catalogue& catalogue,
                                    OptimizeSettings settings, Provenance provenance,
                                    Session& session) {
  OptimizeResult r;
  if (settings.search_seed == 0) settings.search_seed = draw_seed();
  if (settings.out_dir.empty()) settings.out_dir = repo.root / ".kblaster" / "optimize";
  if (settings.write_back == WriteBack::if_verified) settings.source_only = true;
  r.settings = std::move(settings);
  r.verification_seeds = verification_seeds(verify, r.settings.search_seed + 1000);
  r.provenance = std::move(provenance);
  r.provenance.seeds = {r.settings.search_seed};
  r.provenance.seeds.insert(r.provenance.seeds.end(), r.verification_seeds.begin(),
                            r.verification_seeds.end());
  auto run = start_gpu_run(repo, build, request_timeout(verify), r.provenance, session);
  if (!run) return run.error();
  if (!run->gpu) {
    r.skipped = "the search skipped: " + run->why_no_device;
    for (const KernelSpec* spec : repo.selected)
      r.kernels.push_back({spec->name, std::nullopt, "no CUDA device"});
  } else {
    KB_TRY(search_kernels(*run, repo, catalogue, r, session));
    r.builds = std::move(run->builds);
  }
  stamp_finished(r.provenance);
  return r;
}

nlohmann::json to_json(const OptimizeResult& r) {
  nlohmann::json kernels = nlohmann::json::array();
  for (const auto& k : r.kernels) {
    nlohmann::json j = k.result ? *k.result : nlohmann::json{{"kernel", k.kernel}};
    j["status"] = k.result ? "searched" : "skipped";
    if (!k.result) j["skip_reason"] = k.skip_reason;
    kernels.push_back(std::move(j));
  }
  const OptimizeSettings& s = r.settings;
  nlohmann::json j = result_envelope("optimize", kOptimizeSchemaVersion, r.provenance);
  j["search_seed"] = s.search_seed;
  j["verification_seeds"] = r.verification_seeds;
  j["budget"] = {{"breadth", s.budget.breadth},
                 {"depth", s.budget.depth},
                 {"max_seconds", s.budget.max_seconds},
                 {"patience", s.budget.patience},
                 {"min_gain", s.budget.min_gain}};
  j["kb"] = s.kb_file.string();
  j["out_dir"] = s.out_dir.string();
  j["source_only"] = s.source_only;
  j["apply"] = s.write_back == WriteBack::if_verified;
  j["kernels"] = kernels;
  if (r.llm) j["llm"] = *r.llm;
  add_builds(j, r.builds, r.skipped);
  return j;
}

ExitCode optimize_exit_code(const OptimizeResult& r) {
  if (!r.skipped.empty()) return ExitCode::missing_environment;
  for (const auto& k : r.kernels)
    if (!k.result) return ExitCode::found_problem;
  return ExitCode::ok;
}

}  // namespace kblaster
