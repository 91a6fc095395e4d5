#include "llm/prose_bound.h"

#include <cctype>

#include "transform/source_text.h"

namespace kblaster {
namespace {

constexpr std::string_view kEllipsis = "…";

// The longest prefix of `text` of at most `max_bytes` that does not split a UTF-8 character.
std::size_t utf8_cut(std::string_view text, std::size_t max_bytes) {
  std::size_t end = max_bytes;
  while (end > 0 && end < text.size() && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80)
    --end;
  return end;
}

bool ends_sentence(char c) { return c == '.' || c == '!' || c == '?'; }

bool starts_with_label(std::string_view text, std::string_view label) {
  if (text.size() < label.size()) return false;
  for (std::size_t i = 0; i < label.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(text[i])) != label[i]) return false;
  return true;
}

}  // namespace

std::string bound_prose(std::string_view raw, std::size_t max_bytes) {
  std::string text = collapse_spaces(raw);
  if (text.size() <= max_bytes) return text;
  const std::string_view view(text);
  for (std::size_t end = max_bytes; end > max_bytes / 2; --end)  // after a whole sentence
    if (ends_sentence(view[end - 1]) && view[end] == ' ') return std::string(view.substr(0, end));
  if (max_bytes < kEllipsis.size()) return std::string(view.substr(0, utf8_cut(view, max_bytes)));
  const std::size_t room = max_bytes - kEllipsis.size();
  const auto space = view.substr(0, room + 1).rfind(' ');
  const std::size_t end =
      space != std::string_view::npos && space > room / 3 ? space : utf8_cut(view, room);
  return std::string(view.substr(0, end)) + std::string(kEllipsis);
}

std::string lesson_text(std::string_view answer) {
  std::string prose;
  bool in_code = false;
  for (std::size_t begin = 0; begin < answer.size();) {  // the lines outside fenced blocks
    const auto newline = answer.find('\n', begin);
    const auto end = newline == std::string_view::npos ? answer.size() : newline;
    const auto line = collapse_spaces(answer.substr(begin, end - begin));
    if (line.starts_with("```") || line.starts_with("~~~"))
      in_code = !in_code;
    else if (!in_code)
      prose += line + "\n";
    begin = end + 1;
  }
  std::string cleaned = collapse_spaces(prose);
  for (const std::string_view label : {"**lesson:**", "**lesson**:", "lesson:"})
    if (starts_with_label(cleaned, label)) {
      cleaned = cleaned.substr(label.size());
      break;
    }
  return bound_prose(cleaned, kMaxLessonBytes);
}

}  // namespace kblaster
