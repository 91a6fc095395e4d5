#include "core/kernel_constants.h"

#include "core/identifier.h"

namespace kblaster {

Result<KernelConstants> parse_constants(const TomlFields& f) {
  KernelConstants out;
  const toml::node* n = f.node("constants");
  if (!n) return out;
  const toml::table* t = n->as_table();
  if (!t) return f.error_at("constants", "expected a table of integers like { V = 50257 }");
  for (const auto& [key, value] : *t) {
    const std::string name(key.str());
    if (auto why = name_problem(name, NameKind::argument)) return f.error_at("constants", *why);
    if (!value.is_integer())
      return f.error_at("constants",
                        "`" + name + "` must be an integer, got " + toml_type_name(value));
    out[name] = value.as_integer()->get();
  }
  return out;
}

}  // namespace kblaster
