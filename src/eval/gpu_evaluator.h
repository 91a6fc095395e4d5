// The search's Evaluator on a real GPU: each candidate written as a tree beside
// the repository (hard links, its source replaced), built through the compile
// cache, verified in kblaster-harness against the kernel's reference at every
// size, timed against its parent (interleaved A/B), and profiled under ncu
// when ncu is there (timing only, and saying why, when it is not).
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "eval/build_step.h"
#include "eval/compare_step.h"
#include "eval/evaluator.h"
#include "eval/profile_report.h"
#include "eval/profiler.h"
#include "eval/session.h"
#include "gpu/build_pool.h"
#include "gpu/candidate_builder.h"
#include "gpu/compile_cache.h"
#include "gpu/compiler.h"
#include "profile/roofline.h"

namespace kblaster {

struct GpuEvaluatorSetup {
  const KernelSpec* spec = nullptr;
  std::filesystem::path repo_root;  // the kernel repository (read-only)
  std::filesystem::path work_dir;   // candidate trees go under work_dir/trees
  std::filesystem::path cache_dir;  // the shared compile cache
  std::string arch;                 // the run's arch, e.g. "sm_90"
  std::optional<ReferenceObject> reference;
  std::vector<std::uint64_t> seeds;
  CompareFlags compare;
  // The A/Bs' inputs: the n-th A/B times on timing_seed(timing_seeds, n), so a run given
  // the same seed times on the same inputs; 0 draws each fresh.
  std::uint64_t timing_seeds = 0;
  Profiler* profiler = nullptr;  // must outlive the evaluator; its "why none" means
                                 // states from timing only
  MeasuredCeilings ceilings;
  // Builds run ahead at once; 0: build_workers_for(the machine's hardware threads).
  unsigned build_workers = 0;
};

// How `candidate` is built from the tree at `tree`: its arch (else `run_arch`),
// -D tunables, launcher-argument tunables as -DKBLASTER_TUNE_<name> (the shim
// reads them), and its extra nvcc flags.
BuildRequest build_request_for(const Candidate& candidate, const std::string& run_arch,
                               const std::filesystem::path& tree);

// One stretch of time the GPU was busy, in seconds on a Clock.
struct BusySpan {
  double start_s = 0, end_s = 0;
  std::string what;
};

// What a search's result needs besides the search: a final A/B of two
// candidates, a candidate's full profile, and the GPU time spent.
class ResultProbe {
 public:
  virtual ~ResultProbe() = default;
  // An interleaved A/B of `a` against `b` at the timed size, both verified before.
  virtual Result<AbResult> compare(const Candidate& a, const Candidate& b) = 0;
  // Builds `child`, verifies it at every size and times it against `parent`, as a
  // search step does (Evaluator::evaluate): how a source form is checked.
  virtual Result<Evaluation> verify_and_time(const Candidate& parent, const Candidate& child) = 0;
  // The candidate's profile; nullopt with `why` set when there is none (no ncu).
  virtual Result<std::optional<ProfileReport>> profile(const Candidate& c, std::string& why) = 0;
  // Seconds the GPU was busy so far.
  virtual double gpu_seconds() const = 0;
  // When it was busy, and with what ("verify", "verify and A/B", "ncu", "A/B"): the raw
  // timeline behind gpu_seconds, on the evaluator's clock. Empty where none is kept.
  virtual std::vector<BusySpan> gpu_spans() const { return {}; }
  // When the search waited for a candidate's build (ahead in the background, or here), with
  // the candidate's fingerprint: what kept the GPU idle while it compiled. Empty where none is
  // kept.
  virtual std::vector<BusySpan> build_waits() const { return {}; }
  // The part of gpu_seconds spent under ncu. ncu's wall time counts as busy, though much
  // of it is ncu's own host work between replays, so a report shows it beside the idle
  // share, which it lowers.
  virtual double profile_seconds() const = 0;
};

class GpuEvaluator final : public Evaluator, public ResultProbe {
 public:
  // `compiler`, `harness` and `clock` must outlive the evaluator.
  GpuEvaluator(GpuEvaluatorSetup setup, Compiler& compiler, HarnessClient& harness, Clock& clock);

  Result<Evaluation> evaluate(const Candidate& parent, const Candidate& child) override;
  Result<PerfState> state_of(const Candidate& candidate) override;
  // Builds `likely_next` on background threads (BuildPool) while the GPU works.
  void prefetch(const std::vector<Candidate>& likely_next) override;
  // Builds `next` on a background thread, even when prefetched builds fill the queue.
  void build_ahead(const Candidate& next) override;
  // Whether `candidate`'s build has finished in the background (take() would not wait).
  bool built(const Candidate& candidate) const;
  // The candidate's full profile under ncu; nullopt (with `why` set) without one.
  // ncu runs once per candidate: later calls answer from that run.
  Result<std::optional<ProfileReport>> profile(const Candidate& candidate,
                                               std::string& why) override;
  // An A/B comparison of two candidates already evaluated (the baseline and the
  // best), for the result's speedup and its CI.
  Result<AbResult> compare(const Candidate& a, const Candidate& b) override;
  Result<Evaluation> verify_and_time(const Candidate& parent, const Candidate& child) override {
    return evaluate(parent, child);
  }

  // Seconds spent in harness and ncu calls (verifying, timing, profiling; their
  // host-side work included) and seconds the search waited for builds, for the
  // run's GPU idle share.
  double gpu_seconds() const override { return gpu_seconds_; }
  std::vector<BusySpan> gpu_spans() const override { return spans_; }
  std::vector<BusySpan> build_waits() const override { return build_waits_; }
  double profile_seconds() const override { return profile_seconds_; }
  double build_seconds() const { return build_seconds_; }

 private:
  Result<BuildResult> build(const Candidate& candidate);
  Result<std::optional<ProfileReport>> profile_once(const Candidate& candidate, std::string& why);
  Result<std::filesystem::path> write_tree(const Candidate& candidate);
  void start_build(const Candidate& candidate);  // on the pool; a tree that fails waits for build
  // setup_.compare with the next A/B's input seed.
  CompareFlags next_compare();
  void busy(double start, const char* what);  // counts and keeps the span from `start` to now
  // What outputs are checked against: the reference, else the parent (candidate 0).
  Against against() const { return setup_.reference ? Against{} : Against{0}; }

  GpuEvaluatorSetup setup_;
  CompileCache cache_;
  CandidateBuilder builder_;
  HarnessClient& harness_;
  Clock& clock_;
  Compiler& compiler_;
  BuildPool pool_;
  double gpu_seconds_ = 0.0, profile_seconds_ = 0.0, build_seconds_ = 0.0;
  std::vector<BusySpan> spans_;
  std::vector<BusySpan> build_waits_;                   // waits of 10 ms or more
  int compares_ = 0;                                    // A/Bs timed so far
  std::map<std::string, std::filesystem::path> trees_;  // fingerprint -> tree
  std::optional<std::vector<std::string>> repo_files_;  // the repository's files, listed once
  std::set<std::string> asked_by_build_ahead_;          // never dropped as a stale guess
  struct Profiled {
    std::optional<ProfileReport> report;
    std::string why;  // when there is no report
  };
  std::map<std::string, Profiled> profiles_;  // fingerprint -> its one ncu run
};

}  // namespace kblaster
