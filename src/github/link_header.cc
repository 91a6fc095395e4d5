#include "github/link_header.h"

#include <cctype>

namespace kblaster {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

// Whether the space-separated relation list `rels` holds "next", in any case.
bool has_next(std::string_view rels) {
  while (!rels.empty()) {
    rels = trim(rels);
    const std::size_t end = rels.find(' ');
    const std::string_view rel = rels.substr(0, end);
    if (rel.size() == 4 && std::tolower(static_cast<unsigned char>(rel[0])) == 'n' &&
        std::tolower(static_cast<unsigned char>(rel[1])) == 'e' &&
        std::tolower(static_cast<unsigned char>(rel[2])) == 'x' &&
        std::tolower(static_cast<unsigned char>(rel[3])) == 't')
      return true;
    rels = end == std::string_view::npos ? std::string_view() : rels.substr(end + 1);
  }
  return false;
}

}  // namespace

std::optional<std::string> next_page_url(std::string_view value) {
  while (true) {
    value = trim(value);
    if (value.empty() || value.front() != '<') return std::nullopt;
    const std::size_t close = value.find('>');
    if (close == std::string_view::npos) return std::nullopt;
    const std::string_view url = value.substr(1, close - 1);
    value.remove_prefix(close + 1);
    // Parameters up to the next link: `; name=value` or `; name="value"` (a quoted
    // value may hold ',' and ';').
    bool next = false;
    while (true) {
      value = trim(value);
      if (value.empty() || value.front() == ',') break;
      if (value.front() != ';') return std::nullopt;
      value = trim(value.substr(1));
      const std::size_t eq = value.find('=');
      if (eq == std::string_view::npos) return std::nullopt;
      const std::string_view name = trim(value.substr(0, eq));
      value = trim(value.substr(eq + 1));
      std::string_view param;
      if (!value.empty() && value.front() == '"') {
        const std::size_t end = value.find('"', 1);
        if (end == std::string_view::npos) return std::nullopt;
        param = value.substr(1, end - 1);
        value.remove_prefix(end + 1);
      } else {
        const std::size_t end = value.find_first_of(";,");
        param = trim(value.substr(0, end));
        value = end == std::string_view::npos ? std::string_view() : value.substr(end);
      }
      if (name == "rel" && has_next(param)) next = true;
    }
    if (next) return std::string(url);
    if (value.empty()) return std::nullopt;
    value.remove_prefix(1);  // the ','
  }
}

}  // namespace kblaster
