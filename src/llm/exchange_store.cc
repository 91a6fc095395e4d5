#include "llm/exchange_store.h"

#include <nlohmann/json.hpp>

#include "core/bounded_read.h"
#include "core/file_replace.h"
#include "core/file_write.h"
#include "llm/request_json.h"

namespace kblaster {
namespace {

using nlohmann::json;

// Arrays and objects nested in a stored exchange: it has three levels.
constexpr int kMaxExchangeDepth = 8;

json exchange_to_json(const Exchange& e) {
  json j = {{"kind", "llm_exchange"},
            {"schema_version", 1},
            {"request", request_to_json(e.request)},
            {"backend", e.backend}};
  if (e.answer) {
    j["answer"] = e.answer->text;
    j["model"] = e.answer->model;
    j["stop_reason"] = e.answer->stop_reason;
    j["usage"] = {{"input", e.answer->usage.input}, {"output", e.answer->usage.output}};
    j["seconds"] = e.answer->seconds;
  } else {
    j["answer"] = nullptr;
    j["error"] = e.failure;
  }
  return j;
}

// The string at `key`, or `fallback` when absent; an Error when present and not a string.
Result<std::string> string_field(const json& j, const char* key, const std::string& origin,
                                 std::string fallback = {}) {
  const auto it = j.find(key);
  if (it == j.end()) return fallback;
  if (!it->is_string()) return Error::usage(origin + ": `" + key + "` must be a string");
  return it->get<std::string>();
}

Result<LlmAnswer> answer_from_json(const json& j, const std::string& origin) {
  LlmAnswer answer;
  answer.text = j["answer"].get<std::string>();
  auto model = string_field(j, "model", origin);
  if (!model) return model.error();
  auto stop = string_field(j, "stop_reason", origin, "stop");
  if (!stop) return stop.error();
  answer.model = std::move(*model);
  answer.stop_reason = std::move(*stop);
  if (const auto usage = j.find("usage"); usage != j.end()) {
    if (!usage->is_object() || !usage->value("input", json(0)).is_number_integer() ||
        !usage->value("output", json(0)).is_number_integer())
      return Error::usage(origin + ": `usage` must be {\"input\": n, \"output\": n}");
    answer.usage = {usage->value("input", std::int64_t{0}),
                    usage->value("output", std::int64_t{0})};
  }
  if (const auto seconds = j.find("seconds"); seconds != j.end()) {
    if (!seconds->is_number()) return Error::usage(origin + ": `seconds` must be a number");
    answer.seconds = seconds->get<double>();
  }
  return answer;
}

Result<Exchange> exchange_from_json(const json& j, const std::string& origin) {
  if (!j.is_object()) return Error::usage(origin + ": a stored exchange is a JSON object");
  if (!j.contains("request")) return Error::usage(origin + ": no `request`");
  auto request = request_from_json(j["request"], origin);
  if (!request) return request.error();
  auto backend = string_field(j, "backend", origin);
  if (!backend) return backend.error();
  Exchange e{.request = std::move(*request), .answer = {}, .failure = {}, .backend = *backend};
  const auto answer = j.find("answer");
  if (answer != j.end() && answer->is_string()) {
    auto read = answer_from_json(j, origin);
    if (!read) return read.error();
    e.answer = std::move(*read);
    return e;
  }
  if (answer != j.end() && !answer->is_null())
    return Error::usage(origin + ": `answer` must be a string, or null with an `error`");
  auto failure = string_field(j, "error", origin);
  if (!failure) return failure.error();
  if (failure->empty())
    return Error::usage(origin + ": an exchange needs an `answer` string or an `error`");
  e.failure = std::move(*failure);
  return e;
}

}  // namespace

std::filesystem::path ExchangeStore::file_of(std::string_view hash, int occurrence) const {
  const std::string stem(hash);
  return dir_ /
         (occurrence <= 1 ? stem + ".json" : stem + "-" + std::to_string(occurrence) + ".json");
}

Status ExchangeStore::save(const Exchange& exchange, std::string_view hash, int occurrence) const {
  KB_TRY(make_directories(dir_));
  return replace_file(
      file_of(hash, occurrence),
      exchange_to_json(exchange).dump(2, ' ', false, json::error_handler_t::replace) + "\n");
}

Result<std::optional<Exchange>> ExchangeStore::load(std::string_view hash, int occurrence) const {
  const auto file = file_of(hash, occurrence);
  std::error_code ec;
  if (!std::filesystem::exists(file, ec)) return std::optional<Exchange>();
  auto text = read_bounded(file, kMaxExchangeBytes, "the stored exchange");
  if (!text) return text.error();
  const auto shallow = [](int depth, json::parse_event_t, json&) {
    return depth <= kMaxExchangeDepth;  // deeper values are dropped, never built
  };
  const json j = json::parse(*text, shallow, /*allow_exceptions=*/false);
  if (j.is_discarded()) return Error::usage(file.string() + ": not JSON");
  auto exchange = exchange_from_json(j, file.string());
  if (!exchange) return exchange.error();
  auto stored_hash = prompt_hash(exchange->request);
  if (!stored_hash) return stored_hash.error();
  if (*stored_hash != hash)
    return Error::usage(file.string() + ": holds a prompt whose hash is " + *stored_hash +
                        ", not the one its name gives");
  return std::optional<Exchange>(std::move(*exchange));
}

int PromptOccurrences::next(const std::string& hash) {
  const std::lock_guard lock(mutex_);
  return ++count_[hash];
}

}  // namespace kblaster
