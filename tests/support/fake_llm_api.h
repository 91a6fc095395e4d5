// An LLM API on loopback for one test (cpp-httplib): it checks each request as the API's
// documentation requires (credentials, fields), records every request, and answers from a
// script: an answer, a truncated or empty one, malformed JSON, 429 with retry-after, 500, or
// a slow answer. fake_openai.h and fake_anthropic.h give it each API's words.
#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace kblaster::testing {

class LoopbackServer;

enum class ScriptedReply {
  answer,          // 200 with `text`
  truncated,       // 200 with `text`, stopped by the token limit
  empty,           // 200 with an empty text
  malformed_json,  // 200 whose body is cut off mid-JSON
  rate_limited,    // 429 with retry-after: retry_after_s
  server_error,    // 500 whose error message is `text`
  slow,            // 200 with `text`, after `delay`
};

struct ScriptStep {
  ScriptedReply reply = ScriptedReply::answer;
  std::string text = "scripted answer";
  int retry_after_s = 2;
  std::chrono::milliseconds delay{3000};
};

// The steps, by name: tests read better with these than with designated initialisers.
ScriptStep say(std::string text);
ScriptStep truncated_answer(std::string text);
ScriptStep empty_answer();
ScriptStep malformed_answer();
ScriptStep rate_limit(int retry_after_s);
ScriptStep server_error(std::string message);
ScriptStep slow_answer(std::chrono::milliseconds delay);

// One request as the fake received it.
struct LlmRequestRecord {
  std::string path;
  std::map<std::string, std::string> headers;  // names in lower case
  std::string body;
  int status = 0;  // what it was answered
  // The header's value, "" when absent; `name` in any case.
  std::string header(const std::string& name) const;
  // The body as JSON; null when it is not JSON.
  nlohmann::json json() const;
};

// A refusal: the status and the API's error body.
struct Refusal {
  int status = 400;
  std::string body;
};

// What one API says and requires.
struct LlmDialect {
  std::string base_path;  // what base_url() ends with: "/v1" for OpenAI, "" for Anthropic
  std::string path;       // the route under base_url(): "/chat/completions", "/v1/messages"
  // Why the request is refused (credentials, a missing or mistyped field), or nullopt.
  std::function<std::optional<Refusal>(const LlmRequestRecord&)> check;
  // The 200 body answering `request` with `text`, truncated or not.
  std::function<std::string(const nlohmann::json& request, const std::string& text, bool truncated)>
      answer;
  // An error body: the API's error `type` and `message`.
  std::function<std::string(const std::string& type, const std::string& message)> error;
};

// Answers the script's steps in order, then "done" to every request after them; a refused
// request takes no step. Copy deleted: it owns a server thread.
class FakeLlmApi {
 public:
  explicit FakeLlmApi(LlmDialect dialect);
  ~FakeLlmApi();
  FakeLlmApi(const FakeLlmApi&) = delete;
  FakeLlmApi& operator=(const FakeLlmApi&) = delete;

  void script(std::vector<ScriptStep> steps);
  // Once the script is spent, each request is answered with what `responder` makes of its
  // JSON body (instead of "done"): a model that answers by what it is asked.
  void respond_with(std::function<ScriptStep(const nlohmann::json& request)> responder);
  std::vector<LlmRequestRecord> requests() const;
  // "http://127.0.0.1:PORT" + the dialect's base_path: what [llm] base_url would hold.
  std::string base_url() const;

 private:
  struct Answer {
    int status = 200;
    std::string body;
    std::map<std::string, std::string> headers;
  };
  Answer answer(const LlmRequestRecord& request);

  LlmDialect dialect_;
  mutable std::mutex mutex_;
  std::vector<ScriptStep> script_;
  std::function<ScriptStep(const nlohmann::json& request)> responder_;
  std::size_t next_step_ = 0;
  std::vector<LlmRequestRecord> requests_;
  std::unique_ptr<LoopbackServer> server_;  // last: stopped before the state above goes
};

}  // namespace kblaster::testing
