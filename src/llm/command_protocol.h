// The command backend's protocol, as pure functions: the request a program reads on its
// stdin, and how its stdout becomes an answer (docs/llm.md, "The command protocol").
#pragma once

#include <string>
#include <string_view>

#include "core/status.h"
#include "llm/llm_backend.h"

namespace kblaster {

// One line of JSON: {"purpose","system","messages":[{"role","content"}…],"temperature",
// "max_tokens","model"}, then '\n'. Invalid UTF-8 is replaced, never thrown on.
std::string command_request_json(const LlmRequest& request, std::string_view model);

// The answer in `output` (the program's whole stdout): a JSON object with a string "text"
// (and optionally "usage": {"input","output"} as non-negative integers, "model",
// "stop_reason"), or else the whole output as plain text with stop_reason "stop". Errors
// (Error::remote naming `program`): an output empty or only white space; a JSON object
// whose "text" is missing, not a string or empty, or whose usage/model/stop_reason has the
// wrong type.
Result<LlmAnswer> read_command_answer(std::string_view output, std::string_view program);

}  // namespace kblaster
