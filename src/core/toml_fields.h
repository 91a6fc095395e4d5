// Typed, located access to the fields of one TOML table. Every error names the
// file:line:col of the offending value, the table it sits in, and the field.
#pragma once

#include <toml++/toml.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/kernel_spec.h"
#include "core/status.h"

namespace kblaster {

class TomlFields {
 public:
  // `context` names the table in messages, e.g. "kernel `softmax`"; the table must outlive this.
  TomlFields(const toml::table& table, std::string file, std::string context);

  // Fails on the first key not in `known`, suggesting the closest known one.
  Status check_known(const std::vector<std::string>& known) const;

  bool has(const std::string& key) const { return table_.contains(key); }
  const toml::node* node(const std::string& key) const { return table_.get(key); }

  Result<std::string> required_string(const std::string& key) const;
  // The table at `key` (a repository table such as [check]); nullptr when absent. A value
  // that is no table is an error at it: "expected a [key] table".
  Result<const toml::table*> table(const std::string& key) const;
  Result<std::optional<std::string>> string(const std::string& key) const;
  Result<std::optional<bool>> boolean(const std::string& key) const;
  Result<std::optional<double>> number(const std::string& key) const;          // integer or float
  Result<std::vector<std::string>> string_list(const std::string& key) const;  // absent -> {}
  // An integer expression (ShapeExpr): an integer, or a string such as "N*C";
  // absent -> nullopt. A parse error names where in the text it failed.
  Result<std::optional<ShapeExpr>> expression(const std::string& key) const;
  // One expression as above, or an array of them (a tensor's dimensions, at most
  // kMaxDimensions); absent -> {}.
  Result<std::vector<ShapeExpr>> expression_list(const std::string& key) const;

  // An error located at `key`'s value (or at the table when `key` is absent).
  Error error_at(const std::string& key, const std::string& message) const;
  // An error located at the table itself, for a missing field or a cross-field rule.
  Error error_here(const std::string& message) const;
  SourceLocation location_of(const std::string& key) const;
  // Where item `index` of the array at `key` was written; the key's location
  // when `key` is no array or has no such item.
  SourceLocation location_of_item(const std::string& key, std::size_t index) const;
  SourceLocation location() const { return locate(table_.source()); }
  const std::string& file() const { return file_; }
  const std::string& context() const { return context_; }

 private:
  SourceLocation locate(const toml::source_region& region) const;

  const toml::table& table_;
  std::string file_;
  std::string context_;
};

// "a string", "an integer", … for messages.
std::string toml_type_name(const toml::node& node);

}  // namespace kblaster
