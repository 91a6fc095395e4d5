#include "llm/review_verdict.h"

#include <cctype>

#include "core/input_limits.h"
#include "llm/prose_bound.h"

namespace kblaster {
namespace {

bool is_mark(char c) { return c == '*' || c == '_' || c == '`'; }

// `line` without Markdown's emphasis and code marks, lower-cased.
std::string unmarked_lower(std::string_view line) {
  std::string out;
  for (const char c : line)
    if (!is_mark(c)) out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// `reason` without the punctuation and marks that joined it to the verdict ("no — it …").
std::string_view without_leading_punctuation(std::string_view reason) {
  for (bool cut = true; cut;) {
    cut = false;
    for (const std::string_view p : {"*", "_", "`", ".", ",", ":", ";", "-", " ", "—", "–"})
      if (reason.starts_with(p)) reason.remove_prefix(p.size()), cut = true;
  }
  return reason;
}

ReviewVerdict unreadable(std::string_view first_line) {
  return {ReviewAnswer::unreadable, "unreadable review: its first line, " +
                                        quote_input(first_line, 80) +
                                        ", is not `VERDICT: yes` or `VERDICT: no`"};
}

}  // namespace

std::string_view review_answer_name(ReviewAnswer answer) {
  switch (answer) {
    case ReviewAnswer::yes:
      return "yes";
    case ReviewAnswer::no:
      return "no";
    case ReviewAnswer::unreadable:
      return "unreadable";
  }
  return "unreadable";
}

ReviewVerdict parse_review(std::string_view text) {
  const auto start = text.find_first_not_of(" \t\r\n");
  if (start == std::string_view::npos) return unreadable("");
  text.remove_prefix(start);
  const auto newline = text.find_first_of("\r\n");
  const auto first = text.substr(0, newline);
  const auto rest = newline == std::string_view::npos ? std::string_view() : text.substr(newline);
  const std::string plain = unmarked_lower(first);
  auto after = std::string_view(plain);
  after.remove_prefix(std::min(after.find_first_not_of("#> \t"), after.size()));
  constexpr std::string_view kKey = "verdict";
  if (!after.starts_with(kKey)) return unreadable(first);
  after.remove_prefix(kKey.size());
  after.remove_prefix(std::min(after.find_first_not_of(" \t"), after.size()));
  if (!after.starts_with(':')) return unreadable(first);
  after.remove_prefix(1);
  after.remove_prefix(std::min(after.find_first_not_of(" \t"), after.size()));
  ReviewAnswer answer = ReviewAnswer::unreadable;
  std::size_t word = 0;
  if (after.starts_with("yes")) answer = ReviewAnswer::yes, word = 3;
  if (after.starts_with("no")) answer = ReviewAnswer::no, word = 2;
  if (answer == ReviewAnswer::unreadable ||
      (after.size() > word && std::isalnum(static_cast<unsigned char>(after[word]))))
    return unreadable(first);
  // The reason, in its own case: what follows the word on the first line (`first` less as
  // many unmarked characters as `plain` had up to the word's end), then the lines after.
  auto tail = first;
  for (std::size_t left = plain.size() - after.size() + word; !tail.empty() && left > 0;
       tail.remove_prefix(1))
    if (!is_mark(tail.front())) --left;
  std::string reason(without_leading_punctuation(
      bound_prose(std::string(tail) + std::string(rest), kMaxReviewReasonBytes)));
  if (reason.empty()) reason = "the review gave no reason";
  return {answer, std::move(reason)};
}

}  // namespace kblaster
