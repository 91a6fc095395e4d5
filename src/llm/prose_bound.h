// Model prose kept short: a lesson stored in the KB and shown in later prompts, a review's
// reason recorded with a rejection. Both are untrusted text of any length.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace kblaster {

// Bytes (so also characters) of a lesson: about four sentences, which later prompts show
// several of.
inline constexpr std::size_t kMaxLessonBytes = 600;

// `text` as one paragraph (each run of whitespace one space, none around it) of at most
// `max_bytes` bytes: whole when it fits; else cut after the last sentence ('.', '!' or '?'
// before a space) that ends in its second half, else at the last space with "…", else
// within a word with "…"; never inside a UTF-8 character.
std::string bound_prose(std::string_view text, std::size_t max_bytes);

// A gap analysis's answer as the lesson to store: bound_prose to kMaxLessonBytes, after
// leaving out a leading "Lesson:" label and fenced code blocks. Empty when the answer held none.
std::string lesson_text(std::string_view answer);

}  // namespace kblaster
