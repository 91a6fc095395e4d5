#include "net/http_headers.h"

#include <algorithm>

namespace kblaster {
namespace {

char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

}  // namespace

bool equals_ignoring_case(std::string_view a, std::string_view b) {
  return std::ranges::equal(a, b, [](char x, char y) { return lower(x) == lower(y); });
}

void HttpHeaders::add(std::string name, std::string value) {
  fields_.emplace_back(std::move(name), std::move(value));
}

void HttpHeaders::set(std::string_view name, std::string value) {
  std::erase_if(fields_, [&](const Field& f) { return equals_ignoring_case(f.first, name); });
  fields_.emplace_back(std::string(name), std::move(value));
}

std::optional<std::string_view> HttpHeaders::find(std::string_view name) const {
  for (const auto& [n, v] : fields_)
    if (equals_ignoring_case(n, name)) return std::string_view(v);
  return std::nullopt;
}

}  // namespace kblaster
