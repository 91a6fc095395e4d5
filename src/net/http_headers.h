// HTTP header fields in the order they were added, looked up by name without regard to
// case (RFC 9110: field names are case-insensitive).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace kblaster {

class HttpHeaders {
 public:
  using Field = std::pair<std::string, std::string>;

  HttpHeaders() = default;
  HttpHeaders(std::initializer_list<Field> fields) : fields_(fields) {}

  // Appends a field; a name may repeat (as Set-Cookie does).
  void add(std::string name, std::string value);
  // Replaces every field named `name` with one holding `value`.
  void set(std::string_view name, std::string value);
  // The value of the first field named `name`, any case; nullopt when there is none.
  std::optional<std::string_view> find(std::string_view name) const;
  bool contains(std::string_view name) const { return find(name).has_value(); }

  const std::vector<Field>& fields() const { return fields_; }

 private:
  std::vector<Field> fields_;
};

// Whether two ASCII strings are equal ignoring case.
bool equals_ignoring_case(std::string_view a, std::string_view b);

}  // namespace kblaster
