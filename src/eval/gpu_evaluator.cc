#include "eval/gpu_evaluator.h"

#include <cmath>
#include <thread>

#include "core/file_write.h"
#include "core/launch_plan.h"
#include "core/source_tree.h"
#include "eval/profile_report.h"
#include "eval/seed_source.h"
#include "eval/verify_sizes.h"
#include "profile/code_signature.h"

namespace kblaster {
namespace {

// A KernelBuild-like view for the profiler.
KernelBuild as_kernel_build(const KernelSpec* spec, const BuildResult& r) {
  return KernelBuild{spec, r, std::nullopt};
}

}  // namespace

BuildRequest build_request_for(const Candidate& c, const std::string& run_arch,
                               const std::filesystem::path& tree) {
  BuildRequest r;
  r.repo_root = tree;
  r.arch = c.arch.empty() ? run_arch : c.arch;
  r.macros = c.macros;
  for (const auto& [name, value] : c.launcher_args)
    r.macros["KBLASTER_TUNE_" + name] = std::to_string(value);
  r.extra_flags = c.extra_flags;
  r.source_defaults = c.source_defaults;
  return r;
}

GpuEvaluator::GpuEvaluator(GpuEvaluatorSetup setup, Compiler& compiler, HarnessClient& harness,
                           Clock& clock)
    : setup_(std::move(setup)),
      cache_(setup_.cache_dir),
      builder_(compiler, cache_, setup_.cache_dir / "shims"),
      harness_(harness),
      clock_(clock),
      compiler_(compiler),
      pool_(setup_.build_workers ? setup_.build_workers
                                 : build_workers_for(std::thread::hardware_concurrency())) {}

void GpuEvaluator::prefetch(const std::vector<Candidate>& likely_next) {
  // Guesses from an earlier step that no worker started give way to this step's: the search
  // has moved on, and a full queue would refuse the new ones. A child asked for by build_ahead
  // (a model's, under review) stays.
  std::set<std::string> keep = asked_by_build_ahead_;
  for (const Candidate& c : likely_next) keep.insert(c.fingerprint());
  pool_.drop_queued_except(keep);
  for (const Candidate& c : likely_next) {
    // Stay at most one round of builds ahead: more would queue compiles nobody takes. Builds
    // finished and not taken (guesses the search did not follow) hold no worker, so they do
    // not count.
    if (pool_.in_flight() >= 2 * pool_.workers()) return;
    start_build(c);
  }
}

bool GpuEvaluator::built(const Candidate& candidate) const {
  return pool_.ready(candidate.fingerprint());
}

void GpuEvaluator::busy(double start, const char* what) {
  const double end = clock_.now_seconds();
  gpu_seconds_ += end - start;
  spans_.push_back({start, end, what});
}

void GpuEvaluator::build_ahead(const Candidate& next) {
  asked_by_build_ahead_.insert(next.fingerprint());
  start_build(next);
}

void GpuEvaluator::start_build(const Candidate& c) {
  auto tree = write_tree(c);  // on this thread: trees_ is not shared
  if (!tree) return;          // the build proper will report it
  const BuildRequest request = build_request_for(c, setup_.arch, *tree);
  pool_.start(c.fingerprint(), [this, request]() {
    CandidateBuilder builder(compiler_, cache_, setup_.cache_dir / "shims");
    return builder.build(*setup_.spec, request);
  });
}

Result<std::filesystem::path> GpuEvaluator::write_tree(const Candidate& c) {
  const std::string key = c.fingerprint();
  if (auto it = trees_.find(key); it != trees_.end()) return it->second;
  const auto tree = setup_.work_dir / "trees" / key;
  std::error_code ec;
  std::filesystem::remove_all(tree, ec);
  // The repository does not change during a search: list it once, not per tree (every step
  // writes trees for its guesses on the search's thread, before the GPU starts).
  if (!repo_files_) repo_files_ = DirectoryTree(setup_.repo_root).list_files();
  // An output folder inside the repository must not be copied into every tree.
  const std::string own =
      std::filesystem::relative(setup_.work_dir, setup_.repo_root, ec).generic_string();
  const bool inside = !ec && !own.empty() && !own.starts_with("..");
  for (const auto& f : *repo_files_) {
    if (f == setup_.spec->source) continue;
    if (inside && (f == own || f.starts_with(own + "/"))) continue;
    const auto to = tree / f;
    std::filesystem::create_directories(to.parent_path(), ec);
    std::filesystem::create_hard_link(setup_.repo_root / f, to, ec);
    if (ec) std::filesystem::copy_file(setup_.repo_root / f, to, ec);
    if (ec) return write_failure(to, "link or copy " + f + " to", ec);
  }
  const auto source = tree / setup_.spec->source;
  KB_TRY(make_directories(source.parent_path()));
  KB_TRY(write_file(source, c.source));
  trees_[key] = tree;
  return tree;
}

Result<BuildResult> GpuEvaluator::build(const Candidate& c) {
  auto tree = write_tree(c);
  if (!tree) return tree.error();
  const double start = clock_.now_seconds();
  auto ahead = pool_.take(c.fingerprint());  // built in the background, or still building
  auto r = ahead ? std::move(*ahead)
                 : builder_.build(*setup_.spec, build_request_for(c, setup_.arch, *tree));
  const double end = clock_.now_seconds();
  build_seconds_ += end - start;
  if (end - start >= 0.01) build_waits_.push_back({start, end, c.fingerprint()});
  return r;
}

Result<Evaluation> GpuEvaluator::evaluate(const Candidate& parent, const Candidate& child) {
  Evaluation e;
  auto child_build = build(child);
  if (!child_build) return child_build.error();
  if (!child_build->ok()) {
    e.outcome = StepOutcome::compile_failure;
    e.detail = child_build->summary;
    return e;
  }
  auto parent_build = build(parent);
  if (!parent_build) return parent_build.error();
  if (!parent_build->ok())
    return Error::internal("the parent candidate no longer builds: " + parent_build->summary);

  const double start = clock_.now_seconds();
  // The child's object is new code: a harness that cannot load it (a bad static
  // initialiser, a missing symbol) is a finding about the child, not the end of the search.
  if (auto loaded = harness_.load({parent_build->object.string(), child_build->object.string()},
                                  setup_.reference);
      !loaded) {
    // Blame the child only if the parent alone still loads; else the harness or
    // the GPU is the problem, and the search must stop rather than learn from it.
    if (auto alone = harness_.load({parent_build->object.string()}, setup_.reference); !alone)
      return loaded.error();
    e.outcome = StepOutcome::verify_failure;
    e.detail = "the harness could not load it: " + loaded.error().message;
    return e;
  }
  auto sizes = verify_at_every_size(harness_, *setup_.spec, 1, setup_.seeds, against());
  if (!sizes) return sizes.error();
  if (const CheckVerdict* failed = first_failure(*sizes)) {
    busy(start, "verify");
    e.outcome = StepOutcome::verify_failure;
    e.detail = failed->reason + ": " + failed->message;
    return e;
  }
  auto plan = plan_kernel(*setup_.spec);
  if (!plan) return plan.error();
  KB_TRY(harness_.setup(harness_args(*setup_.spec, plan->sizes.front())));
  auto ab = compare_once(harness_, *setup_.spec, next_compare(), clock_, against());
  busy(start, "verify and A/B");
  if (!ab) return ab.error();
  if (!ab->rejected.empty()) {
    e.outcome = StepOutcome::verify_failure;
    e.detail = "rejected while timed: " + ab->rejected;
    return e;
  }
  const Comparison& c = ab->comparison;
  e.detail = c.reason;
  if (!(c.ratio > 0.0) || !std::isfinite(c.ratio)) {
    // Too few samples for a ratio (every pair throttled, say): no reward to learn from.
    e.outcome = StepOutcome::same;
    e.detail = "timing inconclusive, counted as no gain: " + c.reason;
    return e;
  }
  e.ratio = c.ratio, e.ci_low = c.ci_low, e.ci_high = c.ci_high;
  e.log_speedup = -std::log(c.ratio);
  e.outcome = c.verdict == Verdict::faster   ? StepOutcome::faster
              : c.verdict == Verdict::slower ? StepOutcome::slower
                                             : StepOutcome::same;
  return e;
}

Result<std::optional<ProfileReport>> GpuEvaluator::profile(const Candidate& c, std::string& why) {
  // A candidate profiles the same every time: the search's states of the baseline
  // and the best, and the result's profile delta, share one ncu run each.
  const std::string key = c.fingerprint();
  if (const auto it = profiles_.find(key); it != profiles_.end()) {
    why = it->second.why;
    return it->second.report;
  }
  auto report = profile_once(c, why);
  if (report) profiles_[key] = {*report, why};
  return report;
}

Result<std::optional<ProfileReport>> GpuEvaluator::profile_once(const Candidate& c,
                                                                std::string& why) {
  auto b = build(c);
  if (!b) return b.error();
  if (!b->ok()) return Error::internal("a candidate to profile does not build: " + b->summary);
  auto plan = plan_kernel(*setup_.spec);
  if (!plan) return plan.error();
  const SizePlan& size = plan->sizes.front();
  const auto csv = setup_.work_dir / "profiles" / (c.fingerprint() + ".csv");
  if (!setup_.profiler) return Error::internal("GpuEvaluator: no Profiler in its setup");
  auto tree = write_tree(c);
  if (!tree) return tree.error();
  const KernelBuild built = as_kernel_build(setup_.spec, *b);
  const double start = clock_.now_seconds();
  auto profiled = setup_.profiler->profile(
      {.build = built,
       .size = size,
       .signature = signature_of(*setup_.spec, *tree),
       .roofline = {double(size.min_bytes()), double(size.flops.value_or(0)), setup_.ceilings},
       .metrics = NcuMetrics::kblaster_list,
       .csv = csv,
       .seed = setup_.timing_seeds});
  profile_seconds_ += clock_.now_seconds() - start;
  busy(start, "ncu");
  if (!profiled) return profiled.error();
  why = profiled->why_none;
  return std::move(profiled->report);
}

Result<PerfState> GpuEvaluator::state_of(const Candidate& c) {
  std::string why;
  auto report = profile(c, why);
  if (!report) return report.error();
  if (*report) return (*report)->state;
  PerfState s;
  s.key = "latency.no_dominant_bottleneck";
  s.bottleneck = "latency";
  s.explanation = "no profile (" + why + "); the search uses this state's gains";
  return s;
}

CompareFlags GpuEvaluator::next_compare() {
  CompareFlags flags = setup_.compare;
  if (setup_.timing_seeds != 0) flags.seed = timing_seed(setup_.timing_seeds, compares_++);
  return flags;
}

Result<AbResult> GpuEvaluator::compare(const Candidate& a, const Candidate& b) {
  auto built_a = build(a);
  if (!built_a) return built_a.error();
  auto built_b = build(b);
  if (!built_b) return built_b.error();
  if (!built_a->ok() || !built_b->ok())
    return Error::internal("a compared candidate does not build");
  KB_TRY(harness_.load({built_a->object.string(), built_b->object.string()}, setup_.reference));
  auto plan = plan_kernel(*setup_.spec);
  if (!plan) return plan.error();
  KB_TRY(harness_.setup(harness_args(*setup_.spec, plan->sizes.front())));
  const double start = clock_.now_seconds();
  auto ab = compare_once(harness_, *setup_.spec, next_compare(), clock_, against());
  busy(start, "A/B");
  return ab;
}

}  // namespace kblaster
