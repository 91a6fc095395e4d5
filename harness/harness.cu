#include <chrono>

#include "cuda_check.h"
#include "harness.h"

namespace kblaster::harness {
namespace {

using ReferenceFn = int (*)(void** args);

}  // namespace

nlohmann::json Harness::hello() {
  int device = 0;
  KBH_CUDA(cudaGetDevice(&device));
  cudaDeviceProp p{};
  KBH_CUDA(cudaGetDeviceProperties(&p, device));
  l2_bytes_ = static_cast<std::size_t>(p.l2CacheSize);
  rig_ = std::make_unique<LaunchRig>(l2_bytes_);
  return {{"device",
           {{"name", p.name},
            {"cc", std::to_string(p.major) + "." + std::to_string(p.minor)},
            {"sm_count", p.multiProcessorCount},
            {"l2_bytes", p.l2CacheSize},
            {"memory_bytes", p.totalGlobalMem}}},
          {"version", 1}};
}

nlohmann::json Harness::load(const nlohmann::json& request) {
  candidates_.clear();
  reference_.reset();
  baseline_inputs_sent_ = false;  // a new worker has none
  for (const auto& path : request.at("candidates"))
    candidates_.emplace_back(path.get<std::string>(), "kblaster_entry");
  warmed_.assign(candidates_.size(), false);
  const auto& ref = request.value("reference", nlohmann::json());
  if (!ref.is_null() && ref.at("kind") == "python") {
    // A PyTorch module: its worker starts at the first reference run.
    reference_.emplace(Reference{
        ReferenceKind::python, std::nullopt,
        std::make_unique<PythonReference>(ref.at("object").get<std::string>(),
                                          ref.at("class").get<std::string>(), python_interpreter(),
                                          ref.value("train", false))});
    reference_key_ = ref.dump();
  } else if (!ref.is_null()) {
    const bool cpu = ref.at("kind") == "cpu";
    reference_.emplace(Reference{cpu ? ReferenceKind::cpu : ReferenceKind::gpu,
                                 LoadedObject(ref.at("object").get<std::string>(),
                                              cpu ? "kblaster_reference" : "kblaster_entry"),
                                 nullptr});
    // Objects are named by the hash of what built them, so the path names the build.
    reference_key_ = ref.dump();
  }
  return nlohmann::json::object();
}

nlohmann::json Harness::setup(const nlohmann::json& request) {
  if (!rig_) hello();
  workload_.reset();
  bench_expected_.reset();
  bench_prepared_ = false;
  // Installed only once whole: a workload without its generators would call a null function.
  auto workload = std::make_unique<Workload>(parse_args(request.at("args")));
  const auto& args = workload->args();
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (!args[i].is_buffer || args[i].init.kind != Distribution::Kind::generator) continue;
    void* fn = reference_ && reference_->kind == ReferenceKind::cpu
                   ? reference_->object->find("kblaster_init_" + args[i].name)
                   : nullptr;
    if (!fn)
      throw HarnessFailure("setup: `" + args[i].name +
                           "` is filled by a generator, but no loaded CPU reference exports "
                           "kblaster_init_" +
                           args[i].name);
    workload->set_generator(i, reinterpret_cast<Workload::GeneratorFn>(fn));
  }
  set_module_state(*workload);
  workload_ = std::move(workload);
  workload_key_ = reference_workload_key(request.at("args"));
  warmed_.assign(candidates_.size(), false);
  return {{"bytes", workload_->device_bytes()}};
}

void Harness::set_module_state(Workload& workload) {
  const auto& args = workload.args();
  std::vector<std::size_t> stateful;
  for (std::size_t i = 0; i < args.size(); ++i)
    if (args[i].is_buffer && args[i].init.kind == Distribution::Kind::state) stateful.push_back(i);
  if (reference_ && reference_->kind == ReferenceKind::python)
    reference_->python->vary_constants(!stateful.empty());
  if (stateful.empty()) return;
  if (!reference_ || reference_->kind != ReferenceKind::python)
    throw HarnessFailure("setup: `" + args[stateful[0]].name + "` holds the module's `" +
                         args[stateful[0]].init.state + "`, but no PyTorch reference is loaded");
  // Kept like reference outputs (in memory, and in the session's files for its later harnesses),
  // so a fresh CUDA context's harness does not start Python only to read the module's weights.
  std::vector<PythonReference::Tensor> asked;
  std::vector<std::size_t> missed;
  std::vector<std::string> keys;
  for (std::size_t i : stateful) {
    const ArgDesc& a = args[i];
    keys.push_back("state\n" + reference_key_ + "\n" + a.init.state + "\n" +
                   std::to_string(static_cast<int>(a.type)) + "\n" + nlohmann::json(a.dims).dump());
    if (const MemoOutputs* kept = memo_.find(keys.back())) {
      workload.set_state(i, kept->at(0));
    } else if (auto read = shared_.read(keys.back(), {a.bytes()})) {
      workload.set_state(i, read->at(0));
      memo_.insert(keys.back(), std::move(*read));
    } else {
      asked.push_back({a.init.state, a.type, a.dims, nullptr});
      missed.push_back(keys.size() - 1);
    }
  }
  if (asked.empty()) return;
  auto bytes = reference_->python->state(asked);
  for (std::size_t k = 0; k < asked.size(); ++k) {
    const std::string& key = keys[missed[k]];
    MemoOutputs kept{std::move(bytes[k])};
    shared_.write(key, kept);
    workload.set_state(stateful[missed[k]], kept[0]);
    memo_.insert(key, std::move(kept));
  }
}

Workload& Harness::workload() {
  if (!workload_) throw HarnessFailure("no workload: send `setup` first");
  return *workload_;
}

EntryFn Harness::candidate(const nlohmann::json& index) const {
  const auto i = index.get<std::size_t>();
  if (i >= candidates_.size())
    throw HarnessFailure("no candidate " + std::to_string(i) + " loaded");
  return reinterpret_cast<EntryFn>(candidates_[i].symbol());
}

std::vector<const ArgDesc*> Harness::outputs() const {
  std::vector<const ArgDesc*> out;
  for (const auto& a : workload_->args())
    if (a.is_output()) out.push_back(&a);
  return out;
}

std::vector<const ArgDesc*> Harness::plain_inputs() const {
  std::vector<const ArgDesc*> out;
  for (const auto& a : workload_->args())
    if (a.is_buffer && a.role == Role::in) out.push_back(&a);
  return out;
}

LaunchTiming Harness::launch(EntryFn entry, void** args, unsigned char poison,
                             const std::function<void()>& while_held, Hold hold, int calls) {
  Workload& w = workload();
  if (!reference_launching_) candidates_launched_ = true;
  try {
    return rig_->launch(
        entry, args,
        [&](cudaStream_t s) {
          w.restore_inputs(s);
          w.poison_outputs(poison, s);
        },
        while_held, hold, calls);
  } catch (const HarnessFailure& failure) {
    // A fault inside the launch leaves the context unusable (a sticky error):
    // once the failed call's own error is cleared, a sync still reports it.
    cudaGetLastError();
    if (cudaDeviceSynchronize() != cudaSuccess) sticky_error_ = failure.what();
    throw;
  }
}

nlohmann::json Harness::take_reference_stats() {
  nlohmann::json j = {{"seconds", reference_seconds_},
                      {"runs", reference_runs_},
                      {"reused", reference_reused_},
                      {"shared", reference_shared_}};
  reference_seconds_ = 0.0;
  reference_runs_ = reference_reused_ = reference_shared_ = 0;
  return j;
}

OutputSnapshot Harness::expected_outputs(const nlohmann::json& against, std::uint64_t seed) {
  if (against.is_object() || !reference_) return outputs_of(against);
  const std::string key = reference_key_ + "\n" + workload_key_ + "\n" + std::to_string(seed);
  if (const MemoOutputs* kept = memo_.find(key)) {
    ++reference_reused_;
    return *kept;
  }
  std::vector<std::size_t> sizes;
  for (const ArgDesc* a : outputs()) sizes.push_back(a->bytes());
  if (auto kept = shared_.read(key, sizes)) {
    ++reference_reused_;
    ++reference_shared_;
    memo_.insert(key, *kept);
    return std::move(*kept);
  }
  const auto start = std::chrono::steady_clock::now();
  OutputSnapshot out = outputs_of(against);
  reference_seconds_ +=
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ++reference_runs_;
  memo_.insert(key, out);
  shared_.write(key, out);
  return out;
}

OutputSnapshot Harness::reference_launch(EntryFn fn, void** args, const std::string& what,
                                         const char* cause, std::size_t loaded_as_reference) {
  Workload& w = workload();
  // Damage another candidate left in this process (a pending error, a wild write, whatever its
  // static initialisers or eagerly loaded module did) can make a sound reference fail: then only
  // a process holding just the reference can tell whose failure it is.
  const bool others = candidates_launched_ || candidates_.size() > loaded_as_reference;
  const char* blame = others ? kCauseFreshContext : cause;
  const std::string after = others ? " (beside other candidates in this CUDA context)" : "";
  LaunchTiming t;
  struct Flag {  // set while the reference launches, whatever way the launch ends
    bool& on;
    explicit Flag(bool& f) : on(f) { on = true; }
    ~Flag() { on = false; }
  };
  try {
    const Flag launching(reference_launching_);
    // Untimed, so not held: its first call may load modules, which waits for the device.
    t = launch(fn, args, kPoisonA, {}, Hold::no);
  } catch (const HarnessFailure& failure) {
    // Only a fault (the context is lost) is the launch's; any other failure is the harness's own.
    if (sticky_error_.empty()) throw;
    throw ReferenceFailure(what + " faulted" + after + ": " + failure.what(), blame);
  }
  if (t.entry_status != 0)
    throw ReferenceFailure(what + " failed" + after + ": " +
                               cudaGetErrorName(static_cast<cudaError_t>(t.entry_status)),
                           blame);
  if (Verdict v = w.check_guards(rig_->stream()); !v.passed)
    throw ReferenceFailure(what + " failed" + after + ": " + v.message, blame);
  return w.read_outputs(rig_->stream());
}

OutputSnapshot Harness::outputs_of(const nlohmann::json& against) {
  Workload& w = workload();
  if (against.is_object())
    return reference_launch(candidate(against.at("candidate")), w.candidate_args(),
                            "the candidate used as reference", kCauseBase, 1);
  if (!reference_) throw HarnessFailure("verify against the reference, but none was loaded");
  if (reference_->kind == ReferenceKind::python) {
    w.prepare_cpu_reference();  // host copies, converted to the reference's types
    return w.python_reference_outputs(*reference_->python);
  }
  if (reference_->kind == ReferenceKind::cpu) {
    auto fn = reinterpret_cast<ReferenceFn>(reference_->object->symbol());
    if (int rc = fn(w.prepare_cpu_reference()); rc != 0)
      throw ReferenceFailure("the CPU reference returned " + std::to_string(rc), kCauseReference);
    return w.cpu_reference_outputs();
  }
  return reference_launch(reinterpret_cast<EntryFn>(reference_->object->symbol()),
                          w.gpu_reference_args(), "the GPU reference", kCauseReference, 0);
}

}  // namespace kblaster::harness
