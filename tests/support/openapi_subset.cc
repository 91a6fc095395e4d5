#include "support/openapi_subset.h"

#include <set>
#include <utility>

namespace kblaster::testing {

namespace {

using nlohmann::json;

bool selected(const std::string& path, const std::vector<std::string>& wanted) {
  for (const auto& w : wanted) {
    if (!w.empty() && w.back() == '*' ? path.rfind(w.substr(0, w.size() - 1), 0) == 0 : path == w)
      return true;
  }
  return false;
}

}  // namespace

json openapi_subset(const json& description, const std::vector<std::string>& wanted) {
  json out = json::object();
  for (const auto& [key, value] : description.items())
    if (key != "paths" && key != "components" && key != "webhooks" && key != "x-webhooks")
      out[key] = value;
  out["paths"] = json::object();
  static const json kNone = json::object();
  const json& paths = description.contains("paths") ? description["paths"] : kNone;
  for (const auto& [path, item] : paths.items())
    if (selected(path, wanted)) out["paths"][path] = item;

  // Every "#/components/<section>/<name>" reached from the kept paths, breadth first
  // over an explicit stack (no recursion as deep as the description nests).
  const json& components = description.contains("components") ? description["components"] : kNone;
  out["components"] = json::object();
  std::set<std::pair<std::string, std::string>> seen;
  std::vector<const json*> todo = {&out["paths"]};
  while (!todo.empty()) {
    const json* node = todo.back();
    todo.pop_back();
    if (node->is_array()) {
      for (const json& child : *node) todo.push_back(&child);
      continue;
    }
    if (!node->is_object()) continue;
    for (const auto& [key, child] : node->items()) {
      if (key != "$ref" || !child.is_string()) {
        todo.push_back(&child);
        continue;
      }
      const std::string ref = child;
      const std::string prefix = "#/components/";
      const auto slash = ref.find('/', prefix.size());
      if (ref.rfind(prefix, 0) != 0 || slash == std::string::npos) continue;
      const std::string section = ref.substr(prefix.size(), slash - prefix.size());
      const std::string name = ref.substr(slash + 1);
      if (!components.contains(section) || !components[section].contains(name)) continue;
      if (!seen.insert({section, name}).second) continue;
      todo.push_back(&components[section][name]);
    }
  }
  for (const auto& [section, name] : seen)
    out["components"][section][name] = components[section][name];
  return out;
}

}  // namespace kblaster::testing
