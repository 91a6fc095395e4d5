#include "core/toml_fields.h"

#include <algorithm>

#include "core/input_limits.h"
#include "core/suggest.h"

namespace kblaster {

std::string toml_type_name(const toml::node& node) {
  switch (node.type()) {
    case toml::node_type::string:
      return "a string";
    case toml::node_type::integer:
      return "an integer";
    case toml::node_type::floating_point:
      return "a float";
    case toml::node_type::boolean:
      return "a boolean";
    case toml::node_type::array:
      return "an array";
    case toml::node_type::table:
      return "a table";
    case toml::node_type::date:
    case toml::node_type::time:
    case toml::node_type::date_time:
      return "a date/time";
    case toml::node_type::none:
      break;
  }
  return "nothing";
}

TomlFields::TomlFields(const toml::table& table, std::string file, std::string context)
    : table_(table), file_(std::move(file)), context_(std::move(context)) {}

SourceLocation TomlFields::locate(const toml::source_region& region) const {
  return {file_, static_cast<int>(region.begin.line), static_cast<int>(region.begin.column)};
}

SourceLocation TomlFields::location_of(const std::string& key) const {
  const toml::node* n = table_.get(key);
  return n ? locate(n->source()) : location();
}

SourceLocation TomlFields::location_of_item(const std::string& key, std::size_t index) const {
  const toml::node* n = table_.get(key);
  const toml::array* arr = n ? n->as_array() : nullptr;
  if (!arr || index >= arr->size()) return location_of(key);
  return locate(arr->get(index)->source());
}

Error TomlFields::error_at(const std::string& key, const std::string& message) const {
  return Error::config(location_of(key).str(), context_ + ": field `" + key + "`: " + message);
}

Error TomlFields::error_here(const std::string& message) const {
  return Error::config(location().str(), context_ + ": " + message);
}

Status TomlFields::check_known(const std::vector<std::string>& known) const {
  for (const auto& [key, value] : table_) {
    std::string name(key.str());
    if (std::find(known.begin(), known.end(), name) != known.end()) continue;
    return Error::config(locate(key.source()).str(),
                         context_ + ": unknown field `" + name + "`" + did_you_mean(name, known));
  }
  return Ok{};
}

Result<const toml::table*> TomlFields::table(const std::string& key) const {
  const toml::node* n = table_.get(key);
  if (!n) return static_cast<const toml::table*>(nullptr);
  if (const toml::table* t = n->as_table()) return t;
  return error_at(key, "expected a [" + key + "] table");
}

Result<std::optional<std::string>> TomlFields::string(const std::string& key) const {
  const toml::node* n = table_.get(key);
  if (!n) return std::optional<std::string>{};
  if (auto s = n->value<std::string>(); s && n->is_string()) return std::optional<std::string>(*s);
  return error_at(key, "expected a string, got " + toml_type_name(*n));
}

Result<std::string> TomlFields::required_string(const std::string& key) const {
  auto s = string(key);
  if (!s) return s.error();
  if (!s->has_value()) return error_here("missing required field `" + key + "`");
  if ((*s)->empty()) return error_at(key, "must not be empty");
  return **s;
}

Result<std::optional<bool>> TomlFields::boolean(const std::string& key) const {
  const toml::node* n = table_.get(key);
  if (!n) return std::optional<bool>{};
  if (!n->is_boolean()) return error_at(key, "expected true or false, got " + toml_type_name(*n));
  return std::optional<bool>(n->as_boolean()->get());
}

Result<std::optional<double>> TomlFields::number(const std::string& key) const {
  const toml::node* n = table_.get(key);
  if (!n) return std::optional<double>{};
  if (n->is_integer()) return std::optional<double>(static_cast<double>(n->as_integer()->get()));
  if (n->is_floating_point()) return std::optional<double>(n->as_floating_point()->get());
  return error_at(key, "expected a number, got " + toml_type_name(*n));
}

Result<std::optional<ShapeExpr>> TomlFields::expression(const std::string& key) const {
  const toml::node* n = table_.get(key);
  if (!n) return std::optional<ShapeExpr>{};
  std::string text;
  if (n->is_integer())
    text = std::to_string(n->as_integer()->get());
  else if (n->is_string())
    text = n->as_string()->get();
  else
    return error_at(key, "expected an integer expression, got " + toml_type_name(*n));
  auto expr = ShapeExpr::parse(text);
  if (!expr)
    return error_at(key, quote_input(text, kMaxExpressionLength) + ": " + expr.error().message +
                             " at " + expr.error().where);
  return std::optional<ShapeExpr>(std::move(*expr));
}

Result<std::vector<ShapeExpr>> TomlFields::expression_list(const std::string& key) const {
  const toml::node* n = table_.get(key);
  std::vector<ShapeExpr> out;
  if (!n) return out;
  const toml::array* arr = n->as_array();
  if (!arr) {
    auto one = expression(key);
    if (!one) return one.error();
    out.push_back(std::move(**one));
    return out;
  }
  if (arr->empty()) return error_at(key, "expected at least one dimension, got []");
  if (arr->size() > kMaxDimensions)
    return error_at(key, std::to_string(arr->size()) + " dimensions; at most " +
                             std::to_string(kMaxDimensions) + " are accepted");
  for (std::size_t i = 0; i < arr->size(); ++i) {
    const toml::node& item = *arr->get(i);
    std::string text;
    if (item.is_integer())
      text = std::to_string(item.as_integer()->get());
    else if (item.is_string())
      text = item.as_string()->get();
    else
      return error_at(key, "[" + std::to_string(i) + "]: expected an integer expression, got " +
                               toml_type_name(item));
    auto expr = ShapeExpr::parse(text);
    if (!expr)
      return error_at(key, "[" + std::to_string(i) +
                               "]: " + quote_input(text, kMaxExpressionLength) + ": " +
                               expr.error().message + " at " + expr.error().where);
    out.push_back(std::move(*expr));
  }
  return out;
}

Result<std::vector<std::string>> TomlFields::string_list(const std::string& key) const {
  const toml::node* n = table_.get(key);
  if (!n) return std::vector<std::string>{};
  const toml::array* arr = n->as_array();
  if (!arr) return error_at(key, "expected an array of strings, got " + toml_type_name(*n));
  std::vector<std::string> out;
  for (std::size_t i = 0; i < arr->size(); ++i) {
    const toml::node& item = *arr->get(i);
    if (!item.is_string())
      return Error::config(locate(item.source()).str(),
                           context_ + ": field `" + key + "`[" + std::to_string(i) +
                               "]: expected a string, got " + toml_type_name(item));
    out.push_back(item.as_string()->get());
  }
  return out;
}

}  // namespace kblaster
