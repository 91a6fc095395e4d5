#include "core/plan_text.h"

#include <iomanip>
#include <sstream>

#include "core/units.h"

namespace kblaster {
namespace {

std::string describe_arg(const ArgSpec& a) {
  std::ostringstream s;
  s << a.name << ":" << dtype_name(a.type);
  if (a.is_buffer()) {
    s << "[";
    if (a.dims.empty()) s << a.shape->text();
    for (std::size_t i = 0; i < a.dims.size(); ++i) s << (i ? ", " : "") << a.dims[i].text();
    s << "] " << role_name(a.role);
    if (a.init.kind == InitDist::Kind::generator || a.init.kind == InitDist::Kind::state)
      s << " from " << a.init.text;
    if (a.reference_type) s << " (reference: " << dtype_name(*a.reference_type) << ")";
  } else if (a.value)
    s << " = " << *a.value;
  else if (!a.tunable.empty())
    s << " tunable";
  return s.str();
}

std::string describe_reference(const ReferenceSpec& r) {
  if (r.kind == ReferenceSpec::Kind::base_revision) return "the base revision";
  if (r.kind == ReferenceSpec::Kind::python)
    return "PyTorch module " + r.path + ":" + r.function + " (run by the harness's Python worker)";
  return std::string(reference_kind_name(r.kind)) + " " + r.path + ":" + r.function;
}

std::string join(const std::vector<std::string>& items, const char* sep) {
  std::string out;
  for (const auto& i : items) out += (out.empty() ? "" : sep) + i;
  return out;
}

}  // namespace

void print_kernel_plan(std::ostream& out, const KernelSpec& spec, const KernelPlan& plan) {
  out << spec.name << "  (" << spec.where.str() << ")\n";
  out << "  source     " << spec.source << "  launcher " << spec.launcher
      << (spec.stream ? "(…, cudaStream_t)" : "") << "\n";
  out << "  reference  " << describe_reference(spec.reference) << "\n";
  std::vector<std::string> args;
  for (const auto& a : spec.args) args.push_back(describe_arg(a));
  out << "  args       " << join(args, ", ") << "\n";
  std::ostringstream tol;
  tol << "rtol " << spec.tolerance.rtol << ", atol " << spec.tolerance.atol
      << (spec.tolerance_is_default ? " (default for the output type)" : "");
  out << "  tolerance  " << tol.str() << "\n";
  std::vector<std::string> tunables;
  for (const auto& t : spec.tunables)
    tunables.push_back("-D" + t.name + " in {" + join(t.values, ",") + "}");
  for (const auto& a : spec.args) {
    std::vector<std::string> values;
    for (auto v : a.tunable) values.push_back(std::to_string(v));
    if (!values.empty()) tunables.push_back(a.name + " in {" + join(values, ",") + "}");
  }
  if (!tunables.empty()) out << "  tunables   " << join(tunables, "; ") << "\n";
  if (!spec.constants.empty()) {
    std::vector<std::string> constants;
    for (const auto& [name, value] : spec.constants)
      constants.push_back(name + " = " + std::to_string(value));
    out << "  constants  " << join(constants, ", ") << "\n";
  }
  if (!spec.preconditions.empty()) {
    std::vector<std::string> conditions;
    for (const auto& p : spec.preconditions) conditions.push_back(p.text());
    out << "  requires   " << join(conditions, "; ") << "\n";
  }
  out << "  sizes      " << std::left << std::setw(28) << "" << std::right << std::setw(12)
      << "min bytes" << std::setw(14) << "flops"
      << "\n";
  for (std::size_t i = 0; i < plan.sizes.size(); ++i) {
    const auto& s = plan.sizes[i];
    out << "    " << std::left << std::setw(36) << size_label(spec, spec.sizes[i]) << std::right
        << std::setw(12) << format_bytes(s.min_bytes()) << std::setw(14)
        << (s.flops ? format_flops(*s.flops) : "-") << (i == 0 ? "   timed" : "   verify") << "\n";
  }
  for (const auto& [size, why] : spec.left_out)
    out << "    " << std::left << std::setw(36) << size_label(spec, size) << std::right
        << "left out: " << why << "\n";
}

}  // namespace kblaster
