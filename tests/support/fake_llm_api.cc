#include "support/fake_llm_api.h"

#include <algorithm>
#include <cctype>

#include "net/loopback_server.h"

namespace kblaster::testing {
namespace {

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

ScriptStep step(ScriptedReply reply, std::string text = "scripted answer") {
  ScriptStep s;
  s.reply = reply;
  s.text = std::move(text);
  return s;
}

}  // namespace

ScriptStep say(std::string text) { return step(ScriptedReply::answer, std::move(text)); }
ScriptStep truncated_answer(std::string text) {
  return step(ScriptedReply::truncated, std::move(text));
}
ScriptStep empty_answer() { return step(ScriptedReply::empty); }
ScriptStep malformed_answer() { return step(ScriptedReply::malformed_json); }
ScriptStep rate_limit(int retry_after_s) {
  ScriptStep s = step(ScriptedReply::rate_limited);
  s.retry_after_s = retry_after_s;
  return s;
}
ScriptStep server_error(std::string message) {
  return step(ScriptedReply::server_error, std::move(message));
}
ScriptStep slow_answer(std::chrono::milliseconds delay) {
  ScriptStep s = step(ScriptedReply::slow);
  s.delay = delay;
  return s;
}

std::string LlmRequestRecord::header(const std::string& name) const {
  const auto it = headers.find(lower(name));
  return it == headers.end() ? "" : it->second;
}

nlohmann::json LlmRequestRecord::json() const {
  auto parsed = nlohmann::json::parse(body, nullptr, /*allow_exceptions=*/false);
  return parsed.is_discarded() ? nlohmann::json() : parsed;
}

FakeLlmApi::FakeLlmApi(LlmDialect dialect) : dialect_(std::move(dialect)) {
  const std::string route = dialect_.base_path + dialect_.path;
  server_ = std::make_unique<LoopbackServer>([this, route](httplib::Server& s) {
    s.Post(route, [this](const httplib::Request& req, httplib::Response& res) {
      LlmRequestRecord record{.path = req.path, .headers = {}, .body = req.body, .status = 0};
      for (const auto& [name, value] : req.headers) record.headers[lower(name)] = value;
      std::size_t index = 0;
      {
        std::lock_guard lock(mutex_);
        index = requests_.size();
        requests_.push_back(record);  // recorded on arrival, so a call given up on still counts
      }
      Answer a = answer(record);
      if (a.status == 0) {  // slow: the step's delay, then its answer
        server_->nap(std::chrono::milliseconds(std::stoi(a.headers["x-delay-ms"])));
        a.headers.erase("x-delay-ms");
        a.status = 200;
      }
      {
        std::lock_guard lock(mutex_);
        requests_[index].status = a.status;
      }
      res.status = a.status;
      for (const auto& [name, value] : a.headers) res.set_header(name, value);
      res.set_content(a.body, "application/json");
    });
  });
}

FakeLlmApi::~FakeLlmApi() = default;

void FakeLlmApi::script(std::vector<ScriptStep> steps) {
  std::lock_guard lock(mutex_);
  script_ = std::move(steps);
  next_step_ = 0;
}

std::vector<LlmRequestRecord> FakeLlmApi::requests() const {
  std::lock_guard lock(mutex_);
  return requests_;
}

void FakeLlmApi::respond_with(std::function<ScriptStep(const nlohmann::json& request)> responder) {
  std::lock_guard lock(mutex_);
  responder_ = std::move(responder);
}

std::string FakeLlmApi::base_url() const { return server_->url(dialect_.base_path); }

FakeLlmApi::Answer FakeLlmApi::answer(const LlmRequestRecord& request) {
  if (auto refusal = dialect_.check(request)) return {refusal->status, refusal->body, {}};
  ScriptStep next = say("done");
  const nlohmann::json body = request.json();
  {
    std::lock_guard lock(mutex_);
    if (next_step_ < script_.size())
      next = script_[next_step_++];
    else if (responder_)
      next = responder_(body);
  }
  switch (next.reply) {
    case ScriptedReply::answer:
      return {200, dialect_.answer(body, next.text, false), {}};
    case ScriptedReply::truncated:
      return {200, dialect_.answer(body, next.text, true), {}};
    case ScriptedReply::empty:
      return {200, dialect_.answer(body, "", false), {}};
    case ScriptedReply::malformed_json:
      return {200, dialect_.answer(body, next.text, false).substr(0, 20), {}};
    case ScriptedReply::rate_limited:
      return {429,
              dialect_.error("rate_limit_error", "Rate limit reached; slow down"),
              {{"retry-after", std::to_string(next.retry_after_s)}}};
    case ScriptedReply::server_error:
      return {500, dialect_.error("api_error", next.text), {}};
    case ScriptedReply::slow:
      return {0,
              dialect_.answer(body, next.text, false),
              {{"x-delay-ms", std::to_string(next.delay.count())}}};
  }
  return {500, dialect_.error("api_error", "unscripted"), {}};
}

}  // namespace kblaster::testing
