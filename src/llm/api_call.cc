#include "llm/api_call.h"

#include <algorithm>

#include "core/input_limits.h"
#include "core/json_nesting.h"
#include "llm/llm_limits.h"
#include "net/redact.h"

namespace kblaster {
namespace {

std::chrono::milliseconds milliseconds_of(double seconds) {
  return std::chrono::milliseconds(static_cast<std::int64_t>(seconds * 1000.0));
}

std::string prefix(const ApiCall& call) {
  return "LLM backend `" + std::string(call.backend) + "`: ";
}

}  // namespace

HttpClientOptions llm_client_options(const std::string& api_key, double timeout_s) {
  HttpClientOptions options{.service = "the LLM API", .retry = {}, .secrets = {}};
  options.retry.deadline_seconds = std::max(options.retry.deadline_seconds, 3 * timeout_s);
  if (!api_key.empty()) options.secrets.push_back(api_key);
  return options;
}

Result<nlohmann::json> post_json(HttpClient& http, const ApiCall& call,
                                 std::span<const std::string> secrets) {
  HttpRequest request{
      .method = HttpMethod::post,
      .url = call.url,
      .headers = call.headers,
      .body = call.body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace),
      .timeouts = {.connect = std::chrono::milliseconds(10'000),
                   .total = milliseconds_of(call.timeout_s),
                   .call = milliseconds_of(call.whole_s)},
      // Asking again costs tokens but changes nothing: safe to retry.
      .idempotent = true};
  request.headers.set("Content-Type", "application/json");
  auto response = http.send(request);
  if (!response) {
    Error error = response.error();
    error.message = redact(prefix(call) + error.message, secrets);
    return error;
  }
  const std::string& body = response->body;
  if (nests_deeper_than(body, kMaxAnswerDepth))
    return answer_error(
        call, "JSON nested deeper than " + std::to_string(kMaxAnswerDepth) + " levels", secrets);
  auto json = nlohmann::json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (json.is_discarded())
    return answer_error(call, "a body that is not JSON: " + quote_input(body, 200), secrets);
  if (!json.is_object())
    return answer_error(call, "JSON that is not an object: " + quote_input(body, 200), secrets);
  return json;
}

Error answer_error(const ApiCall& call, const std::string& what,
                   std::span<const std::string> secrets) {
  return Error::remote(
      redact(prefix(call) + "POST " + url_for_logs(call.url) + " answered " + what, secrets));
}

std::int64_t token_count(const nlohmann::json& object, std::string_view key) {
  if (!object.is_object()) return 0;
  const auto it = object.find(std::string(key));
  if (it == object.end() || !it->is_number_integer()) return 0;
  const auto n = it->get<std::int64_t>();
  return n < 0 ? 0 : n;
}

std::string string_field(const nlohmann::json& object, std::string_view key) {
  if (!object.is_object()) return {};
  const auto it = object.find(std::string(key));
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string{};
}

}  // namespace kblaster
