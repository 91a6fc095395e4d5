#include "core/text_join.h"

namespace kblaster {

std::string join_texts(const std::vector<std::string>& items, std::string_view separator) {
  std::string out;
  for (const auto& item : items) {
    if (!out.empty()) out += separator;
    out += item;
  }
  return out;
}

std::string first_line(std::string_view text, std::size_t max_chars) {
  std::string line(text.substr(0, text.find('\n')));
  if (line.size() > max_chars && max_chars >= 3) line = line.substr(0, max_chars - 3) + "...";
  return line;
}

}  // namespace kblaster
