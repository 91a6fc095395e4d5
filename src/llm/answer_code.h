// The code of a model's answer: the fenced block that holds the whole rewritten file,
// found among whatever the model wrote around it. Answers are untrusted text.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace kblaster {

// Bytes of an answer that extract_code reads, and of the code it returns; a kernel source
// is a few KiB, a model's whole answer rarely 100 KiB.
inline constexpr std::size_t kMaxAnswerBytes = 2 * 1024 * 1024;
inline constexpr std::size_t kMaxAnswerCodeBytes = 1024 * 1024;

// Why an answer gave no code, with a stable name for records and counts.
enum class AnswerFault {
  no_code_block,  // no fenced block tagged cuda, cu, cpp, c++, c or untagged, or only empty ones
  several_candidates,  // several such blocks, and not exactly one defines the launcher
  truncated,           // the answer ends inside a fenced block
  too_large,           // the answer or its code is over kMaxAnswerBytes / kMaxAnswerCodeBytes
};

// "no_code_block", "several_candidates", "truncated", "too_large".
std::string_view answer_fault_name(AnswerFault fault);

// The code an answer holds, or why it holds none.
struct AnswerCode {
  std::optional<AnswerFault> fault;  // nullopt: `code` is the file
  std::string code;                  // with '\n' line ends and a final newline
  std::string reason;                // why not, as a sentence; empty when there is code

  bool ok() const { return !fault.has_value(); }
};

// The code of `answer`: the one fenced block (``` or ~~~, CommonMark's rules: up to three
// spaces before the fence, a closing fence of the same character at least as long) whose
// info string starts with cuda, cu, cpp, c++ or c (any case) or is empty; blocks of other
// languages are passed over. Among several, the one that defines `launcher`
// (find_launcher_definitions). CRLF and CR line ends read as LF. Pure; never throws.
AnswerCode extract_code(std::string_view answer, std::string_view launcher);

}  // namespace kblaster
