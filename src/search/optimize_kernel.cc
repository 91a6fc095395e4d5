#include "search/optimize_kernel.h"

#include "core/source_tree.h"

namespace kblaster {
namespace {

GpuEvaluatorSetup evaluator_setup(const KernelBuild& baseline, const OptimizeRun& run) {
  const KernelSpec& spec = *baseline.spec;
  return {.spec = &spec,
          .repo_root = run.repo_root,
          .work_dir = run.out_dir / spec.name,
          .cache_dir = run.builds->cache_dir,
          .arch = run.builds->arch,
          .reference = reference_object(baseline),
          .seeds = run.verification,
          .compare = {},
          .timing_seeds = run.verification.empty() ? 0 : run.verification.front(),
          .profiler = run.profiler,
          .ceilings = run.ceilings};
}

SearchOptions search_options(const KernelSpec& spec, const OptimizeRun& run) {
  SearchOptions search;
  search.budget = run.budget;
  search.seed = run.seed;
  search.gpu = {run.builds->arch, has_arch_specific_variant(run.builds->arch)};
  search.task = spec.name;
  search.source_only = run.source_only;
  search.llm = run.llm;
  search.only_techniques = run.only_techniques;
  search.lanes = run.lanes;
  search.now_unix = unix_now();
  return search;
}

}  // namespace

KernelOptimization::KernelOptimization(const KernelBuild& baseline, const OptimizeRun& run,
                                       std::string source, Clock& clock)
    : baseline_(baseline),
      run_(run),
      search_(search_options(*baseline.spec, run)),
      evaluator_(evaluator_setup(baseline, run), *run.compiler, *run.harness, clock) {
  as_read_.source = std::move(source);
}

Result<std::unique_ptr<KernelOptimization>> KernelOptimization::prepare(const KernelBuild& baseline,
                                                                        const OptimizeRun& run,
                                                                        Clock& clock) {
  const KernelSpec& spec = *baseline.spec;
  auto source = DirectoryTree(run.repo_root).read(spec.source);
  if (!source) return Error::io("cannot read " + (run.repo_root / spec.source).string());
  return std::unique_ptr<KernelOptimization>(
      new KernelOptimization(baseline, run, std::move(*source), clock));
}

std::size_t KernelOptimization::build_first_children_ahead() {
  const auto children = first_children(as_read_, *baseline_.spec, search_);
  evaluator_.prefetch(children);
  return children.size();
}

Result<nlohmann::json> KernelOptimization::run(Session& session,
                                               const std::function<void()>& searched) {
  const double start = session.clock.now_seconds();
  auto result = run_search(as_read_, *baseline_.spec, evaluator_, *run_.kb, *run_.catalogue,
                           search_, session.clock, session.progress);
  if (!result) return result.error();
  if (searched) searched();
  return write_optimize_result(*baseline_.spec, run_.repo_root, *result, evaluator_, run_.ceilings,
                               session.clock.now_seconds() - start, run_.out_dir, run_.write_back,
                               session);
}

}  // namespace kblaster
