// Harness::verify: every check of DESIGN.md's verification list that runs on
// the GPU, for each seed at the current size (the parent loops over sizes).
#include <chrono>
#include <thread>

#include "cuda_check.h"
#include "harness.h"

namespace kblaster::harness {
namespace {

Verdict launch_failure(const LaunchTiming& t) {
  if (t.hold_expired)
    return Verdict::failure("launcher_synchronizes",
                            "the launcher waited for the GPU (cudaDeviceSynchronize, a synchronous "
                            "copy, a sync on its stream, or cudaMalloc/cudaFree of a workspace, "
                            "which synchronize the device) while kblaster held the stream; "
                            "launchers must only enqueue work: allocate a workspace with the "
                            "stream-ordered cudaMallocAsync/cudaFreeAsync on the launcher's "
                            "stream");
  if (t.entry_status != 0)
    return Verdict::failure("launch_error",
                            std::string("kblaster_entry returned ") +
                                cudaGetErrorName(static_cast<cudaError_t>(t.entry_status)));
  return {};
}

}  // namespace

Verdict Harness::verify_seed(EntryFn entry, std::uint64_t seed, const nlohmann::json& against,
                             const Tolerance& tolerance, OutputSnapshot& previous,
                             bool& synchronizes) {
  Workload& w = workload();
  w.fill_inputs(seed, rig_->stream());
  const OutputSnapshot expected = expected_outputs(against, seed);
  const OutputSnapshot uploaded = w.host_inputs();
  const OutputSnapshot untouched = w.initial_outputs(kPoisonA);

  // A warm-up launch, not held: a candidate's first calls may load its modules,
  // which synchronises the device and would wait for a held stream.
  if (Verdict v = launch_failure(launch(entry, w.candidate_args(), kPoisonA, {}, Hold::no));
      !v.passed)
    return v;
  if (Verdict v = w.check_guards(rig_->stream()); !v.passed) return v;

  // Launch 1, held. While S is held nothing may touch the outputs; and a copy
  // of the outputs queued on S after the launcher's work must equal the outputs
  // once the whole device is idle. Either difference means work outside S
  // (launched on another stream, or made to wait on an event recorded on S).
  // A launcher an earlier seed showed to wait for the GPU is not held again: each held try waits
  // out the hold's whole time limit.
  bool escaped = false;
  std::vector<DeviceBuffer> on_stream = w.allocate_output_copies();
  LaunchTiming first;
  if (!synchronizes) {
    first = launch(entry, w.candidate_args(), kPoisonA, [&] {
      w.copy_outputs(on_stream, rig_->stream());
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
      escaped = w.read_outputs(rig_->side()) != untouched;
    });
    KBH_CUDA(cudaDeviceSynchronize());  // also waits for work that escaped the stream
    synchronizes = first.hold_expired;
  }
  if (synchronizes) {
    // The launcher waited for the GPU (a workspace's cudaMalloc/cudaFree, say). Its results do
    // not depend on that, so it is checked unheld, without the check of work outside its stream
    // that needs the hold; bench times it by a method that allows it (`sample` unheld).
    first = launch(entry, w.candidate_args(), kPoisonA, {}, Hold::no);
    KBH_CUDA(cudaDeviceSynchronize());
    if (first.entry_status != 0) return launch_failure(first);
  }
  const OutputSnapshot after_first = w.read_outputs(rig_->stream());
  if (!synchronizes && (escaped || Workload::read_copies(on_stream, rig_->stream()) != after_first))
    return Verdict::failure(
        "work_outside_stream",
        "the outputs changed while kblaster held the launch stream, or after the work on that "
        "stream had finished: the launcher ran work on a stream of its own, which events on its "
        "stream cannot time");
  if (Verdict v = launch_failure(first); !v.passed) return v;
  if (Verdict v = w.check_guards(rig_->stream()); !v.passed) return v;
  if (Verdict v = find_mutated(plain_inputs(), uploaded, w.read_inputs(rig_->stream())); !v.passed)
    return v;

  // Launch 2, other poison: what kept both poisons was never written.
  LaunchTiming second =
      launch(entry, w.candidate_args(), kPoisonB, {}, synchronizes ? Hold::no : Hold::yes);
  KBH_CUDA(cudaDeviceSynchronize());
  if (Verdict v = launch_failure(second); !v.passed) return v;
  if (Verdict v = w.check_guards(rig_->stream()); !v.passed) return v;
  const OutputSnapshot after_second = w.read_outputs(rig_->stream());
  if (Verdict v = find_mutated(plain_inputs(), uploaded, w.read_inputs(rig_->stream())); !v.passed)
    return v;
  if (Verdict v = find_unwritten(outputs(), after_first, after_second, kPoisonA, kPoisonB);
      !v.passed)
    return v;

  // Both launches must be right: a candidate may not compute only on some calls.
  Verdict v = compare_outputs(outputs(), after_first, expected, tolerance);
  if (v.passed) v = compare_outputs(outputs(), after_second, expected, tolerance);
  if (!v.passed && !previous.empty() && (after_first == previous || after_second == previous))
    v = Verdict::failure("output_cached",
                         "the output equals, byte for byte, the output of the previous launch on "
                         "other inputs: the candidate returns a cached result (" +
                             v.message + ")",
                         v.detail);
  previous = after_second;
  if (v.passed && synchronizes) v.detail["synchronizes"] = true;
  return v;
}

nlohmann::json Harness::verify(const nlohmann::json& request) {
  take_reference_stats();  // what a request that threw left behind is not this one's
  EntryFn entry = candidate(request.at("candidate"));
  const Tolerance tolerance = parse_tolerance(request.at("tolerance"));
  const nlohmann::json against = request.value("against", nlohmann::json("reference"));
  OutputSnapshot previous;
  bool synchronizes = false;
  double max_abs = 0.0;
  nlohmann::json max_rel = nullptr;  // stays null while no seed had a relative error
  if (request.at("seeds").empty()) throw HarnessFailure("verify: no seeds given");
  for (const auto& s : request.at("seeds")) {
    const auto seed = s.get<std::uint64_t>();
    Verdict v;
    try {
      v = verify_seed(entry, seed, against, tolerance, previous, synchronizes);
    } catch (const ReferenceFailure&) {
      throw;  // not the candidate's: the answer says whose
    } catch (const HarnessFailure& failure) {
      if (sticky_error_.empty()) throw;
      v = Verdict::failure("launch_error", std::string("the launch faulted: ") + failure.what(),
                           {{"context_lost", true}});
    }
    v.detail["seed"] = seed;
    if (!v.passed) return {{"verdict", v.to_json()}, {"reference", take_reference_stats()}};
    max_abs = std::max(max_abs, v.detail.value("max_abs_error", 0.0));
    const nlohmann::json& rel = v.detail["max_rel_error"];
    if (rel.is_number() && (max_rel.is_null() || rel.get<double>() > max_rel.get<double>()))
      max_rel = rel;
  }
  Verdict ok;
  ok.detail = {
      {"max_abs_error", max_abs}, {"max_rel_error", max_rel}, {"seeds", request.at("seeds")}};
  if (synchronizes) {
    ok.detail["synchronizes"] = true;
    ok.detail["unchecked"] =
        "work outside the launch stream: the launcher waits for the GPU, so the stream cannot be "
        "held; it is timed unheld, by wall time with the device synchronized";
  }
  return {{"verdict", ok.to_json()}, {"reference", take_reference_stats()}};
}

}  // namespace kblaster::harness
