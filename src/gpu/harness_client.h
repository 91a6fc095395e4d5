// Typed calls of docs/harness-protocol.md over a HarnessRunner: what verify,
// bench and compare need, with the harness's answers as plain structs.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/kernel_spec.h"
#include "core/launch_plan.h"
#include "core/status.h"
#include "gpu/harness_session.h"
#include "gpu/verdict_reason.h"

namespace kblaster {

struct HarnessDevice {
  std::string name;
  std::string cc;  // "9.0"
  int sm_count = 0;
  std::int64_t l2_bytes = 0;
  std::int64_t memory_bytes = 0;
};

// A harness verdict (docs/harness-protocol.md); reason "timeout" when the
// launch never finished and the harness was killed, "crashed" when the
// candidate took the harness down with it.
struct CheckVerdict {
  bool passed = false;
  std::string reason;
  std::string message;
  nlohmann::json detail;

  // The reason as an enum; VerdictReason::unknown for a name the protocol does not have.
  VerdictReason why() const { return parse_verdict_reason(reason); }

  // detail[key] if it is a number, else `fallback` (JSON carries NaN and Inf as null).
  double number(const char* key, double fallback = 0.0) const {
    if (!detail.is_object() || !detail.contains(key) || !detail[key].is_number()) return fallback;
    return detail[key].get<double>();
  }
};

// True for the verdicts HarnessClient makes when a request ended the harness
// ("timeout", "crashed", "bad_response"): nothing was checked, and the harness is gone.
inline bool ended_the_harness(const CheckVerdict& v) { return ends_the_harness(v.why()); }

struct TimingSample {
  int candidate = 0;
  double gpu_seconds = 0.0;
  double sm_mhz = 0.0;
};

// The reference the harness loads beside the candidates.
// The reference a harness loads: a built object (cpu, gpu), or a staged PyTorch module (python:
// `object` is the .py file, `class_name` its module class) that the harness's Python worker runs.
struct ReferenceObject {
  enum class Kind { cpu, gpu, python } kind = Kind::cpu;
  std::string object;
  std::string class_name;  // python only
  bool train = false;      // python only: forward in training mode
};

// Against what a candidate's output is checked: the loaded reference, or the
// output of another loaded candidate (the base revision).
struct Against {
  std::optional<int> candidate;  // nullopt = the reference
};

// The `args` of a setup request for `spec` at `size`; `tunable` overrides the
// launcher-argument tunables' defaults.
nlohmann::json harness_args(const KernelSpec& spec, const SizePlan& size,
                            const std::map<std::string, std::int64_t>& tunable = {});

// The work a client's harnesses spent in the reference: each seed's reference runs once per
// session (reference, workload and seed), and is reused after: from the harness's memory, or,
// in a later harness of the session (another CUDA context, a restart), from the session's files.
struct ReferenceWork {
  double seconds = 0.0;  // in the reference's runs
  int runs = 0;          // the reference run for a seed
  int reused = 0;        // its outputs reused instead
  int shared = 0;        // of `reused`, those an earlier harness of the session left in its files
};

// The work done between two readings of a client's ReferenceWork.
ReferenceWork operator-(const ReferenceWork& after, const ReferenceWork& before);

// Whether a sample request failed because a launcher waited for the GPU while its stream was held
// (a workspace's cudaMalloc/cudaFree, a device sync): such a launcher is timed unheld instead.
bool launcher_waited_for_the_gpu(const Error& error);

struct HarnessTimeouts {
  double control_s = 60.0;  // hello, load, setup, peak bandwidth
  double launch_s = 60.0;   // verify, bench_prepare, sample, recheck (per request)
  // baseline_sample: its first request of a mode imports torch and, under torch.compile,
  // compiles the module, which takes minutes for some (the harness's sandbox caps any request
  // at 600 s).
  double baseline_s = 600.0;
};

// Samples of a PyTorch reference's forward, and what ran it ("torch 2.5.1 on cuda").
struct BaselineSamples {
  std::vector<double> seconds;
  std::string runtime;
};

class HarnessClient {
 public:
  // `runner` must outlive the client.
  explicit HarnessClient(HarnessRunner& runner, HarnessTimeouts timeouts = HarnessTimeouts())
      : runner_(runner), timeouts_(timeouts) {}

  Result<HarnessDevice> hello();
  Status load(const std::vector<std::string>& candidates,
              const std::optional<ReferenceObject>& reference);
  Status setup(const nlohmann::json& args);
  // True while the harness holds the last load and any setup after it; false
  // before any load, after a load or setup that failed, and once a timeout, crash,
  // garbled answer or restart ended the harness that held them, since the next call
  // reaches a fresh, empty one. A harness that dies between requests is noticed
  // only by the next request.
  bool holds_load() const;
  // Sends the last load, and the last setup after it, again when !holds_load(), so
  // a step can go on after a candidate brought the harness down. Does nothing while
  // the harness holds them, or before any load.
  Status restore_if_lost();
  // Ends the harness and starts a fresh one holding the last load and setup: the same objects
  // in a new CUDA context (and a new process). Inputs must be prepared again.
  Status fresh_context();
  // A launch that never finishes, kills the harness or garbles its answer is a
  // CheckVerdict (reason "timeout", "crashed" or "bad_response"), not an Error; the
  // next call starts a new harness. A reference that fails beside candidates (loaded, or run in
  // its CUDA context) is run alone in a process of its own: failing there it is an Error with the
  // reference's cause (config, or HarnessFailure::base_failed for check's base); passing, the
  // candidate is verified again in a fresh context, and a reference that fails beside it again
  // is its launch_error.
  Result<CheckVerdict> verify(int candidate, const std::vector<std::uint64_t>& seeds,
                              const Tolerance& tolerance, const Against& against);
  // Fresh bench inputs from `seed`, and (with `expected`) the outputs a recheck compares
  // against, from the reference or candidate `against`. Without `expected` the reference does
  // not run, and recheck is refused until the next bench_prepare with it. A reference that
  // fails beside candidates is run alone (failing there, an Error with its cause), then tried
  // once more in a fresh context.
  Status bench_prepare(std::uint64_t seed, const Against& against, bool expected = true);
  // One sample per entry of `order`; with `calls` > 1 each is a hot batch of that many
  // launcher calls, its time per call (docs/harness-protocol.md); `unheld`, the wall time of one
  // call and a device synchronize, for a launcher that waits for the GPU. A failure restarts the
  // harness (a candidate that fails while timed may have left its CUDA context unusable).
  Result<std::vector<TimingSample>> sample(const std::vector<int>& order, int calls = 1,
                                           bool unheld = false);
  // The output of the last timed launch checked again; like verify, a timeout or
  // crash is a CheckVerdict, and the next call starts a new harness.
  Result<CheckVerdict> recheck(int candidate, const Tolerance& tolerance);
  // The first out_of_bounds_write of `candidate`'s launches since bench_prepare, or nullopt:
  // asked before fresh_context, which ends the harness that saw it.
  Result<std::optional<CheckVerdict>> guard_damage(int candidate);
  // `count` timings of the loaded PyTorch reference's forward in `mode` ("eager", "compile") on
  // the last bench_prepare's inputs, each after an L2 flush, between CUDA events, held while
  // queued (docs/harness-protocol.md, "PyTorch references"). An Error when
  // no PyTorch reference is loaded, or its worker fails (the message says why).
  Result<BaselineSamples> baseline_sample(const std::string& mode, int count);
  Result<double> peak_bandwidth();  // bytes per second
  Result<double> peak_fp32();       // FP32 FLOP per second (FMA = 2)
  Result<double> peak_tensor();     // bf16 tensor-core FLOP per second (wmma, FP32 accumulate)
  // One untimed launch of `candidate` on inputs from `seed`, inside the NVTX
  // range "kblaster" (after an unprofiled warm-up); its event time in seconds.
  Result<double> profile(int candidate, std::uint64_t seed);
  // The reference's work over every verify and bench_prepare so far.
  const ReferenceWork& reference_work() const { return reference_work_; }
  // How the last request to the harness failed (HarnessFailure::none after one that did not).
  HarnessFailure last_failure() const { return runner_.last_failure(); }

 private:
  void note_reference_work(const nlohmann::json& answer);
  Result<nlohmann::json> call(nlohmann::json request, double timeout_s);
  // Ends the harness (its CUDA context may be unusable); the next call starts a fresh one.
  void restart();
  // Sends a load request and records it as the one restore_if_lost() replays.
  Status send_load(const nlohmann::json& request);
  // The verdict for a request that ended the harness (timed out, crashed, garbled
  // its answer); `error` otherwise.
  enum class Request { launch, recheck };  // what the failed request was doing
  Result<CheckVerdict> failure_verdict(const Error& error, Request request) const;
  // Runs the reference (or candidate `against`, loaded alone) on each seed in a harness holding
  // nothing else, so a failure there is its own: an Error with its cause. Leaves the harness
  // ended, and the whole last load and setup to be restored by the next restore_if_lost.
  Status run_reference_alone(const std::vector<std::uint64_t>& seeds, const Against& against);
  HarnessRunner& runner_;
  HarnessTimeouts timeouts_;
  std::uint64_t loaded_generation_ = 0;    // the harness that holds last_load_; 0 = none
  nlohmann::json last_load_, last_setup_;  // the requests restore_if_lost() sends again
  ReferenceWork reference_work_;
};

}  // namespace kblaster
