#include "support/fake_anthropic.h"

namespace kblaster::testing {
namespace {

using nlohmann::json;

std::string error_body(const std::string& type, const std::string& message) {
  return json{{"type", "error"}, {"error", {{"type", type}, {"message", message}}}}.dump();
}

// Why Anthropic would refuse `body`, or "".
std::string invalid(const json& body) {
  if (!body.is_object()) return "Request body is not valid JSON";
  if (!body.contains("model") || !body["model"].is_string()) return "model: Field required";
  if (!body.contains("max_tokens") || !body["max_tokens"].is_number_integer() ||
      body["max_tokens"].get<int>() < 1)
    return "max_tokens: Field required";
  const auto& messages = body.value("messages", json());
  if (!messages.is_array() || messages.empty()) return "messages: Field required";
  for (const auto& m : messages) {
    const std::string role = m.value("role", "");
    if (role == "system")
      return "messages: Unexpected role \"system\". Use the top-level `system` parameter";
    if (role != "user" && role != "assistant") return "messages: Unexpected role \"" + role + "\"";
    if (!m.contains("content") || !m["content"].is_string()) return "messages.content: invalid";
  }
  if (body.contains("system") && !body["system"].is_string()) return "system: invalid";
  if (body.contains("temperature") &&
      (!body["temperature"].is_number() || body["temperature"].get<double>() < 0 ||
       body["temperature"].get<double>() > 1))
    return "temperature: Input should be less than or equal to 1";
  return "";
}

}  // namespace

std::unique_ptr<FakeLlmApi> start_fake_anthropic(const std::string& key) {
  LlmDialect dialect{
      .base_path = "",
      .path = "/v1/messages",
      .check = [key](const LlmRequestRecord& r) -> std::optional<Refusal> {
        if (r.header("x-api-key") != key)
          return Refusal{401, error_body("authentication_error", "invalid x-api-key")};
        if (r.header("anthropic-version").empty())
          return Refusal{
              400, error_body("invalid_request_error", "anthropic-version: header is required")};
        if (const std::string why = invalid(r.json()); !why.empty())
          return Refusal{400, error_body("invalid_request_error", why)};
        return std::nullopt;
      },
      .answer =
          [](const json& request, const std::string& text, bool truncated) {
            json content = json::array();
            if (!text.empty()) {
              const std::size_t half = text.size() / 2;
              content.push_back({{"type", "text"}, {"text", text.substr(0, half)}});
              content.push_back({{"type", "thinking"}, {"thinking", "not part of the answer"}});
              content.push_back({{"type", "text"}, {"text", text.substr(half)}});
            }
            return json{{"id", "msg_01"},
                        {"type", "message"},
                        {"role", "assistant"},
                        {"model", request["model"]},
                        {"content", std::move(content)},
                        {"stop_reason", truncated ? "max_tokens" : "end_turn"},
                        {"stop_sequence", nullptr},
                        {"usage",
                         {{"input_tokens", static_cast<int>(request["messages"].size()) *
                                               kFakeInputTokensPerMessage},
                          {"output_tokens", static_cast<int>(text.size())}}}}
                .dump();
          },
      .error = error_body};
  return std::make_unique<FakeLlmApi>(std::move(dialect));
}

}  // namespace kblaster::testing
