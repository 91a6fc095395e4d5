// The harness's state between requests: the device, the loaded objects, the
// workload of the current size, and the bench inputs' expected output. One
// method per protocol op (docs/harness-protocol.md); each throws HarnessFailure.
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "device_memory.h"
#include "launch_rig.h"
#include "loaded_object.h"
#include "output_check.h"
#include "python_reference.h"
#include "reference_memo.h"
#include "shared_reference_outputs.h"
#include "workload.h"

namespace kblaster::harness {

class Harness {
 public:
  // Two poisons: an element that holds the first after one launch and the second
  // after another was written by neither. Both are NaN or huge for every float
  // type (0xFF: NaN; 0x7F: NaN for f16, ~3.4e38 for f32/bf16, ~1.4e306 for f64),
  // so a poison left in place can never pass as a small expected value.
  static constexpr unsigned char kPoisonA = 0xFF;
  static constexpr unsigned char kPoisonB = 0x7F;

  // `shared`: where this harness finds and leaves reference outputs for the session's others.
  explicit Harness(SharedReferenceOutputs shared = {}) : shared_(std::move(shared)) {}

  nlohmann::json hello();
  nlohmann::json load(const nlohmann::json& request);
  nlohmann::json setup(const nlohmann::json& request);
  nlohmann::json verify(const nlohmann::json& request);
  nlohmann::json bench_prepare(const nlohmann::json& request);
  nlohmann::json sample(const nlohmann::json& request);
  // The loaded PyTorch reference's forward timed on the last bench inputs (`bench --baseline
  // torch`): {mode, count} -> {samples, runtime}.
  nlohmann::json baseline_sample(const nlohmann::json& request);
  nlohmann::json recheck(const nlohmann::json& request);
  // The first guard damage candidate `candidate`'s launches did since `bench_prepare`: {verdict}
  // (out_of_bounds_write) or {verdict: null}. Asked before a CUDA context is left, whose
  // harness takes what it saw with it.
  nlohmann::json guard_damage(const nlohmann::json& request);
  nlohmann::json peak_bandwidth();
  nlohmann::json peak_fp32();
  nlohmann::json profile(const nlohmann::json& request);
  nlohmann::json peak_tensor();

  // Set once a launch faulted: the CUDA context is unusable and every later
  // request fails with this message, so the parent starts a new harness.
  const std::string& sticky_error() const { return sticky_error_; }

 private:
  enum class ReferenceKind { cpu, gpu, python };
  struct Reference {
    ReferenceKind kind;
    std::optional<LoadedObject> object;       // cpu and gpu
    std::unique_ptr<PythonReference> python;  // python
  };

  Workload& workload();
  // Fills each buffer of `workload` whose init is a module's state with that tensor, asked of the
  // loaded PyTorch reference's worker. Throws HarnessFailure without one, or as the worker fails.
  void set_module_state(Workload& workload);
  EntryFn candidate(const nlohmann::json& index) const;
  // The outputs checked against for inputs from `seed` (filled already): the reference's, from
  // the memo when this reference, workload and seed ran before in this harness, or from the
  // session's shared files when they ran in an earlier one; or candidate `against`'s.
  OutputSnapshot expected_outputs(const nlohmann::json& against, std::uint64_t seed);
  // The outputs of the reference, or of candidate `against`, run now.
  OutputSnapshot outputs_of(const nlohmann::json& against);
  // Launches `fn` as the reference (`what` names it in messages) and reads its outputs. Throws
  // ReferenceFailure when it fails or faults: with `cause` when nothing else could have done it,
  // else with kCauseFreshContext: a candidate has launched in this CUDA context, or more are
  // loaded than `loaded_as_reference` (1 when `fn` is a loaded candidate used as the reference).
  // A failure of the harness's own CUDA calls, with no fault, stays a HarnessFailure.
  OutputSnapshot reference_launch(EntryFn fn, void** args, const std::string& what,
                                  const char* cause, std::size_t loaded_as_reference);
  // The reference's work since the last call, as answered: {seconds, runs, reused, shared}
  // (`shared`: how many of the reused came from an earlier harness of the session).
  nlohmann::json take_reference_stats();
  // `synchronizes`: in, whether an earlier seed showed the launcher waits for the GPU (it is then
  // checked unheld); out, whether it does.
  Verdict verify_seed(EntryFn entry, std::uint64_t seed, const nlohmann::json& against,
                      const Tolerance& tolerance, OutputSnapshot& previous, bool& synchronizes);
  LaunchTiming launch(EntryFn entry, void** args, unsigned char poison,
                      const std::function<void()>& while_held = {}, Hold hold = Hold::yes,
                      int calls = 1);
  // Checks the guards after a launch of candidate `c` while timing; records the
  // first damage for its recheck (the check re-arms them, so blame stays with c).
  void note_guard_damage(std::size_t c);
  // `sample` with `unheld`: wall time of a launcher call and a device synchronize.
  nlohmann::json sample_unheld(const nlohmann::json& request);
  std::vector<const ArgDesc*> outputs() const;
  std::vector<const ArgDesc*> plain_inputs() const;

  std::size_t l2_bytes_ = 0;
  std::unique_ptr<LaunchRig> rig_;
  std::vector<LoadedObject> candidates_;
  std::optional<Reference> reference_;
  std::string reference_key_, workload_key_;  // what the memo's keys are made of
  ReferenceMemo memo_{reference_memo_budget()};
  SharedReferenceOutputs shared_;
  double reference_seconds_ = 0.0;
  int reference_runs_ = 0, reference_reused_ = 0, reference_shared_ = 0;
  std::unique_ptr<Workload> workload_;
  std::optional<OutputSnapshot> bench_expected_;  // unset after `expected: false`
  bool bench_prepared_ = false;                   // bench inputs are in place
  bool baseline_inputs_sent_ = false;             // the bench inputs reached the Python worker
  // Per candidate: a device copy of its outputs after its last timed launch.
  std::vector<std::vector<DeviceBuffer>> last_timed_;
  std::vector<bool> has_last_timed_;
  // Per candidate: the first out_of_bounds_write of its launches since
  // `bench_prepare`, which `recheck` reports before comparing outputs.
  std::vector<std::optional<Verdict>> timed_guard_damage_;
  // Per candidate: whether it has run unheld since the last `load` or `setup`.
  // A first call may load modules or allocate (synchronising the device), which
  // must not happen while the stream is held and timed.
  std::vector<bool> warmed_;
  std::string sticky_error_;
  bool candidates_launched_ = false;  // a candidate has launched in this CUDA context (not as
                                      // the reference)
  bool reference_launching_ = false;  // launch() is running the reference, not a candidate
};

}  // namespace kblaster::harness
