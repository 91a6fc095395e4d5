#include "search/optimize_kernel.h"

#include "core/source_tree.h"
#include "eval/gpu_evaluator.h"
#include "search/search_loop.h"

namespace kblaster {

Result<nlohmann::json> optimize_kernel(const KernelBuild& baseline, const OptimizeRun& run,
                                       Session& session) {
  const KernelSpec& spec = *baseline.spec;
  const auto source = DirectoryTree(run.repo_root).read(spec.source);
  if (!source) return Error::io("cannot read " + (run.repo_root / spec.source).string());
  GpuEvaluatorSetup setup{.spec = &spec,
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
  GpuEvaluator evaluator(setup, *run.compiler, *run.harness, session.clock);
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
  const double start = session.clock.now_seconds();
  Candidate as_read;  // the search starts from the source as the repository holds it
  as_read.source = *source;
  auto result = run_search(as_read, spec, evaluator, *run.kb, *run.catalogue, search, session.clock,
                           session.progress);
  if (!result) return result.error();
  return write_optimize_result(spec, run.repo_root, *result, evaluator, run.ceilings,
                               session.clock.now_seconds() - start, run.out_dir, run.write_back,
                               session);
}

}  // namespace kblaster
