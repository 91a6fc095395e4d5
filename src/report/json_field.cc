#include "report/json_field.h"

namespace kblaster {

JsonField::JsonField(const nlohmann::json& root, std::string origin)
    : value_(&root), origin_(std::move(origin)) {}

JsonField JsonField::operator[](std::string_view key) const {
  std::string path = path_.empty() ? std::string(key) : path_ + "." + std::string(key);
  const nlohmann::json* child = nullptr;
  if (value_ && value_->is_object()) {
    auto it = value_->find(key);
    if (it != value_->end()) child = &*it;
  }
  return {child, origin_, std::move(path)};
}

Error JsonField::error(std::string_view problem) const {
  return Error::usage(origin_ + ": field `" + (path_.empty() ? "(top)" : path_) +
                      "`: " + std::string(problem));
}

Error JsonField::wrong_type(std::string_view expected) const {
  if (!value_) return error("missing; expected " + std::string(expected));
  return error("expected " + std::string(expected) + ", found " + value_->type_name());
}

Result<std::string> JsonField::string() const {
  if (!value_ || !value_->is_string()) return wrong_type("a string");
  return value_->get<std::string>();
}

Result<double> JsonField::number() const {
  if (!value_ || !value_->is_number()) return wrong_type("a number");
  return value_->get<double>();
}

Result<bool> JsonField::boolean() const {
  if (!value_ || !value_->is_boolean()) return wrong_type("true or false");
  return value_->get<bool>();
}

Result<std::uint64_t> JsonField::unsigned_integer() const {
  if (!value_ || !value_->is_number_integer() ||
      (!value_->is_number_unsigned() && value_->get<std::int64_t>() < 0))
    return wrong_type("a non-negative integer");
  return value_->get<std::uint64_t>();
}

Result<std::optional<double>> JsonField::optional_number() const {
  if (!present()) return std::optional<double>();
  auto n = number();
  if (!n) return n.error();
  return std::optional<double>(*n);
}

Result<std::string> JsonField::optional_string() const {
  if (!present()) return std::string();
  return string();
}

Result<std::vector<JsonField>> JsonField::items() const {
  std::vector<JsonField> out;
  if (!present()) return out;
  if (!value_->is_array()) return wrong_type("an array");
  for (std::size_t i = 0; i < value_->size(); ++i)
    out.push_back({&(*value_)[i], origin_, path_ + "[" + std::to_string(i) + "]"});
  return out;
}

}  // namespace kblaster
