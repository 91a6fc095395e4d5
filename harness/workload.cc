#include "workload.h"

#include <algorithm>
#include <cstring>

#include "cuda_check.h"
#include "output_check.h"

namespace kblaster::harness {
namespace {

Role parse_role(const std::string& r) {
  if (r == "in") return Role::in;
  if (r == "out") return Role::out;
  if (r == "inout") return Role::inout;
  throw HarnessFailure("setup: unknown role `" + r + "`");
}

Distribution parse_init(const nlohmann::json& j) {
  Distribution d;
  const std::string kind = j.value("kind", "normal");
  if (kind != "normal" && kind != "uniform" && kind != "randint" && kind != "generator" &&
      kind != "state")
    throw HarnessFailure("setup: unknown init kind `" + kind + "`");
  d.kind = kind == "uniform"     ? Distribution::Kind::uniform
           : kind == "randint"   ? Distribution::Kind::randint
           : kind == "generator" ? Distribution::Kind::generator
           : kind == "state"     ? Distribution::Kind::state
                                 : Distribution::Kind::normal;
  if (d.kind == Distribution::Kind::state) d.state = j.at("name").get<std::string>();
  d.a = j.value("a", 0.0);
  d.b = j.value("b", 1.0);
  return d;
}

}  // namespace

std::vector<ArgDesc> parse_args(const nlohmann::json& args) {
  std::vector<ArgDesc> out;
  for (const auto& j : args) try {
      ArgDesc a;
      a.name = j.at("name").get<std::string>();
      auto type = parse_element_type(j.at("type").get<std::string>());
      if (!type) throw HarnessFailure("setup: argument `" + a.name + "` has an unknown type");
      a.type = *type;
      a.is_buffer = j.contains("elements");
      if (a.is_buffer) {
        a.elements = j.at("elements").get<std::size_t>();
        a.dims = j.value("dims", std::vector<std::int64_t>{static_cast<std::int64_t>(a.elements)});
        std::size_t product = 1;
        bool fits = !a.dims.empty() && a.dims.size() <= 8;
        for (auto d : a.dims)
          fits = fits && d >= 0 &&
                 !__builtin_mul_overflow(product, static_cast<std::size_t>(d), &product);
        if (!fits || product != a.elements)
          throw HarnessFailure("setup: argument `" + a.name +
                               "`: its dims (1 to 8, none negative) do not multiply to its " +
                               std::to_string(a.elements) + " elements");
        a.role = parse_role(j.value("role", "in"));
        if (j.contains("init")) a.init = parse_init(j.at("init"));
        a.reference_type = a.type;
        if (j.contains("reference_type")) {
          auto ref = parse_element_type(j.at("reference_type").get<std::string>());
          if (!ref)
            throw HarnessFailure("setup: argument `" + a.name + "` has an unknown reference type");
          a.reference_type = *ref;
        }
      } else {
        a.value = j.at("value").get<double>();
      }
      a.to_reference = j.value("to_reference", true);
      out.push_back(std::move(a));
    } catch (const nlohmann::json::exception& e) {
      throw HarnessFailure("setup: args[" + std::to_string(out.size()) + "]: " + e.what());
    }
  return out;
}

Workload::Workload(std::vector<ArgDesc> args) : args_(std::move(args)), slots_(args_.size()) {
  for (std::size_t i = 0; i < args_.size(); ++i) {
    const ArgDesc& a = args_[i];
    Slot& s = slots_[i];
    void* device_arg;
    void* host_arg;
    if (a.is_buffer) {
      try {
        s.device = GuardedBuffer(a.bytes(), i);
        if (a.is_input()) s.pristine = DeviceBuffer(a.bytes());
      } catch (const HarnessFailure& failure) {
        throw HarnessFailure("setup: cannot allocate `" + a.name + "` (" +
                             std::to_string(a.bytes()) + " bytes" +
                             (a.is_input() ? ", twice" : "") + ", and " +
                             std::to_string(2 * kGuardBytes) + " of guards): " + failure.what());
      }
      s.host.resize(a.reference_bytes());
      // The shim reads a buffer argument as args[i] itself (the device pointer).
      device_arg = s.device.get();
      host_arg = s.host.data();
    } else {
      s.scalar.resize(element_size(a.type));
      element_from_double(a.type, s.scalar.data(), 0, a.value);
      device_arg = host_arg = s.scalar.data();
    }
    candidate_args_.push_back(device_arg);
    if (a.to_reference) {
      gpu_reference_args_.push_back(device_arg);
      cpu_reference_args_.push_back(host_arg);
    }
  }
  std::vector<GuardScan::Guard> guards;
  for (std::size_t i = 0; i < args_.size(); ++i)
    if (args_[i].is_buffer)
      for (GuardSide side : {GuardSide::before, GuardSide::after}) {
        guards.push_back({slots_[i].device.guard(side), canary_key(i, side)});
        guard_owners_.emplace_back(i, side);
      }
  guard_scan_ = GuardScan(guards);
}

std::size_t Workload::device_bytes() const {
  std::size_t total = 0;
  for (const auto& s : slots_) total += s.device.allocated_bytes() + s.pristine.bytes();
  return total;
}

void Workload::set_state(std::size_t arg, std::vector<unsigned char> bytes) {
  if (bytes.size() != args_.at(arg).bytes())
    throw HarnessFailure("setup: the module's `" + args_[arg].init.state + "` for `" +
                         args_[arg].name + "` has " + std::to_string(bytes.size()) +
                         " bytes, not " + std::to_string(args_[arg].bytes()));
  states_.at(arg) = std::move(bytes);
}

void Workload::fill_inputs(std::uint64_t seed, cudaStream_t stream) {
  cpu_inputs_.clear();
  std::vector<std::vector<unsigned char>> copies(args_.size());
  for (std::size_t i = 0; i < args_.size(); ++i) {
    const ArgDesc& a = args_[i];
    if (!a.is_input() || a.elements == 0) continue;
    if (a.init.kind == Distribution::Kind::state) {  // the module's tensor, whatever the seed
      copies[i] = states_.at(i);
      KBH_CUDA(cudaMemcpyAsync(slots_[i].pristine.get(), copies[i].data(), a.bytes(),
                               cudaMemcpyHostToDevice, stream));
      continue;
    }
    if (a.init.kind == Distribution::Kind::generator) {
      // The reference file's function writes the buffer in the reference's type; the kernel
      // gets it in its own. Each buffer's seed differs, as fill_random's streams do.
      std::vector<unsigned char> written(a.reference_bytes());
      generators_.at(i)(written.data(), static_cast<std::int64_t>(a.elements),
                        seed ^ (0x9E3779B97F4A7C15ull * (i + 1)));
      copies[i] = convert_elements(a.reference_type, a.type, written);
      KBH_CUDA(cudaMemcpyAsync(slots_[i].pristine.get(), copies[i].data(), a.bytes(),
                               cudaMemcpyHostToDevice, stream));
      continue;
    }
    fill_random(a.type, slots_[i].pristine.get(), a.elements, a.init, seed, i, stream);
    copies[i].resize(a.bytes());
    KBH_CUDA(cudaMemcpyAsync(copies[i].data(), slots_[i].pristine.get(), a.bytes(),
                             cudaMemcpyDeviceToHost, stream));
  }
  KBH_CUDA(cudaStreamSynchronize(stream));
  for (std::size_t i = 0; i < args_.size(); ++i)
    if (args_[i].is_input()) cpu_inputs_.push_back(std::move(copies[i]));
  restore_inputs(stream);
  arm_guards(stream);
}

void Workload::arm_guards(cudaStream_t stream) {
  for (std::size_t i = 0; i < args_.size(); ++i)
    if (args_[i].is_buffer) slots_[i].device.arm(stream);
}

Verdict Workload::check_guards(cudaStream_t stream) {
  const std::vector<std::size_t> changed = guard_scan_.changed(stream);
  if (changed.empty()) return {};
  // Only a changed guard is copied back, to be described byte by byte.
  const auto [arg, side] = guard_owners_.at(changed.front());
  const GuardedBuffer& buffer = slots_[arg].device;
  std::vector<unsigned char> guard(kGuardBytes);
  buffer.read_guard(side, guard.data(), stream);
  KBH_CUDA(cudaStreamSynchronize(stream));
  const auto damage = find_guard_damage(guard.data(), buffer.canary(side).data(), kGuardBytes);
  arm_guards(stream);
  // The scan and this copy read the same bytes, so only work still running
  // (escaped from the stream) could make them disagree; the next check sees it.
  if (!damage) return {};
  return out_of_bounds_write(args_[arg], side, *damage);
}

void Workload::restore_inputs(cudaStream_t stream) {
  for (std::size_t i = 0; i < args_.size(); ++i)
    if (args_[i].is_input() && args_[i].elements > 0)
      KBH_CUDA(cudaMemcpyAsync(slots_[i].device.get(), slots_[i].pristine.get(), args_[i].bytes(),
                               cudaMemcpyDeviceToDevice, stream));
}

void Workload::poison_outputs(unsigned char pattern, cudaStream_t stream) {
  for (std::size_t i = 0; i < args_.size(); ++i)
    if (args_[i].is_buffer && args_[i].role == Role::out && args_[i].elements > 0)
      KBH_CUDA(cudaMemsetAsync(slots_[i].device.get(), pattern, args_[i].bytes(), stream));
}

OutputSnapshot Workload::read_outputs(cudaStream_t stream) const {
  OutputSnapshot out;
  for (std::size_t i = 0; i < args_.size(); ++i) {
    if (!args_[i].is_output()) continue;
    out.emplace_back(args_[i].bytes());
    if (args_[i].elements > 0)
      KBH_CUDA(cudaMemcpyAsync(out.back().data(), slots_[i].device.get(), args_[i].bytes(),
                               cudaMemcpyDeviceToHost, stream));
  }
  KBH_CUDA(cudaStreamSynchronize(stream));
  return out;
}

std::vector<DeviceBuffer> Workload::allocate_output_copies() const {
  std::vector<DeviceBuffer> copies;
  for (const auto& a : args_)
    if (a.is_output()) copies.emplace_back(a.bytes());
  return copies;
}

void Workload::copy_outputs(std::vector<DeviceBuffer>& copies, cudaStream_t stream) const {
  for (std::size_t i = 0, k = 0; i < args_.size(); ++i) {
    if (!args_[i].is_output()) continue;
    if (args_[i].elements > 0)
      KBH_CUDA(cudaMemcpyAsync(copies.at(k).get(), slots_[i].device.get(), args_[i].bytes(),
                               cudaMemcpyDeviceToDevice, stream));
    ++k;
  }
}

OutputSnapshot Workload::read_copies(const std::vector<DeviceBuffer>& copies, cudaStream_t stream) {
  OutputSnapshot out;
  for (const auto& c : copies) {
    out.emplace_back(c.bytes());
    if (c.bytes() > 0)
      KBH_CUDA(
          cudaMemcpyAsync(out.back().data(), c.get(), c.bytes(), cudaMemcpyDeviceToHost, stream));
  }
  KBH_CUDA(cudaStreamSynchronize(stream));
  return out;
}

OutputSnapshot Workload::read_inputs(cudaStream_t stream) const {
  OutputSnapshot out;
  for (std::size_t i = 0; i < args_.size(); ++i) {
    if (!args_[i].is_buffer || args_[i].role != Role::in) continue;
    out.emplace_back(args_[i].bytes());
    if (args_[i].elements > 0)
      KBH_CUDA(cudaMemcpyAsync(out.back().data(), slots_[i].device.get(), args_[i].bytes(),
                               cudaMemcpyDeviceToHost, stream));
  }
  KBH_CUDA(cudaStreamSynchronize(stream));
  return out;
}

OutputSnapshot Workload::host_inputs() const {
  OutputSnapshot out;
  for (std::size_t i = 0, k = 0; i < args_.size(); ++i) {
    if (!args_[i].is_input()) continue;
    if (args_[i].role == Role::in) out.push_back(cpu_inputs_.at(k));
    ++k;
  }
  return out;
}

OutputSnapshot Workload::initial_outputs(unsigned char poison) const {
  OutputSnapshot out;
  for (std::size_t i = 0, k = 0; i < args_.size(); ++i) {
    if (!args_[i].is_buffer) continue;
    if (args_[i].role == Role::out) out.emplace_back(args_[i].bytes(), poison);
    if (args_[i].role == Role::inout) out.push_back(cpu_inputs_.at(k));
    if (args_[i].is_input()) ++k;
  }
  return out;
}

void** Workload::prepare_cpu_reference() {
  for (std::size_t i = 0, k = 0; i < args_.size(); ++i) {
    if (!args_[i].is_buffer) continue;
    // Written in place: the reference's argument vector points at these bytes.
    if (args_[i].is_input()) {
      const auto in = convert_elements(args_[i].type, args_[i].reference_type, cpu_inputs_.at(k++));
      std::copy(in.begin(), in.end(), slots_[i].host.begin());
    } else {
      std::memset(slots_[i].host.data(), 0xFF, slots_[i].host.size());
    }
  }
  return cpu_reference_args_.data();
}

std::vector<PythonReference::Tensor> Workload::python_reference_inputs() const {
  std::vector<PythonReference::Tensor> inputs;
  for (std::size_t i = 0; i < args_.size(); ++i) {
    const ArgDesc& a = args_[i];
    if (a.is_buffer && a.to_reference && a.is_input())
      inputs.push_back({a.name, a.reference_type, a.dims, &slots_[i].host});
  }
  return inputs;
}

OutputSnapshot Workload::python_reference_outputs(PythonReference& reference) {
  const std::vector<PythonReference::Tensor> inputs = python_reference_inputs();
  std::vector<PythonReference::Tensor> outputs;
  std::vector<std::size_t> written;
  for (std::size_t i = 0; i < args_.size(); ++i) {
    const ArgDesc& a = args_[i];
    if (!a.is_buffer || !a.to_reference) continue;
    if (a.is_output()) {
      outputs.push_back({a.name, a.reference_type, a.dims, nullptr});
      written.push_back(i);
    }
  }
  auto results = reference.run(inputs, outputs);
  // Copied into place: the CPU reference's argument vector points at these bytes.
  for (std::size_t k = 0; k < written.size(); ++k) {
    std::vector<unsigned char>& host = slots_[written[k]].host;
    if (results[k].size() != host.size())
      throw HarnessFailure("the PyTorch reference's `" + args_[written[k]].name + "` has " +
                           std::to_string(results[k].size()) + " bytes, not " +
                           std::to_string(host.size()));
    std::copy(results[k].begin(), results[k].end(), host.begin());
  }
  return cpu_reference_outputs();
}

OutputSnapshot Workload::cpu_reference_outputs() const {
  OutputSnapshot out;
  for (std::size_t i = 0; i < args_.size(); ++i)
    if (args_[i].is_output())
      out.push_back(convert_elements(args_[i].reference_type, args_[i].type, slots_[i].host));
  return out;
}

}  // namespace kblaster::harness
