// Harness's timing ops: fresh bench inputs, interleaved samples, and the
// re-verification after timing (with the guards each timed launch was checked by).
#include <chrono>

#include "cuda_check.h"
#include "harness.h"

namespace kblaster::harness {

nlohmann::json Harness::bench_prepare(const nlohmann::json& request) {
  take_reference_stats();  // what a request that threw left behind is not this one's
  Workload& w = workload();
  const auto seed = request.at("seed").get<std::uint64_t>();
  w.fill_inputs(seed, rig_->stream());
  // `expected: false` (a CUDA context whose timings are not rechecked) skips the reference.
  bench_expected_.reset();
  if (request.value("expected", true))
    bench_expected_ = expected_outputs(request.value("against", nlohmann::json("reference")), seed);
  bench_prepared_ = true;
  baseline_inputs_sent_ = false;
  last_timed_.clear();
  for (std::size_t i = 0; i < candidates_.size(); ++i)
    last_timed_.push_back(w.allocate_output_copies());
  has_last_timed_.assign(candidates_.size(), false);
  timed_guard_damage_.assign(candidates_.size(), std::nullopt);
  return {{"reference", take_reference_stats()}};
}

nlohmann::json Harness::baseline_sample(const nlohmann::json& request) {
  if (!reference_ || reference_->kind != ReferenceKind::python)
    throw HarnessFailure("`baseline_sample` needs a loaded PyTorch reference");
  if (!bench_prepared_) throw HarnessFailure("send `bench_prepare` before `baseline_sample`");
  const int count = request.value("count", 1);
  if (count < 1 || count > 10000)
    throw HarnessFailure("`baseline_sample`'s count must be 1 to 10000");
  Workload& w = workload();
  std::vector<PythonReference::Tensor> inputs;
  if (!baseline_inputs_sent_) {
    w.prepare_cpu_reference();
    inputs = w.python_reference_inputs();
  }
  auto samples = reference_->python->time(baseline_inputs_sent_ ? nullptr : &inputs,
                                          request.at("mode").get<std::string>(), count, l2_bytes_);
  baseline_inputs_sent_ = true;
  return {{"samples", samples}, {"runtime", reference_->python->runtime()}};
}

// The most launcher calls one hot sample queues behind the hold: well under the device's queue
// of pending launches, which a launcher of several kernels fills faster.
constexpr int kMaxCallsPerSample = 256;

nlohmann::json Harness::sample(const nlohmann::json& request) {
  Workload& w = workload();
  if (!bench_prepared_) throw HarnessFailure("send `bench_prepare` before `sample`");
  const int calls = request.value("calls", 1);
  if (request.value("unheld", false)) return sample_unheld(request);
  if (calls < 1 || calls > kMaxCallsPerSample)
    throw HarnessFailure("`sample`'s calls must be 1 to " + std::to_string(kMaxCallsPerSample));
  nlohmann::json samples = nlohmann::json::array();
  for (const auto& index : request.at("order")) {
    EntryFn entry = candidate(index);
    const auto c = index.get<std::size_t>();
    if (!warmed_.at(c)) {
      // Untimed and unheld: the first call at this size may load modules or allocate.
      const LaunchTiming w0 = launch(entry, w.candidate_args(), kPoisonA, {}, Hold::no);
      if (w0.entry_status != 0)
        throw HarnessFailure("candidate " + index.dump() + " failed in its warm-up launch: " +
                             cudaGetErrorName(static_cast<cudaError_t>(w0.entry_status)));
      warmed_.at(c) = true;
      note_guard_damage(c);
    }
    // Outputs are poisoned before every sample (alternating poisons, outside
    // the timed interval), and a copy of each candidate's outputs after its
    // last single-call sample is kept for `recheck`: a candidate that skips its work while
    // timed leaves poison there. A hot batch's outputs are not kept: an inout argument
    // carries over between its calls, so they are not one call's function of the inputs.
    const unsigned char poison = samples.size() % 2 == 0 ? kPoisonA : kPoisonB;
    LaunchTiming t = launch(entry, w.candidate_args(), poison, {}, Hold::yes, calls);
    if (t.hold_expired || t.entry_status != 0)
      throw HarnessFailure("candidate " + index.dump() + " failed while timing: " +
                           (t.hold_expired
                                ? std::string("the launcher waited for the GPU")
                                : cudaGetErrorName(static_cast<cudaError_t>(t.entry_status))));
    if (calls == 1) {
      w.copy_outputs(last_timed_.at(c), rig_->stream());
      has_last_timed_.at(c) = true;
    }
    note_guard_damage(c);  // after the stop event and the sync: no sample pays for it
    samples.push_back({{"candidate", index}, {"gpu_s", t.gpu_seconds}, {"sm_mhz", t.sm_mhz}});
  }
  return {{"samples", samples}};
}

// A launcher that waits for the GPU cannot be timed behind a held stream: each sample is the
// wall time of one launcher call followed by a device synchronize, after the same L2 flush and
// output poison, so every stream's work is inside it, and so is the launcher's own host time.
nlohmann::json Harness::sample_unheld(const nlohmann::json& request) {
  Workload& w = workload();
  nlohmann::json samples = nlohmann::json::array();
  for (const auto& index : request.at("order")) {
    EntryFn entry = candidate(index);
    const auto c = index.get<std::size_t>();
    const unsigned char poison = samples.size() % 2 == 0 ? kPoisonA : kPoisonB;
    w.restore_inputs(rig_->stream());
    w.poison_outputs(poison, rig_->stream());
    rig_->flush_l2();
    KBH_CUDA(cudaDeviceSynchronize());
    candidates_launched_ = true;  // not through launch(), which notes it for the others
    const auto start = std::chrono::steady_clock::now();
    const int status = entry(w.candidate_args(), rig_->stream());
    const cudaError_t synced = cudaDeviceSynchronize();
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (status != 0 || synced != cudaSuccess)
      throw HarnessFailure(
          "candidate " + index.dump() + " failed while timed unheld: " +
          cudaGetErrorName(static_cast<cudaError_t>(status != 0 ? status : synced)));
    w.copy_outputs(last_timed_.at(c), rig_->stream());
    has_last_timed_.at(c) = true;
    note_guard_damage(c);
    samples.push_back({{"candidate", index}, {"gpu_s", seconds}, {"sm_mhz", 0.0}});
  }
  return {{"samples", samples}};
}

void Harness::note_guard_damage(std::size_t c) {
  Verdict v = workload().check_guards(rig_->stream());
  if (!v.passed && !timed_guard_damage_.at(c)) timed_guard_damage_.at(c) = std::move(v);
}

nlohmann::json Harness::guard_damage(const nlohmann::json& request) {
  if (!bench_prepared_) throw HarnessFailure("send `bench_prepare` before `guard_damage`");
  const auto c = request.at("candidate").get<std::size_t>();
  candidate(request.at("candidate"));  // checks the index
  if (timed_guard_damage_.at(c)) return {{"verdict", timed_guard_damage_.at(c)->to_json()}};
  return {{"verdict", nullptr}};
}

nlohmann::json Harness::recheck(const nlohmann::json& request) {
  if (!bench_prepared_) throw HarnessFailure("send `bench_prepare` before `recheck`");
  const auto c = request.at("candidate").get<std::size_t>();
  candidate(request.at("candidate"));  // checks the index
  if (!has_last_timed_.at(c))
    throw HarnessFailure("candidate " + std::to_string(c) +
                         " has no single-call timed launch to recheck");
  if (timed_guard_damage_.at(c)) return {{"verdict", timed_guard_damage_.at(c)->to_json()}};
  if (!bench_expected_)
    throw HarnessFailure(
        "the last `bench_prepare` said `expected: false`, so there is nothing "
        "to recheck against");
  const OutputSnapshot last = Workload::read_copies(last_timed_.at(c), rig_->stream());
  const Verdict v =
      compare_outputs(outputs(), last, *bench_expected_, parse_tolerance(request.at("tolerance")));
  return {{"verdict", v.to_json()}};
}

}  // namespace kblaster::harness
