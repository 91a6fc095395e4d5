#include "llm/answer_code.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <vector>

#include "llm/launcher_definition.h"

namespace kblaster {
namespace {

constexpr std::array<std::string_view, 5> kCodeTags{"cuda", "cu", "cpp", "c++", "c"};

std::string with_newlines(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '\r') {
      out += text[i];
    } else if (i + 1 >= text.size() || text[i + 1] != '\n') {
      out += '\n';  // a lone CR ends a line too
    }
  }
  return out;
}

// A fence line: up to three spaces, then three or more ` or ~, then the info string.
struct Fence {
  char mark = 0;
  std::size_t length = 0;
  std::string_view info;
};

std::optional<Fence> fence_of(std::string_view line) {
  std::size_t i = 0;
  while (i < line.size() && i < 3 && line[i] == ' ') ++i;
  if (i >= line.size() || (line[i] != '`' && line[i] != '~')) return std::nullopt;
  const char mark = line[i];
  std::size_t end = i;
  while (end < line.size() && line[end] == mark) ++end;
  if (end - i < 3) return std::nullopt;
  auto info = line.substr(end);
  if (mark == '`' && info.find('`') != std::string_view::npos) return std::nullopt;
  while (!info.empty() && std::isspace(static_cast<unsigned char>(info.front())))
    info.remove_prefix(1);
  while (!info.empty() && std::isspace(static_cast<unsigned char>(info.back())))
    info.remove_suffix(1);
  return Fence{mark, end - i, info};
}

bool is_code_tag(std::string_view info) {
  const auto word = info.substr(0, info.find_first_of(" \t:{"));
  std::string lower;
  for (const char c : word) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return lower.empty() || std::find(kCodeTags.begin(), kCodeTags.end(), lower) != kCodeTags.end();
}

AnswerCode refused(AnswerFault fault, std::string reason) {
  return {.fault = fault, .code = {}, .reason = std::move(reason)};
}

struct Blocks {
  std::vector<std::string> code;  // the bodies of the code-tagged blocks, in order
  bool truncated = false;
};

Blocks code_blocks(std::string_view text) {
  Blocks blocks;
  std::optional<Fence> open;
  bool keep = false;
  std::string body;
  for (std::size_t begin = 0; begin < text.size();) {
    const auto newline = text.find('\n', begin);
    const auto end = newline == std::string_view::npos ? text.size() : newline;
    const auto line = text.substr(begin, end - begin);
    begin = end + 1;
    const auto fence = fence_of(line);
    if (!open) {
      if (fence) open = fence, keep = is_code_tag(fence->info), body.clear();
      continue;
    }
    if (fence && fence->mark == open->mark && fence->length >= open->length &&
        fence->info.empty()) {
      if (keep) blocks.code.push_back(std::move(body));
      open.reset();
      continue;
    }
    if (keep) body.append(line).append("\n");
  }
  blocks.truncated = open.has_value();
  return blocks;
}

bool is_blank(std::string_view code) {
  return std::all_of(code.begin(), code.end(),
                     [](char c) { return std::isspace(static_cast<unsigned char>(c)); });
}

}  // namespace

std::string_view answer_fault_name(AnswerFault fault) {
  switch (fault) {
    case AnswerFault::no_code_block:
      return "no_code_block";
    case AnswerFault::several_candidates:
      return "several_candidates";
    case AnswerFault::truncated:
      return "truncated";
    case AnswerFault::too_large:
      return "too_large";
  }
  return "unknown";
}

AnswerCode extract_code(std::string_view answer, std::string_view launcher) {
  if (answer.size() > kMaxAnswerBytes)
    return refused(AnswerFault::too_large, "the answer has " + std::to_string(answer.size()) +
                                               " bytes; at most " +
                                               std::to_string(kMaxAnswerBytes) + " are read");
  auto blocks = code_blocks(with_newlines(answer));
  if (blocks.truncated)
    return refused(AnswerFault::truncated,
                   "the answer ends inside a code block: it was cut short (truncated)");
  std::erase_if(blocks.code, is_blank);
  if (blocks.code.empty())
    return refused(AnswerFault::no_code_block,
                   "the answer has no fenced code block (```cuda … ```) with code in it");
  std::vector<std::string*> defining;
  for (auto& code : blocks.code)
    if (!launcher.empty() && !find_launcher_definitions(code, launcher).empty())
      defining.push_back(&code);
  if (blocks.code.size() > 1 && defining.size() != 1)
    return refused(AnswerFault::several_candidates,
                   "the answer has " + std::to_string(blocks.code.size()) + " code blocks and " +
                       std::to_string(defining.size()) + " of them define the launcher " +
                       std::string(launcher) + "; it should hold one, the whole file");
  std::string& code = blocks.code.size() == 1 ? blocks.code.front() : *defining.front();
  if (code.size() > kMaxAnswerCodeBytes)
    return refused(AnswerFault::too_large, "the answer's code has " + std::to_string(code.size()) +
                                               " bytes; at most " +
                                               std::to_string(kMaxAnswerCodeBytes) + " are used");
  return {.fault = std::nullopt, .code = std::move(code), .reason = {}};
}

}  // namespace kblaster
