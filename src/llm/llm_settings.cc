#include "llm/llm_settings.h"

namespace kblaster {

std::string_view llm_backend_name(LlmBackendKind kind) {
  switch (kind) {
    case LlmBackendKind::openai:
      return "openai";
    case LlmBackendKind::anthropic:
      return "anthropic";
    case LlmBackendKind::command:
      return "command";
  }
  return "openai";
}

std::string_view default_base_url(LlmBackendKind kind) {
  switch (kind) {
    case LlmBackendKind::openai:
      return "https://api.openai.com/v1";
    case LlmBackendKind::anthropic:
      return "https://api.anthropic.com";
    case LlmBackendKind::command:
      break;
  }
  return "";
}

std::string base_url_of(const LlmSettings& settings) {
  std::string url = settings.base_url.empty() ? std::string(default_base_url(settings.backend))
                                              : settings.base_url;
  while (!url.empty() && url.back() == '/') url.pop_back();
  return url;
}

std::string key_variable(const LlmSettings& settings) {
  if (!settings.api_key_env.empty()) return settings.api_key_env;
  switch (settings.backend) {
    case LlmBackendKind::openai:
      return "OPENAI_API_KEY";
    case LlmBackendKind::anthropic:
      return "ANTHROPIC_API_KEY";
    case LlmBackendKind::command:
      break;
  }
  return "";
}

}  // namespace kblaster
