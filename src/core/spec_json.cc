#include "core/spec_json.h"

namespace kblaster {

using nlohmann::json;

json to_json(const ArgSpec& arg) {
  json j = {{"name", arg.name}, {"type", dtype_name(arg.type)}, {"role", role_name(arg.role)}};
  if (arg.is_buffer()) {
    j["shape"] = arg.shape->text();
    if (!arg.dims.empty()) {
      j["dims"] = json::array();
      for (const auto& d : arg.dims) j["dims"].push_back(d.text());
    }
    if (arg.is_read()) j["init"] = arg.init.text;
  }
  if (arg.value) j["value"] = *arg.value;
  if (!arg.tunable.empty()) j["tunable"] = arg.tunable;
  if (arg.reference_type) j["reference_type"] = dtype_name(*arg.reference_type);
  return j;
}

json to_json(const KernelSpec& spec) {
  json args = json::array();
  for (const auto& a : spec.args) args.push_back(to_json(a));
  json tunables = json::object();
  for (const auto& t : spec.tunables) tunables[t.name] = t.values;
  json reference = {{"kind", reference_kind_name(spec.reference.kind)}};
  if (spec.reference.kind != ReferenceSpec::Kind::base_revision) {
    reference["path"] = spec.reference.path;
    reference["function"] = spec.reference.function;
  }
  // The mode decides the expected outputs: a change of it is a change of the kernel's definition.
  if (spec.reference.kind == ReferenceSpec::Kind::python)
    reference["mode"] = spec.reference.train ? "train" : "eval";
  json j = {{"name", spec.name},
            {"declared_at", spec.where.str()},
            {"source", spec.source},
            {"launcher", spec.launcher},
            {"stream", spec.stream},
            {"reference", reference},
            {"args", args},
            {"tolerance",
             {{"rtol", spec.tolerance.rtol},
              {"atol", spec.tolerance.atol},
              {"default", spec.tolerance_is_default}}},
            {"tunables", tunables},
            {"include_dirs", spec.include_dirs},
            {"nvcc_flags", spec.nvcc_flags}};
  if (spec.flops) j["flops"] = spec.flops->text();
  if (spec.min_bytes) j["min_bytes"] = spec.min_bytes->text();
  if (!spec.constants.empty()) j["constants"] = spec.constants;
  if (!spec.preconditions.empty()) {
    json conditions = json::array();
    for (const auto& p : spec.preconditions) conditions.push_back(p.text());
    j["requires"] = conditions;
    json left_out = json::array();
    for (const auto& [size, why] : spec.left_out)
      left_out.push_back({{"size", size_label(spec, size)}, {"scalars", size}, {"why", why}});
    j["left_out"] = left_out;
  }
  return j;
}

json to_json(const SizePlan& size) {
  json buffers = json::array();
  for (const auto& b : size.buffers)
    buffers.push_back({{"name", b.name},
                       {"type", dtype_name(b.type)},
                       {"role", role_name(b.role)},
                       {"elements", b.elements},
                       {"bytes", b.bytes}});
  json j = {{"scalars", size.scalars},
            {"buffers", buffers},
            {"bytes_read", size.bytes_read},
            {"bytes_written", size.bytes_written},
            {"min_bytes", size.min_bytes()}};
  j["flops"] = size.flops ? json(*size.flops) : json(nullptr);
  return j;
}

nlohmann::json to_json(const KernelSpec& spec, const KernelPlan& plan) {
  nlohmann::json j = to_json(spec);
  j["sizes"] = nlohmann::json::array();
  for (const auto& s : plan.sizes) j["sizes"].push_back(to_json(s));
  return j;
}

}  // namespace kblaster
