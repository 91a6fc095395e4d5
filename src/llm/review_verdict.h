// The answer to the review prompt (kb/prompts/review.md): a first line `VERDICT: yes` or
// `VERDICT: no`, then the reason. It decides whether a candidate may be proposed.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace kblaster {

// Bytes of a review's reason that are kept.
inline constexpr std::size_t kMaxReviewReasonBytes = 1000;

// What a review said: yes (the candidate still computes the whole function), no, or
// nothing that could be read.
enum class ReviewAnswer { yes, no, unreadable };

// "yes", "no", "unreadable".
std::string_view review_answer_name(ReviewAnswer answer);

struct ReviewVerdict {
  ReviewAnswer answer = ReviewAnswer::unreadable;
  std::string reason;  // bound_prose'd; "unreadable review: …" when unreadable

  // Only a readable yes lets the candidate through; no and unreadable reject it.
  bool accepts() const { return answer == ReviewAnswer::yes; }
};

// The verdict of `text`, read from its first non-blank line: `VERDICT:` then yes or no, in
// any case, with Markdown emphasis, code marks or a heading mark around any of it
// (`**Verdict:** No`). The reason is the rest of that line and the lines after it, at most
// kMaxReviewReasonBytes. Anything else is unreadable. Pure; never throws.
ReviewVerdict parse_review(std::string_view text);

}  // namespace kblaster
