#include "llm/request_json.h"

#include <cstdint>
#include <limits>

#include "gpu/content_hash.h"

namespace kblaster {

nlohmann::json request_to_json(const LlmRequest& request) {
  nlohmann::json messages = nlohmann::json::array();
  for (const auto& m : request.messages)
    messages.push_back({{"role", m.role}, {"content", m.content}});
  return {{"purpose", request.purpose},
          {"system", request.system},
          {"messages", std::move(messages)},
          {"temperature", request.temperature},
          {"max_tokens", request.max_tokens}};
}

Result<LlmRequest> request_from_json(const nlohmann::json& json, const std::string& origin) {
  const auto bad = [&](const std::string& field, const char* want) {
    return Error::usage(origin + ": the request's `" + field + "` must be " + want);
  };
  if (!json.is_object()) return Error::usage(origin + ": `request` must be an object");
  LlmRequest request;
  for (const auto* field : {"purpose", "system"}) {
    const auto it = json.find(field);
    if (it == json.end() || !it->is_string()) return bad(field, "a string");
  }
  request.purpose = json["purpose"].get<std::string>();
  request.system = json["system"].get<std::string>();
  const auto messages = json.find("messages");
  if (messages == json.end() || !messages->is_array()) return bad("messages", "an array");
  for (const auto& m : *messages) {
    if (!m.is_object() || !m.contains("role") || !m["role"].is_string() || !m.contains("content") ||
        !m["content"].is_string())
      return bad("messages", "an array of {\"role\", \"content\"} strings");
    request.messages.push_back({m["role"].get<std::string>(), m["content"].get<std::string>()});
  }
  const auto temperature = json.find("temperature");
  if (temperature == json.end() || !temperature->is_number()) return bad("temperature", "a number");
  request.temperature = temperature->get<double>();
  const auto max_tokens = json.find("max_tokens");
  if (max_tokens == json.end() || !max_tokens->is_number_integer() ||
      max_tokens->get<std::int64_t>() < 0 ||
      max_tokens->get<std::int64_t>() > std::numeric_limits<int>::max())
    return bad("max_tokens", "a non-negative integer of at most 2^31 - 1");
  request.max_tokens = max_tokens->get<int>();
  return request;
}

std::string canonical_request_json(const LlmRequest& request) {
  // nlohmann::json keeps an object's keys sorted, so dump() is canonical.
  return request_to_json(request).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

Result<std::string> prompt_hash(const LlmRequest& request) {
  return sha256_hex(canonical_request_json(request));
}

}  // namespace kblaster
