// The [llm] table of kblaster.toml as a value: which model answers the search's LLM steps,
// how it is reached, and what its tokens cost (docs/llm.md). Parsed by llm_settings_parser.h.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace kblaster {

// How the model is reached: OpenAI-compatible chat completions, Anthropic messages, or a
// local program (docs/llm.md, "The command protocol").
enum class LlmBackendKind { openai, anthropic, command };

// "openai", "anthropic", "command": the config's spelling and LlmBackend::name().
std::string_view llm_backend_name(LlmBackendKind kind);

// USD per million tokens of one model.
struct ModelPrice {
  double input_per_mtok = 0;
  double output_per_mtok = 0;
};

struct LlmSettings {
  LlmBackendKind backend = LlmBackendKind::openai;
  std::string model;                 // required for openai and anthropic; sent to a command
  std::string base_url;              // "" = the backend's default (default_base_url)
  std::string api_key_env;           // "" = the backend's default (key_variable)
  std::vector<std::string> command;  // argv of the command backend, no shell
  double temperature = 0.2;          // put into each LlmRequest by the prompt layer
  int max_tokens = 4096;             // likewise: the most tokens one answer may have
  double timeout_s = 300;            // one attempt of one call (a command: its whole run)
  int in_flight = 2;                 // requests in flight at once
  int repair_attempts = 3;           // compile errors sent back to the model per candidate
  std::map<std::string, ModelPrice, std::less<>> prices;  // by model name
};

// https://api.openai.com/v1 or https://api.anthropic.com; "" for command.
std::string_view default_base_url(LlmBackendKind kind);

// The base URL a backend calls: settings.base_url without trailing '/', or the default.
std::string base_url_of(const LlmSettings& settings);

// The environment variable that holds the key: api_key_env, else OPENAI_API_KEY or
// ANTHROPIC_API_KEY; "" for a command without api_key_env (it then gets no key).
std::string key_variable(const LlmSettings& settings);

}  // namespace kblaster
