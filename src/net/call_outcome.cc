#include "net/call_outcome.h"

#include <nlohmann/json.hpp>

#include "core/input_limits.h"
#include "net/redact.h"

namespace kblaster {
namespace {

// Characters of a body without a message quoted in an error.
constexpr std::size_t kQuotedBodyChars = 200;

const nlohmann::json* string_at(const nlohmann::json& object, const char* key) {
  if (!object.is_object()) return nullptr;
  const auto it = object.find(key);
  return it != object.end() && it->is_string() ? &*it : nullptr;
}

}  // namespace

std::optional<std::string> service_message(std::string_view body) {
  if (body.size() > kMaxErrorBodyBytes) return std::nullopt;
  const auto root = nlohmann::json::parse(body, nullptr, /*allow_exceptions=*/false);
  const nlohmann::json* message = string_at(root, "message");
  if (!message && root.is_object() && root.contains("error"))
    message = root["error"].is_string() ? &root["error"] : string_at(root["error"], "message");
  if (!message) return std::nullopt;
  return message->get<std::string>();
}

std::string describe_outcome(const Delivery& outcome, std::span<const std::string> secrets) {
  if (const auto* error = std::get_if<TransportError>(&outcome))
    return redact(describe(*error), secrets);
  const auto& response = std::get<HttpResponse>(outcome);
  std::string text = "HTTP " + std::to_string(response.status);
  if (auto message = service_message(response.body)) return text + ": " + redact(*message, secrets);
  if (response.body.empty()) return text;
  return text + ": " + quote_input(redact(response.body, secrets), kQuotedBodyChars);
}

std::string outcome_for_log(const Delivery& outcome, std::span<const std::string> secrets) {
  if (const auto* error = std::get_if<TransportError>(&outcome))
    return redact(describe(*error), secrets);
  return std::to_string(std::get<HttpResponse>(outcome).status);
}

}  // namespace kblaster
