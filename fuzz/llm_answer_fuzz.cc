// libFuzzer target: a model's answer, which is untrusted text, through every reader of it:
// extract_code (for a plain and a namespaced launcher), parse_review, lesson_text, and the
// signature check of the answer against itself. Beyond not crashing: extracted code is
// within kMaxAnswerCodeBytes with LF line ends, and a refusal says why; a review is yes, no
// or unreadable with a bounded reason; a lesson is within kMaxLessonBytes and is UTF-8 when
// the answer is; and a source never changes its own launcher's signature.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz_check.h"
#include "llm/answer_code.h"
#include "llm/prose_bound.h"
#include "llm/review_verdict.h"
#include "llm/signature_check.h"

namespace {

// Whether `text` is well-formed UTF-8 (overlong forms and surrogates aside).
bool is_utf8(std::string_view text) {
  for (std::size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    const std::size_t n = c < 0x80         ? 1
                          : (c >> 5) == 6  ? 2
                          : (c >> 4) == 14 ? 3
                          : (c >> 3) == 30 ? 4
                                           : 0;
    if (n == 0 || i + n > text.size()) return false;
    for (std::size_t k = 1; k < n; ++k)
      if ((static_cast<unsigned char>(text[i + k]) & 0xC0) != 0x80) return false;
    i += n;
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace kblaster;
  const std::string answer(reinterpret_cast<const char*>(data), size);
  for (const char* launcher : {"launch", "ns::launch"}) {
    const AnswerCode code = extract_code(answer, launcher);
    if (code.ok() && code.code.size() > kMaxAnswerCodeBytes) fuzz_bug("code over its bound");
    if (code.ok() && code.code.find('\r') != std::string::npos) fuzz_bug("a CR in the code");
    if (!code.ok() && code.reason.empty()) fuzz_bug("a refusal without a reason");
  }
  const ReviewVerdict review = parse_review(answer);
  if (review.reason.empty() || review.reason.size() > kMaxReviewReasonBytes + 200)
    fuzz_bug("a review reason empty or unbounded");
  if (review.accepts() != (review.answer == ReviewAnswer::yes)) fuzz_bug("accepts() is not yes");
  const std::string lesson = lesson_text(answer);
  if (lesson.size() > kMaxLessonBytes) fuzz_bug("a lesson over kMaxLessonBytes");
  if (is_utf8(answer) && !is_utf8(lesson)) fuzz_bug("a lesson cut inside a character");
  if (launcher_signature_change(answer, answer, "launch").has_value())
    fuzz_bug("a source changes its own launcher's signature");
  return 0;
}
