#include "llm/command_protocol.h"

#include <nlohmann/json.hpp>

#include "core/json_nesting.h"
#include "llm/llm_limits.h"

namespace kblaster {
namespace {

bool blank(std::string_view text) {
  return text.find_first_not_of(" \t\r\n") == std::string_view::npos;
}

Error bad(std::string_view program, const std::string& what) {
  return Error::remote("LLM command `" + std::string(program) + "` answered " + what);
}

// A non-negative integer at usage[key]; 0 when absent.
Result<std::int64_t> usage_count(const nlohmann::json& usage, const char* key,
                                 std::string_view program) {
  const auto it = usage.find(key);
  if (it == usage.end()) return std::int64_t{0};
  if (!it->is_number_integer() || it->get<std::int64_t>() < 0)
    return bad(program, std::string("a usage whose `") + key + "` is not a count of tokens");
  return it->get<std::int64_t>();
}

// An optional string at answer[key] into `out`.
Status optional_string(const nlohmann::json& answer, const char* key, std::string& out,
                       std::string_view program) {
  const auto it = answer.find(key);
  if (it == answer.end()) return Ok{};
  if (!it->is_string()) return bad(program, std::string("JSON whose `") + key + "` is no string");
  out = it->get<std::string>();
  return Ok{};
}

Result<LlmAnswer> read_json_answer(const nlohmann::json& json, std::string_view program) {
  const auto text = json.find("text");
  if (text == json.end() || !text->is_string())
    return bad(program, "a JSON object without a string `text`");
  LlmAnswer answer;
  answer.text = text->get<std::string>();
  if (blank(answer.text)) return bad(program, "an empty `text`");
  answer.stop_reason = "stop";
  KB_TRY(optional_string(json, "stop_reason", answer.stop_reason, program));
  KB_TRY(optional_string(json, "model", answer.model, program));
  if (const auto usage = json.find("usage"); usage != json.end()) {
    if (!usage->is_object()) return bad(program, "a `usage` that is not an object");
    auto input = usage_count(*usage, "input", program);
    if (!input) return input.error();
    auto output = usage_count(*usage, "output", program);
    if (!output) return output.error();
    answer.usage = {.input = *input, .output = *output};
  }
  return answer;
}

}  // namespace

std::string command_request_json(const LlmRequest& request, std::string_view model) {
  nlohmann::json messages = nlohmann::json::array();
  for (const LlmMessage& m : request.messages)
    messages.push_back({{"role", m.role}, {"content", m.content}});
  const nlohmann::json body = {
      {"purpose", request.purpose},       {"system", request.system},
      {"messages", std::move(messages)},  {"temperature", request.temperature},
      {"max_tokens", request.max_tokens}, {"model", model}};
  return body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

Result<LlmAnswer> read_command_answer(std::string_view output, std::string_view program) {
  if (blank(output)) return bad(program, "nothing on its stdout");
  const std::size_t first = output.find_first_not_of(" \t\r\n");
  if (output[first] == '{' && !nests_deeper_than(output, kMaxAnswerDepth)) {
    const auto json = nlohmann::json::parse(output, nullptr, /*allow_exceptions=*/false);
    if (json.is_object()) return read_json_answer(json, program);
  }
  LlmAnswer answer;
  answer.text = std::string(output);
  answer.stop_reason = "stop";
  return answer;
}

}  // namespace kblaster
