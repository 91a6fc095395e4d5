#include "llm/prompt_template.h"

#include <algorithm>

#include "core/bounded_read.h"
#include "core/input_limits.h"
#include "core/source_regions.h"

namespace kblaster {
namespace {

constexpr std::string_view kSystemMarker = "--- system ---";
constexpr std::string_view kUserMarker = "--- user ---";

std::string without_carriage_returns(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i)
    if (!(text[i] == '\r' && i + 1 < text.size() && text[i + 1] == '\n')) out += text[i];
  return out;
}

std::string_view trim_line(std::string_view line) {
  while (!line.empty() && (line.back() == ' ' || line.back() == '\t')) line.remove_suffix(1);
  return line;
}

// `text` without the blank lines before it and the whitespace after it: the file's layout,
// not the prompt's.
std::string_view trim_blank_lines(std::string_view text) {
  for (auto newline = text.find('\n'); newline != std::string_view::npos;
       newline = text.find('\n')) {
    if (text.substr(0, newline).find_first_not_of(" \t") != std::string_view::npos) break;
    text.remove_prefix(newline + 1);
  }
  while (!text.empty() && std::string_view(" \t\n").find(text.back()) != std::string_view::npos)
    text.remove_suffix(1);
  return text;
}

std::string at_line(const std::string& file, int line) { return file + ":" + std::to_string(line); }

}  // namespace

Result<PromptTemplate> PromptTemplate::parse(std::string_view raw, std::string file,
                                             std::string purpose) {
  const std::string text = without_carriage_returns(raw);
  struct Marker {
    std::size_t begin = std::string::npos;  // offset of the marker line
    std::size_t after = 0;                  // offset after its newline
    int line = 0;
  };
  Marker system, user;
  int line = 1;
  for (std::size_t begin = 0; begin < text.size(); ++line) {
    const auto newline = text.find('\n', begin);
    const auto end = newline == std::string::npos ? text.size() : newline;
    const auto content = trim_line(std::string_view(text).substr(begin, end - begin));
    Marker* marker = content == kSystemMarker ? &system : content == kUserMarker ? &user : nullptr;
    if (marker) {
      if (marker->begin != std::string::npos)
        return Error::config(at_line(file, line), "the line `" + std::string(content) +
                                                      "` appears twice; a template has one");
      *marker = {begin, std::min(end + 1, text.size()), line};
    }
    begin = end + 1;
  }
  if (system.begin == std::string::npos || user.begin == std::string::npos ||
      user.begin < system.begin)
    return Error::config(file, "a prompt template needs a line `" + std::string(kSystemMarker) +
                                   "` and, after it, a line `" + std::string(kUserMarker) + "`");
  PromptTemplate t;
  t.file_ = std::move(file);
  t.purpose_ = std::move(purpose);
  auto system_pieces =
      split_slots(std::string_view(text).substr(system.after, user.begin - system.after), t.file_,
                  system.line + 1);
  if (!system_pieces) return system_pieces.error();
  auto user_pieces = split_slots(std::string_view(text).substr(user.after), t.file_, user.line + 1);
  if (!user_pieces) return user_pieces.error();
  t.system_ = std::move(*system_pieces);
  t.user_ = std::move(*user_pieces);
  return t;
}

Result<PromptTemplate> PromptTemplate::load(const std::filesystem::path& file,
                                            std::string purpose) {
  auto text = read_bounded(file, kMaxPromptTemplateBytes, "the prompt template");
  if (!text) return text.error();
  return parse(*text, file.string(), std::move(purpose));
}

Result<PromptTemplate::Pieces> PromptTemplate::split_slots(std::string_view part,
                                                           const std::string& file,
                                                           int first_line) {
  Pieces pieces;
  std::size_t literal = 0;
  for (auto open = part.find("{{"); open != std::string_view::npos;
       open = part.find("{{", literal)) {
    const int line =
        first_line + static_cast<int>(std::count(part.begin(), part.begin() + open, '\n'));
    const auto close = part.find("}}", open + 2);
    std::size_t name_end = open + 2;
    while (name_end < part.size() && is_identifier_char(part[name_end])) ++name_end;
    const auto name = part.substr(open + 2, name_end - open - 2);
    if (close != name_end || name.empty())
      return Error::config(at_line(file, line), "`{{` must open a slot written {{name}}: " +
                                                    quote_input(part.substr(open, 40)));
    const auto slot = prompt_slot_named(name);
    if (!slot)
      return Error::config(at_line(file, line), "unknown slot {{" + std::string(name) + "}}");
    pieces.push_back({std::string(part.substr(literal, open - literal)), std::nullopt});
    pieces.push_back({{}, slot});
    literal = close + 2;
  }
  pieces.push_back({std::string(part.substr(literal)), std::nullopt});
  return pieces;
}

Result<std::string> PromptTemplate::fill(const Pieces& pieces, const PromptValues& values) const {
  std::string out;
  for (const auto& piece : pieces) {
    if (!piece.slot) {
      out += piece.text;
      continue;
    }
    const auto value = values.find(*piece.slot);
    if (value == values.end())
      return Error::config(file_, "slot {{" + std::string(prompt_slot_name(*piece.slot)) +
                                      "}} has no value for the " + purpose_ + " prompt");
    out += cap_slot_text(value->second, prompt_slot_cap(*piece.slot));
  }
  return std::string(trim_blank_lines(out));
}

Result<LlmRequest> PromptTemplate::render(const PromptValues& values) const {
  auto system = fill(system_, values);
  if (!system) return system.error();
  auto user = fill(user_, values);
  if (!user) return user.error();
  LlmRequest request;
  request.purpose = purpose_;
  request.system = std::move(*system);
  request.messages.push_back({.role = "user", .content = std::move(*user)});
  return request;
}

std::vector<PromptSlot> PromptTemplate::slots() const {
  std::vector<PromptSlot> used;
  for (const auto* pieces : {&system_, &user_})
    for (const auto& piece : *pieces)
      if (piece.slot && std::find(used.begin(), used.end(), *piece.slot) == used.end())
        used.push_back(*piece.slot);
  return used;
}

}  // namespace kblaster
