#include "core/launch_plan.h"

#include <charconv>

namespace kblaster {

std::map<std::string, std::int64_t> bind_scalars(const KernelSpec& spec,
                                                 const std::map<std::string, std::int64_t>& size) {
  std::map<std::string, std::int64_t> scalars = size;
  scalars.insert(spec.constants.begin(), spec.constants.end());
  for (const auto& arg : spec.args) {
    if (arg.is_buffer() || is_floating(arg.type)) continue;
    if (arg.value)
      scalars[arg.name] = static_cast<std::int64_t>(*arg.value);
    else if (!arg.tunable.empty())
      scalars[arg.name] = arg.tunable.front();
  }
  return scalars;
}

std::map<std::string, std::int64_t> precondition_scalars(
    const KernelSpec& spec, const std::map<std::string, std::int64_t>& size,
    const std::map<std::string, std::int64_t>& launcher_args,
    const std::map<std::string, std::string>& macros) {
  auto scalars = bind_scalars(spec, size);
  auto integer = [](const std::string& text) -> std::optional<std::int64_t> {
    std::int64_t v = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
    return v;
  };
  for (const auto& t : spec.tunables) {
    const auto chosen = macros.find(t.name);
    if (auto v = integer(chosen != macros.end() ? chosen->second : t.values.front()))
      scalars[t.name] = *v;
  }
  for (const auto& [name, value] : launcher_args) scalars[name] = value;
  return scalars;
}

std::optional<std::string> broken_by_tunables(
    const KernelSpec& spec, const std::map<std::string, std::int64_t>& launcher_args,
    const std::map<std::string, std::string>& macros) {
  for (const auto& size : spec.sizes)
    if (auto why = first_broken(spec.preconditions,
                                precondition_scalars(spec, size, launcher_args, macros)))
      return *why + " at " + size_label(spec, size);
  return std::nullopt;
}

Result<SizePlan> plan_size(const KernelSpec& spec,
                           const std::map<std::string, std::int64_t>& size) {
  SizePlan plan;
  plan.scalars = bind_scalars(spec, size);
  for (const auto& arg : spec.args) {
    if (!arg.is_buffer()) continue;
    auto count = arg.shape->evaluate(plan.scalars);
    if (!count) return Error::config("", "shape of `" + arg.name + "`: " + count.error().message);
    if (*count < 0)
      return Error::config("", "shape of `" + arg.name + "` (`" + arg.shape->text() +
                                   "`) is negative: " + std::to_string(*count));
    BufferPlan buffer{arg.name, arg.type, arg.role, *count, 0, {}};
    for (const auto& d : arg.dims) {
      auto extent = d.evaluate(plan.scalars);
      if (!extent)
        return Error::config("", "shape of `" + arg.name + "`: " + extent.error().message);
      if (*extent < 0)
        return Error::config("", "shape of `" + arg.name + "`: dimension `" + d.text() +
                                     "` is negative: " + std::to_string(*extent));
      buffer.dims.push_back(*extent);
    }
    if (__builtin_mul_overflow(*count, static_cast<std::int64_t>(dtype_size(arg.type)),
                               &buffer.bytes))
      return Error::config("", "`" + arg.name + "` is larger than 2^63 bytes");
    if ((arg.is_read() &&
         __builtin_add_overflow(plan.bytes_read, buffer.bytes, &plan.bytes_read)) ||
        (arg.is_written() &&
         __builtin_add_overflow(plan.bytes_written, buffer.bytes, &plan.bytes_written)))
      return Error::config("", "the buffers total more than 2^63 bytes");
    plan.buffers.push_back(buffer);
  }
  if (spec.flops) {
    auto flops = spec.flops->evaluate(plan.scalars);
    if (!flops) return Error::config("", "flops: " + flops.error().message);
    plan.flops = *flops;
  }
  if (spec.min_bytes) {
    auto bytes = spec.min_bytes->evaluate(plan.scalars);
    if (!bytes) return Error::config("", "min_bytes: " + bytes.error().message);
    // Every output element is checked, so the outputs are written in full whatever is declared:
    // a min_bytes under that would only weaken bench's floor (a pull request could lower it to
    // hide a kernel that skips work).
    if (*bytes < plan.bytes_written)
      return Error::config("", "min_bytes: `" + spec.min_bytes->text() + "` is " +
                                   std::to_string(*bytes) + " bytes here, fewer than the " +
                                   std::to_string(plan.bytes_written) +
                                   " bytes its outputs alone must be written");
    plan.declared_min_bytes = *bytes;
  }
  return plan;
}

std::string size_label(const KernelSpec& spec, const std::map<std::string, std::int64_t>& size) {
  std::string out;
  for (const auto& a : spec.args)
    if (auto it = size.find(a.name); it != size.end())
      out += (out.empty() ? "" : " ") + a.name + "=" + std::to_string(it->second);
  return out.empty() ? "(fixed)" : out;
}

Result<KernelPlan> plan_kernel(const KernelSpec& spec) {
  KernelPlan plan{spec.name, {}};
  for (std::size_t i = 0; i < spec.sizes.size(); ++i) {
    auto size = plan_size(spec, spec.sizes[i]);
    if (!size)
      return Error::config(size.error().where,
                           "sizes[" + std::to_string(i) + "]: " + size.error().message);
    plan.sizes.push_back(std::move(*size));
  }
  return plan;
}

Result<KernelPlan> plan_validated_kernel(const KernelSpec& spec) {
  auto plan = plan_kernel(spec);
  if (!plan)
    return Error::internal("kernel `" + spec.name +
                           "` passed validation but cannot be planned: " + plan.error().message);
  return plan;
}

}  // namespace kblaster
