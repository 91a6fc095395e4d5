// Typed reads of a saved result's fields, each error naming the file and the field:
// "r.json: field `kernels[2].timing.ratio`: expected a number, found a string".
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"

namespace kblaster {

// A position in a result's JSON. Holds a pointer into the document, which must
// outlive it; a missing field is a JsonField that is not present.
class JsonField {
 public:
  JsonField(const nlohmann::json& root, std::string origin);

  // The member `key` of this object (absent when this is no object or lacks it).
  JsonField operator[](std::string_view key) const;
  // Present and not null.
  bool present() const { return value_ && !value_->is_null(); }
  const std::string& path() const { return path_; }

  Result<std::string> string() const;
  Result<double> number() const;
  Result<bool> boolean() const;
  // A non-negative integer, exactly (seeds are 64-bit).
  Result<std::uint64_t> unsigned_integer() const;
  // Absent or null reads nullopt; anything else must be a number.
  Result<std::optional<double>> optional_number() const;
  // Absent or null reads ""; anything else must be a string.
  Result<std::string> optional_string() const;
  // The elements of an array; absent or null is an empty list.
  Result<std::vector<JsonField>> items() const;
  // Error::usage "<origin>: field `<path>`: <problem>".
  Error error(std::string_view problem) const;

 private:
  JsonField(const nlohmann::json* value, std::string origin, std::string path)
      : value_(value), origin_(std::move(origin)), path_(std::move(path)) {}
  Error wrong_type(std::string_view expected) const;

  const nlohmann::json* value_;  // nullptr: absent
  std::string origin_, path_;
};

}  // namespace kblaster
