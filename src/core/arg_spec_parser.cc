#include "core/arg_spec_parser.h"

#include <cmath>

#include "core/identifier.h"
#include "core/init_distribution.h"
#include "core/suggest.h"
#include "core/toml_fields.h"

namespace kblaster {
namespace {

const std::vector<std::string> kArgFields = {"name", "type",  "shape",   "role",
                                             "init", "value", "tunable", "reference_type"};
const std::vector<std::string> kRoles = {"in", "out", "inout"};

InitDist default_init(DType t) {
  if (is_floating(t)) return {InitDist::Kind::normal, 0.0, 1.0, "normal"};
  if (t == DType::boolean) return {InitDist::Kind::randint, 0, 2, "randint(0,2)"};
  return {InitDist::Kind::randint, 0, 100, "randint(0,100)"};
}

std::string out_of_range(std::int64_t v, DType t) {
  return std::to_string(v) + " does not fit in " + std::string(dtype_name(t));
}

Status check_init_type(const TomlFields& f, const InitDist& init, DType type) {
  // Any type: the function writes it, or the module's tensor is converted to it.
  if (init.kind == InitDist::Kind::generator || init.kind == InitDist::Kind::state) return Ok{};
  bool integral = !is_floating(type);
  if (integral && init.kind != InitDist::Kind::randint)
    return f.error_at("init", "`" + init.text + "` gives fractions, but the type is " +
                                  std::string(dtype_name(type)) + "; use randint(lo,hi)");
  if (!integral && init.kind == InitDist::Kind::randint)
    return f.error_at("init", "randint is for integer types; use normal or uniform(lo,hi)");
  return Ok{};
}

}  // namespace

Result<ArgSpec> parse_arg(const toml::table& table, const std::string& file,
                          const std::string& context, std::size_t index,
                          const std::map<std::string, std::int64_t>& constants) {
  std::string where = context + ": args[" + std::to_string(index) + "]";
  TomlFields unnamed(table, file, where);
  KB_TRY(unnamed.check_known(kArgFields));
  ArgSpec arg;
  arg.where = unnamed.location();
  auto name = unnamed.required_string("name");
  if (!name) return name.error();
  if (auto why = name_problem(*name, NameKind::argument)) return unnamed.error_at("name", *why);
  arg.name = *name;
  TomlFields f(table, file, where + " (`" + arg.name + "`)");

  auto type = f.required_string("type");
  if (!type) return type.error();
  auto dtype = parse_dtype(*type);
  if (!dtype)
    return f.error_at("type", "unknown type `" + *type + "`" + did_you_mean(*type, dtype_names()));
  arg.type = *dtype;

  auto reference_type = f.string("reference_type");
  if (!reference_type) return reference_type.error();
  if (reference_type->has_value()) {
    auto rt = parse_dtype(**reference_type);
    if (!rt)
      return f.error_at("reference_type", "unknown type `" + **reference_type + "`" +
                                              did_you_mean(**reference_type, dtype_names()));
    if (is_floating(*rt) != is_floating(arg.type))
      return f.error_at("reference_type",
                        "the argument is " + std::string(dtype_name(arg.type)) +
                            " and the reference would take it as " + **reference_type +
                            ": conversions stay between floating-point types or between integer "
                            "types");
    // Integers convert exactly only into a wider signed type; anything else could overflow.
    const bool wider_signed = (*rt == DType::i16 || *rt == DType::i32 || *rt == DType::i64) &&
                              dtype_size(*rt) > dtype_size(arg.type);
    if (!is_floating(*rt) && *rt != arg.type && !wider_signed)
      return f.error_at("reference_type",
                        "an integer reference type must be the argument's own or a wider signed "
                        "one, which holds every value of " +
                            std::string(dtype_name(arg.type)) + "; " + **reference_type +
                            " does not");
    arg.reference_type = *rt;
  }

  auto shape = f.expression_list("shape");
  if (!shape) return shape.error();
  if (shape->size() == 1) {
    arg.shape = std::move(shape->front());
  } else if (!shape->empty()) {
    // The element count is the product of the dimensions, each in parentheses.
    std::string product;
    for (const auto& d : *shape) product += (product.empty() ? "(" : "*(") + d.text() + ")";
    auto count = ShapeExpr::parse(product);
    if (!count) return f.error_at("shape", count.error().message);
    arg.shape = std::move(*count);
    arg.dims = std::move(*shape);
  }
  auto role = f.string("role");
  if (!role) return role.error();
  if (role->has_value()) {
    const std::string& r = **role;
    if (r == "in")
      arg.role = ArgRole::in;
    else if (r == "out")
      arg.role = ArgRole::out;
    else if (r == "inout")
      arg.role = ArgRole::inout;
    else
      return f.error_at("role", "unknown role `" + r + "`" + did_you_mean(r, kRoles) +
                                    " (roles: in, out, inout)");
    if (!arg.is_buffer() && arg.role != ArgRole::in)
      return f.error_at("role", "a scalar (no `shape`) can only be an input");
  }

  arg.init = default_init(arg.type);
  auto init = f.string("init");
  if (!init) return init.error();
  if (init->has_value()) {
    if (!arg.is_buffer())
      return f.error_at("init", "only buffers (with a `shape`) are initialised");
    if (arg.role == ArgRole::out)
      return f.error_at("init",
                        "an output is poisoned before each launch, not initialised; use role = "
                        "\"inout\" to give it initial values");
    auto dist = parse_init(**init, constants);
    if (!dist) return f.error_at("init", dist.error().message);
    arg.init = *dist;
    KB_TRY(check_init_type(f, arg.init, arg.type));
    if (!is_floating(arg.type) && arg.init.kind != InitDist::Kind::generator &&
        arg.init.kind != InitDist::Kind::state &&
        (!fits_integer(arg.type, static_cast<std::int64_t>(arg.init.a)) ||
         !fits_integer(arg.type, static_cast<std::int64_t>(arg.init.b) - 1)))
      return f.error_at("init", "`" + arg.init.text + "` draws values that do not fit in " +
                                    std::string(dtype_name(arg.type)));
  }

  auto value = f.number("value");
  if (!value) return value.error();
  if (value->has_value()) {
    if (arg.is_buffer())
      return f.error_at("value",
                        "a buffer cannot have a fixed `value`; remove `shape` to make it a scalar");
    if (!is_floating(arg.type) && **value != std::floor(**value))
      return f.error_at("value", "an integer type needs an integer value");
    if (!is_floating(arg.type) && !fits_integer(arg.type, static_cast<std::int64_t>(**value)))
      return f.error_at("value", out_of_range(static_cast<std::int64_t>(**value), arg.type));
    arg.value = **value;
  }

  if (const toml::node* t = f.node("tunable")) {
    if (arg.is_buffer()) return f.error_at("tunable", "only scalar arguments can be tunable");
    if (arg.value)
      return f.error_at("tunable", "a scalar is either fixed (`value`) or `tunable`, not both");
    if (is_floating(arg.type))
      return f.error_at("tunable", "tunable arguments must have an integer type");
    const toml::array* arr = t->as_array();
    if (!arr || arr->empty())
      return f.error_at("tunable", "expected a non-empty array of integers");
    for (const auto& item : *arr) {
      if (!item.is_integer())
        return f.error_at("tunable", "expected integers, got " + toml_type_name(item));
      const std::int64_t v = item.as_integer()->get();
      if (!fits_integer(arg.type, v)) return f.error_at("tunable", out_of_range(v, arg.type));
      arg.tunable.push_back(v);
    }
  }
  return arg;
}

}  // namespace kblaster
