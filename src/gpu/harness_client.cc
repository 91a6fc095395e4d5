#include "gpu/harness_client.h"

namespace kblaster {
namespace {

nlohmann::json against_json(const Against& against) {
  if (against.candidate) return {{"candidate", *against.candidate}};
  return "reference";
}

nlohmann::json tolerance_json(const Tolerance& t) { return {{"rtol", t.rtol}, {"atol", t.atol}}; }

CheckVerdict parse_verdict(const nlohmann::json& j) {
  return {j.at("passed").get<bool>(), j.value("reason", "unknown"), j.value("message", ""),
          j.value("detail", nlohmann::json::object())};
}

const char* init_kind(InitDist::Kind k) {
  switch (k) {
    case InitDist::Kind::normal:
      return "normal";
    case InitDist::Kind::uniform:
      return "uniform";
    case InitDist::Kind::randint:
      return "randint";
    case InitDist::Kind::generator:
      return "generator";
    case InitDist::Kind::state:
      return "state";
  }
  return "normal";
}

// Runs `parse` over an answer; an answer without the fields it needs, or with
// fields of the wrong type, is an Error naming the op (json throws; we do not).
template <class Parse>
auto parsed(const char* op, const nlohmann::json& answer, Parse parse)
    -> Result<decltype(parse(answer))> {
  try {
    return parse(answer);
  } catch (const nlohmann::json::exception& e) {
    return Error::io(std::string("kblaster-harness answered `") + op +
                     "` without the fields it must have: " + e.what());
  }
}

}  // namespace

nlohmann::json harness_args(const KernelSpec& spec, const SizePlan& size,
                            const std::map<std::string, std::int64_t>& tunable) {
  nlohmann::json args = nlohmann::json::array();
  std::size_t buffer = 0;
  for (const auto& a : spec.args) {
    // A module's own state is not one of forward's arguments: the module holds it.
    const bool state = a.is_buffer() && a.init.kind == InitDist::Kind::state;
    nlohmann::json j = {{"name", a.name},
                        {"type", dtype_name(a.type)},
                        {"to_reference", a.tunable.empty() && !state}};
    if (a.is_buffer()) {
      j["role"] = role_name(a.role);
      const BufferPlan& b = size.buffers.at(buffer++);
      j["elements"] = b.elements;
      if (!b.dims.empty()) j["dims"] = b.dims;
      j["init"] = a.init.kind == InitDist::Kind::generator ? nlohmann::json{{"kind", "generator"}}
                  : state ? nlohmann::json{{"kind", "state"}, {"name", a.init.state}}
                          : nlohmann::json{
                                {"kind", init_kind(a.init.kind)}, {"a", a.init.a}, {"b", a.init.b}};
      if (a.reference_type) j["reference_type"] = dtype_name(*a.reference_type);
    } else if (auto it = tunable.find(a.name); it != tunable.end()) {
      j["value"] = it->second;
    } else if (auto bound = size.scalars.find(a.name); bound != size.scalars.end()) {
      j["value"] = bound->second;
    } else {
      j["value"] = a.value.value_or(0.0);
    }
    args.push_back(std::move(j));
  }
  return args;
}

Result<nlohmann::json> HarnessClient::call(nlohmann::json request, double timeout_s) {
  auto answer = runner_.call(request, timeout_s);
  if (!answer) {
    const HarnessFailure f = runner_.last_failure();
    if (f == HarnessFailure::timeout || f == HarnessFailure::crashed ||
        f == HarnessFailure::bad_response)
      loaded_generation_ = 0;  // that harness was killed or died, and its state with it
    // A refusal the reference or the base caused (a fault, say) may have left the CUDA context
    // unusable: the next call reaches a fresh harness.
    if (f == HarnessFailure::base_failed || answer.error().kind == ErrorKind::config) restart();
  }
  return answer;
}

void HarnessClient::restart() {
  runner_.restart();
  loaded_generation_ = 0;
}

bool HarnessClient::holds_load() const {
  return loaded_generation_ != 0 && loaded_generation_ == runner_.generation();
}

bool launcher_waited_for_the_gpu(const Error& error) {
  return error.message.find("the launcher waited for the GPU") != std::string::npos;
}

Status HarnessClient::fresh_context() {
  restart();
  return restore_if_lost();
}

Status HarnessClient::restore_if_lost() {
  if (last_load_.is_null() || holds_load()) return Ok{};
  const nlohmann::json load_request = last_load_, setup_args = last_setup_;
  KB_TRY(send_load(load_request));
  if (!setup_args.is_null()) KB_TRY(setup(setup_args));
  return Ok{};
}

Status HarnessClient::send_load(const nlohmann::json& request) {
  // Recorded before it is sent: a restore replays the newest load, even one that failed.
  last_load_ = request;
  last_setup_ = nullptr;   // a new load holds no workload until its own setup
  loaded_generation_ = 0;  // the harness drops its candidates before it loads
  auto r = call(request, timeouts_.control_s);
  if (!r) return r.error();
  loaded_generation_ = runner_.generation();
  return Ok{};
}

Result<HarnessDevice> HarnessClient::hello() {
  auto r = call({{"op", "hello"}}, timeouts_.control_s);
  if (!r) return r.error();
  return parsed("hello", *r, [](const nlohmann::json& a) {
    const auto& d = a.at("device");
    return HarnessDevice{d.value("name", ""), d.value("cc", ""), d.value("sm_count", 0),
                         d.value("l2_bytes", std::int64_t{0}),
                         d.value("memory_bytes", std::int64_t{0})};
  });
}

Status HarnessClient::load(const std::vector<std::string>& candidates,
                           const std::optional<ReferenceObject>& reference) {
  nlohmann::json request = {{"op", "load"}, {"candidates", candidates}, {"reference", nullptr}};
  if (reference) {
    const ReferenceObject::Kind k = reference->kind;
    request["reference"] = {{"kind", k == ReferenceObject::Kind::cpu   ? "cpu"
                                     : k == ReferenceObject::Kind::gpu ? "gpu"
                                                                       : "python"},
                            {"object", reference->object}};
    if (k == ReferenceObject::Kind::python) {
      request["reference"]["class"] = reference->class_name;
      request["reference"]["train"] = reference->train;
    }
  }
  return send_load(request);
}

Status HarnessClient::setup(const nlohmann::json& args) {
  last_setup_ = args;  // recorded before it is sent, as a load is
  auto r = call({{"op", "setup"}, {"args", args}}, timeouts_.control_s);
  if (!r) {
    loaded_generation_ = 0;  // the harness drops its workload before it sets up
    return r.error();
  }
  return Ok{};
}

Result<CheckVerdict> HarnessClient::failure_verdict(const Error& error, Request request) const {
  const bool launching = request == Request::launch;
  const std::string within = std::to_string(static_cast<int>(timeouts_.launch_s));
  if (runner_.last_failure() == HarnessFailure::timeout)
    return CheckVerdict{false, verdict_reason_name(VerdictReason::timeout),
                        launching ? "no answer within " + within +
                                        " s: the kernel never finished, so the harness was killed"
                                  : "no answer within " + within +
                                        " s while the last timed output was rechecked (work the "
                                        "candidate left running?), so the harness was killed",
                        nlohmann::json::object()};
  if (runner_.last_failure() == HarnessFailure::bad_response)
    return CheckVerdict{false, verdict_reason_name(VerdictReason::bad_response),
                        "the harness's answer was not protocol JSON, so it was killed (did the "
                        "candidate write to the protocol pipe?): " +
                            error.message,
                        nlohmann::json::object()};
  if (runner_.last_failure() == HarnessFailure::crashed)
    return CheckVerdict{false, verdict_reason_name(VerdictReason::crashed),
                        (launching ? "the harness died running the candidate: "
                                   : "the harness died while the last timed output was rechecked "
                                     "(a fault the candidates' last launches left?): ") +
                            error.message,
                        nlohmann::json::object()};
  return error;
}

Result<CheckVerdict> HarnessClient::verify(int candidate, const std::vector<std::uint64_t>& seeds,
                                           const Tolerance& tolerance, const Against& against) {
  const nlohmann::json request = {{"op", "verify"},
                                  {"candidate", candidate},
                                  {"seeds", seeds},
                                  {"tolerance", tolerance_json(tolerance)},
                                  {"against", against_json(against)}};
  auto r = call(request, timeouts_.launch_s);
  if (!r && runner_.last_failure() == HarnessFailure::reference_suspect) {
    // Whose failure it was shows with the reference alone in a process of its own (an Error with
    // the reference's cause when it fails there too). Passing there, this candidate is verified
    // again in a fresh context of the whole load; failing beside it again, the failure is its.
    KB_TRY(run_reference_alone(seeds, against));
    KB_TRY(fresh_context());
    r = call(request, timeouts_.launch_s);
    if (!r && runner_.last_failure() == HarnessFailure::reference_suspect) {
      restart();
      return CheckVerdict{false, verdict_reason_name(VerdictReason::launch_error),
                          "the reference passes alone and fails beside this candidate, in a "
                          "fresh CUDA context too: the candidate damages it (" +
                              r.error().message + ")",
                          nlohmann::json::object()};
    }
  }
  if (!r) return failure_verdict(r.error(), Request::launch);
  note_reference_work(*r);
  auto verdict =
      parsed("verify", *r, [](const nlohmann::json& a) { return parse_verdict(a.at("verdict")); });
  // A fault leaves the harness's CUDA context unusable: start afresh next time.
  if (verdict && verdict->detail.is_object() && verdict->detail.contains("context_lost") &&
      verdict->detail["context_lost"] == true)
    restart();
  return verdict;
}

Status HarnessClient::bench_prepare(std::uint64_t seed, const Against& against, bool expected) {
  nlohmann::json request = {
      {"op", "bench_prepare"}, {"seed", seed}, {"against", against_json(against)}};
  if (!expected) request["expected"] = false;
  auto r = call(request, timeouts_.launch_s);
  if (!r && expected && runner_.last_failure() == HarnessFailure::reference_suspect) {
    // Alone in a process of its own, a failure of the reference is its own (an Error with its
    // cause); passing there, it is tried once more in a fresh context of the whole load.
    KB_TRY(run_reference_alone({seed}, against));
    KB_TRY(fresh_context());
    r = call(request, timeouts_.launch_s);
  }
  if (!r) return r.error();
  note_reference_work(*r);
  return Ok{};
}

Status HarnessClient::run_reference_alone(const std::vector<std::uint64_t>& seeds,
                                          const Against& against) {
  if (last_load_.is_null())
    return Error::internal("the reference was to run alone, but nothing was ever loaded");
  const nlohmann::json whole_load = last_load_, whole_setup = last_setup_;
  nlohmann::json alone = whole_load;
  alone["candidates"] = nlohmann::json::array();
  if (against.candidate)
    alone["candidates"].push_back(whole_load.at("candidates").at(*against.candidate));
  restart();
  const Status ran = [&]() -> Status {
    KB_TRY(send_load(alone));
    if (!whole_setup.is_null()) KB_TRY(setup(whole_setup));
    // bench_prepare runs just the reference on each seed's inputs.
    for (const std::uint64_t seed : seeds)
      KB_TRY(bench_prepare(seed, against.candidate ? Against{0} : against));
    return Ok{};
  }();
  restart();  // the next call reaches a fresh harness, which restore_if_lost gives the whole load
  last_load_ = whole_load;
  last_setup_ = whole_setup;
  return ran;
}

void HarnessClient::note_reference_work(const nlohmann::json& answer) {
  const auto it = answer.find("reference");
  if (it == answer.end() || !it->is_object()) return;  // an older harness, or a failed request
  reference_work_.seconds += it->value("seconds", 0.0);
  reference_work_.runs += it->value("runs", 0);
  reference_work_.reused += it->value("reused", 0);
  reference_work_.shared += it->value("shared", 0);
}

ReferenceWork operator-(const ReferenceWork& after, const ReferenceWork& before) {
  return {.seconds = after.seconds - before.seconds,
          .runs = after.runs - before.runs,
          .reused = after.reused - before.reused,
          .shared = after.shared - before.shared};
}

Result<std::vector<TimingSample>> HarnessClient::sample(const std::vector<int>& order, int calls,
                                                        bool unheld) {
  nlohmann::json request = {{"op", "sample"}, {"order", order}};
  if (calls > 1) request["calls"] = calls;
  if (unheld) request["unheld"] = true;
  auto r = call(request, timeouts_.launch_s);
  if (!r) {
    // A candidate that fails while timed may have faulted the harness's context.
    restart();
    return r.error();
  }
  auto samples = parsed("sample", *r, [](const nlohmann::json& a) {
    std::vector<TimingSample> out;
    for (const auto& s : a.at("samples"))
      out.push_back(
          {s.at("candidate").get<int>(), s.at("gpu_s").get<double>(), s.value("sm_mhz", 0.0)});
    return out;
  });
  if (samples && samples->size() != order.size())
    return Error::io("kblaster-harness answered `sample` with " + std::to_string(samples->size()) +
                     " samples for " + std::to_string(order.size()) + " launches");
  return samples;
}

Result<CheckVerdict> HarnessClient::recheck(int candidate, const Tolerance& tolerance) {
  auto r =
      call({{"op", "recheck"}, {"candidate", candidate}, {"tolerance", tolerance_json(tolerance)}},
           timeouts_.launch_s);
  if (!r) return failure_verdict(r.error(), Request::recheck);
  return parsed("recheck", *r,
                [](const nlohmann::json& a) { return parse_verdict(a.at("verdict")); });
}

Result<std::optional<CheckVerdict>> HarnessClient::guard_damage(int candidate) {
  auto r = call({{"op", "guard_damage"}, {"candidate", candidate}}, timeouts_.launch_s);
  if (!r) return r.error();
  return parsed("guard_damage", *r, [](const nlohmann::json& a) -> std::optional<CheckVerdict> {
    if (a.at("verdict").is_null()) return std::nullopt;
    return parse_verdict(a.at("verdict"));
  });
}

Result<BaselineSamples> HarnessClient::baseline_sample(const std::string& mode, int count) {
  auto r =
      call({{"op", "baseline_sample"}, {"mode", mode}, {"count", count}}, timeouts_.baseline_s);
  if (!r) return r.error();
  auto samples = parsed("baseline_sample", *r, [](const nlohmann::json& a) {
    return BaselineSamples{a.at("samples").get<std::vector<double>>(),
                           a.value("runtime", std::string())};
  });
  if (samples && samples->seconds.size() != static_cast<std::size_t>(count))
    return Error::io("kblaster-harness answered `baseline_sample` with " +
                     std::to_string(samples->seconds.size()) + " samples for " +
                     std::to_string(count));
  return samples;
}

Result<double> HarnessClient::peak_bandwidth() {
  auto r = call({{"op", "peak_bandwidth"}}, timeouts_.control_s);
  if (!r) return r.error();
  return parsed("peak_bandwidth", *r,
                [](const nlohmann::json& a) { return a.at("bytes_per_s").get<double>(); });
}

Result<double> HarnessClient::peak_fp32() {
  auto r = call({{"op", "peak_fp32"}}, timeouts_.control_s);
  if (!r) return r.error();
  return parsed("peak_fp32", *r,
                [](const nlohmann::json& a) { return a.at("flops_per_s").get<double>(); });
}

Result<double> HarnessClient::peak_tensor() {
  auto r = call({{"op", "peak_tensor"}}, timeouts_.control_s);
  if (!r) return r.error();
  return parsed("peak_tensor", *r,
                [](const nlohmann::json& a) { return a.at("flops_per_s").get<double>(); });
}

Result<double> HarnessClient::profile(int candidate, std::uint64_t seed) {
  auto r = call({{"op", "profile"}, {"candidate", candidate}, {"seed", seed}}, timeouts_.launch_s);
  if (!r) return r.error();
  return parsed("profile", *r, [](const nlohmann::json& a) { return a.at("gpu_s").get<double>(); });
}

}  // namespace kblaster
