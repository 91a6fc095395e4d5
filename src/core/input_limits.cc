#include "core/input_limits.h"

namespace kblaster {
std::string quote_input(std::string_view text, std::size_t max_chars) {
  std::string out = "`";
  if (text.size() <= max_chars) {
    out += text;
  } else {
    std::size_t cut = max_chars > 3 ? max_chars - 3 : 0;
    // Do not split a UTF-8 sequence: back up over continuation bytes (10xxxxxx).
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
    out += text.substr(0, cut);
    out += "...";
  }
  return out + "`";
}

std::string too_long(std::string_view text, std::size_t limit, std::string_view what) {
  return quote_input(text) + " is " + std::to_string(text.size()) + " characters long; " +
         std::string(what) + " may have at most " + std::to_string(limit);
}

}  // namespace kblaster
