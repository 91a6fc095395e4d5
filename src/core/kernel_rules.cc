#include "core/kernel_rules.h"

#include <algorithm>

#include "core/launch_plan.h"
#include "core/suggest.h"

namespace kblaster {
namespace {

const ArgSpec* find_arg(const KernelSpec& spec, const std::string& name) {
  for (const auto& a : spec.args)
    if (a.name == name) return &a;
  return nullptr;
}

std::vector<std::string> integer_scalars(const KernelSpec& spec) {
  std::vector<std::string> out;
  for (const auto& a : spec.args)
    if (!a.is_buffer() && !is_floating(a.type)) out.push_back(a.name);
  return out;
}

// Scalars that take their value from `sizes`: integer, not fixed, not tunable.
std::vector<std::string> free_scalars(const KernelSpec& spec) {
  std::vector<std::string> out;
  for (const auto& a : spec.args)
    if (!a.is_buffer() && !is_floating(a.type) && !a.value && a.tunable.empty())
      out.push_back(a.name);
  return out;
}

// Why `name` cannot appear in a shape or flops expression, or "" if it can.
std::string unusable_in_expr(const KernelSpec& spec, const std::string& name) {
  if (spec.constants.count(name)) return "";
  const ArgSpec* a = find_arg(spec, name);
  if (!a) {
    auto known = integer_scalars(spec);
    for (const auto& [constant, value] : spec.constants) known.push_back(constant);
    return "`" + name + "`, which is not an argument or a constant" + did_you_mean(name, known);
  }
  if (a->is_buffer()) return "`" + name + "`, which is a buffer, not a scalar";
  if (!a->tunable.empty())
    return "`" + name + "`, which is tunable; sizes cannot depend on what the search sets";
  if (is_floating(a->type))
    return "`" + name + "`, a " + std::string(dtype_name(a->type)) +
           " scalar; only integer scalars can size things";
  return "";
}

Status check_constants(const TomlFields& f, const KernelSpec& spec) {
  for (const auto& [name, value] : spec.constants)
    if (find_arg(spec, name))
      return f.error_at("constants", "`" + name +
                                         "` is also an argument; a constant needs a name of its "
                                         "own");
  return Ok{};
}

// `state(NAME)` fills an input from a PyTorch module's own tensor: only such a reference has
// one, the kernel may not change it, and it is converted to `type` directly.
Status check_state_inits(const TomlFields& f, const KernelSpec& spec) {
  for (std::size_t i = 0; i < spec.args.size(); ++i) {
    const ArgSpec& a = spec.args[i];
    if (!a.is_buffer() || a.init.kind != InitDist::Kind::state) continue;
    const std::string context = f.context() + ": args[" + std::to_string(i) + "] (`" + a.name +
                                "`): field `init`: `" + a.init.text + "` ";
    if (spec.reference.kind != ReferenceSpec::Kind::python)
      return Error::config(a.where.str(), context +
                                              "names a tensor of a PyTorch Model, which needs a "
                                              "PyTorch reference (reference = \"ref.py:Model\")");
    if (a.role != ArgRole::in)
      return Error::config(a.where.str(), context +
                                              "is the module's own, which the kernel may read "
                                              "but not change: its role must be \"in\"");
    if (a.reference_type)
      return Error::config(a.where.str(), context +
                                              "is converted from the module's tensor to `type` "
                                              "directly; it takes no `reference_type`");
  }
  return Ok{};
}

// `reference_type` converts a buffer for a CPU or PyTorch reference, which take host copies; a
// GPU reference or the base revision is handed the kernel's own device buffers.
Status check_reference_types(const TomlFields& f, const KernelSpec& spec) {
  for (std::size_t i = 0; i < spec.args.size(); ++i) {
    const ArgSpec& a = spec.args[i];
    if (a.is_buffer() && a.init.kind == InitDist::Kind::generator &&
        spec.reference.kind != ReferenceSpec::Kind::cpu)
      return Error::config(a.where.str(),
                           f.context() + ": args[" + std::to_string(i) + "] (`" + a.name +
                               "`): field `init`: `" + a.init.text +
                               "` names a function in the reference's file, which needs a CPU "
                               "reference to hold it (reference_on = \"cpu\", or a .cpp file)");
    if (!a.reference_type) continue;
    const std::string context = f.context() + ": args[" + std::to_string(i) + "] (`" + a.name +
                                "`): field `reference_type`: ";
    if (!a.is_buffer())
      return Error::config(a.where.str(), context +
                                              "only buffers are converted for the "
                                              "reference; a scalar is passed as it is");
    if (spec.reference.kind != ReferenceSpec::Kind::cpu &&
        spec.reference.kind != ReferenceSpec::Kind::python)
      return Error::config(
          a.where.str(),
          context +
              "needs a CPU or PyTorch reference, which take host copies it can convert; this "
              "kernel's reference " +
              (spec.reference.kind == ReferenceSpec::Kind::gpu
                   ? std::string("runs on the GPU (reference_on = \"cpu\" if it does not)")
                   : std::string("is the base revision")));
  }
  return Ok{};
}

Status check_shapes(const TomlFields& f, const KernelSpec& spec) {
  bool has_output = false;
  for (std::size_t i = 0; i < spec.args.size(); ++i) {
    const ArgSpec& a = spec.args[i];
    const std::string context =
        f.context() + ": args[" + std::to_string(i) + "] (`" + a.name + "`)";
    has_output = has_output || (a.is_buffer() && a.is_written());
    if (!a.is_buffer() && is_floating(a.type) && !a.value)
      return Error::config(a.where.str(), context + ": a " + std::string(dtype_name(a.type)) +
                                              " scalar needs a fixed `value`");
    if (!a.is_buffer()) continue;
    for (const auto& n : a.shape->names())
      if (auto why = unusable_in_expr(spec, n); !why.empty())
        return Error::config(a.where.str(),
                             context + ": field `shape`: `" + a.shape->text() + "` uses " + why);
  }
  if (!has_output)
    return f.error_at(
        "args", "no argument is written: give at least one buffer role = \"out\" or \"inout\"");
  return Ok{};
}

// The expression at `key` (flops, min_bytes), over the kernel's integer scalars; nullopt when
// absent.
Result<std::optional<ShapeExpr>> parse_scalar_expression(const TomlFields& f,
                                                         const KernelSpec& spec,
                                                         const std::string& key) {
  auto expr = f.expression(key);
  if (!expr) return expr.error();
  if (!*expr) return std::optional<ShapeExpr>();
  for (const auto& name : (*expr)->names())
    if (auto why = unusable_in_expr(spec, name); !why.empty())
      return f.error_at(key, "`" + (*expr)->text() + "` uses " + why);
  return std::move(*expr);
}

Status parse_flops(const TomlFields& f, KernelSpec& spec) {
  auto flops = parse_scalar_expression(f, spec, "flops");
  if (!flops) return flops.error();
  spec.flops = std::move(*flops);
  auto min_bytes = parse_scalar_expression(f, spec, "min_bytes");
  if (!min_bytes) return min_bytes.error();
  spec.min_bytes = std::move(*min_bytes);
  return Ok{};
}

// `requires`: each a comparison over integer scalars (tunable ones too), integer -D tunables
// and constants.
Status parse_requires(const TomlFields& f, KernelSpec& spec) {
  auto texts = f.string_list("requires");
  if (!texts) return texts.error();
  std::vector<std::string> known = integer_scalars(spec);
  for (const auto& [name, value] : spec.constants) known.push_back(name);
  for (const auto& t : spec.tunables) known.push_back(t.name);
  for (const auto& text : *texts) {
    auto p = Precondition::parse(text);
    if (!p) return f.error_at("requires", p.error().message);
    for (const auto& name : p->names())
      if (std::find(known.begin(), known.end(), name) == known.end())
        return f.error_at("requires", "`" + text + "` uses `" + name +
                                          "`, which is not an integer scalar, a -D tunable or a "
                                          "constant" +
                                          did_you_mean(name, known));
    spec.preconditions.push_back(std::move(*p));
  }
  return Ok{};
}

// Sorts each declared size into spec.sizes or spec.left_out by `requires` (tunables at their
// defaults); a kernel that accepts none is a config error.
Status accept_sizes(const TomlFields& f, KernelSpec& spec) {
  spec.declared_sizes = spec.sizes;
  spec.sizes.clear();
  for (const auto& size : spec.declared_sizes) {
    if (auto why = first_broken(spec.preconditions, precondition_scalars(spec, size)))
      spec.left_out.emplace_back(size, "requires " + *why);
    else
      spec.sizes.push_back(size);
  }
  if (spec.sizes.empty())
    return f.error_at(f.node("sizes") ? "sizes" : "requires",
                      "no size meets `requires`: " + spec.left_out.front().second.substr(9) +
                          " at " + size_label(spec, spec.left_out.front().first));
  return Ok{};
}

// A module's own tensor has one shape whatever the size: the module is built once.
Status check_state_sizes(const TomlFields& f, const KernelSpec& spec) {
  if (spec.sizes.size() < 2) return Ok{};
  auto plan = plan_kernel(spec);
  if (!plan) return Ok{};  // said where the plan is made
  std::size_t buffer = 0;
  for (std::size_t i = 0; i < spec.args.size(); ++i) {
    const ArgSpec& a = spec.args[i];
    if (!a.is_buffer()) continue;
    const std::size_t b = buffer++;
    if (a.init.kind != InitDist::Kind::state) continue;
    const std::int64_t first = plan->sizes.front().buffers.at(b).elements;
    for (std::size_t k = 1; k < plan->sizes.size(); ++k) {
      const std::int64_t other = plan->sizes[k].buffers.at(b).elements;
      if (other == first) continue;
      return Error::config(
          a.where.str(),
          f.context() + ": args[" + std::to_string(i) + "] (`" + a.name + "`): field `shape`: `" +
              a.shape->text() + "` holds the module's `" + a.init.state +
              "`, which is built once, so it must have the same element count at every size; it "
              "has " +
              std::to_string(first) + " at " + size_label(spec, spec.sizes.front()) + " and " +
              std::to_string(other) + " at " + size_label(spec, spec.sizes[k]));
    }
  }
  return Ok{};
}

Status parse_sizes(const TomlFields& f, KernelSpec& spec) {
  const auto free = free_scalars(spec);
  const toml::node* n = f.node("sizes");
  if (!n) {
    if (!free.empty())
      return f.error_here("missing required field `sizes` (it must set `" + free.front() + "`)");
    spec.sizes = {{}};
    return Ok{};
  }
  const toml::array* arr = n->as_array();
  if (!arr || arr->empty())
    return f.error_at("sizes", "expected a non-empty array of tables like { N = 1024 }");
  for (std::size_t i = 0; i < arr->size(); ++i) {
    const toml::table* t = arr->get(i)->as_table();
    std::string where = "sizes[" + std::to_string(i) + "]";
    if (!t) return f.error_at("sizes", where + " must be a table like { N = 1024 }");
    TomlFields entry(*t, f.file(), f.context() + ": " + where);
    std::map<std::string, std::int64_t> binding;
    for (const auto& [key, value] : *t) {
      std::string name(key.str());
      if (std::find(free.begin(), free.end(), name) == free.end()) {
        const ArgSpec* a = find_arg(spec, name);
        std::string why = spec.constants.count(name) ? "is a constant; it has one value"
                          : !a                  ? "is not an argument" + did_you_mean(name, free)
                          : a->is_buffer()      ? "is a buffer"
                          : !a->tunable.empty() ? "is tunable; the search sets it"
                          : a->value            ? "has a fixed `value`"
                                                : "is not an integer scalar";
        return entry.error_at(name, "`" + name + "` " + why);
      }
      if (!value.is_integer())
        return entry.error_at(name, "expected an integer, got " + toml_type_name(value));
      const std::int64_t v = value.as_integer()->get();
      const DType type = find_arg(spec, name)->type;
      if (!fits_integer(type, v))
        return entry.error_at(
            name, std::to_string(v) + " does not fit in " + std::string(dtype_name(type)));
      binding[name] = v;
    }
    for (const auto& name : free)
      if (!binding.count(name)) return f.error_at("sizes", where + " does not set `" + name + "`");
    auto plan = plan_size(spec, binding);
    if (!plan) return f.error_at("sizes", where + ": " + plan.error().message);
    spec.sizes.push_back(std::move(binding));
  }
  return Ok{};
}

Status parse_tolerance(const TomlFields& f, KernelSpec& spec) {
  spec.tolerance = {};
  for (const auto& a : spec.args)
    if (a.is_buffer() && a.is_written()) {
      auto t = default_tolerance(a.type);
      spec.tolerance.rtol = std::max(spec.tolerance.rtol, t.rtol);
      spec.tolerance.atol = std::max(spec.tolerance.atol, t.atol);
    }
  const toml::node* n = f.node("tolerance");
  if (!n) return Ok{};
  const toml::table* t = n->as_table();
  if (!t) return f.error_at("tolerance", "expected a table like { rtol = 1e-4, atol = 1e-5 }");
  TomlFields tol(*t, f.file(), f.context() + ": tolerance");
  KB_TRY(tol.check_known({"rtol", "atol"}));
  for (const char* key : {"rtol", "atol"}) {
    auto v = tol.number(key);
    if (!v) return v.error();
    if (!v->has_value()) continue;
    if (!(**v >= 0)) return tol.error_at(key, "must be zero or positive");
    (std::string(key) == "rtol" ? spec.tolerance.rtol : spec.tolerance.atol) = **v;
  }
  spec.tolerance_is_default = false;
  return Ok{};
}

}  // namespace

Status apply_kernel_rules(const TomlFields& f, KernelSpec& spec) {
  KB_TRY(check_constants(f, spec));
  KB_TRY(check_state_inits(f, spec));
  KB_TRY(check_reference_types(f, spec));
  KB_TRY(check_shapes(f, spec));
  KB_TRY(parse_flops(f, spec));
  KB_TRY(parse_sizes(f, spec));
  KB_TRY(parse_requires(f, spec));
  KB_TRY(accept_sizes(f, spec));
  KB_TRY(check_state_sizes(f, spec));
  KB_TRY(parse_tolerance(f, spec));
  return Ok{};
}

}  // namespace kblaster
