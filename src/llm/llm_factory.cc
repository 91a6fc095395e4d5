#include "llm/llm_factory.h"

#include "llm/anthropic_backend.h"
#include "llm/command_backend.h"
#include "llm/openai_backend.h"

namespace kblaster {
namespace {

// The key from the variable `settings` names; "" when the backend takes none.
Result<std::string> read_key(const LlmSettings& settings, const EnvironmentLookup& env) {
  const std::string variable = key_variable(settings);
  if (variable.empty()) return std::string();
  const std::optional<std::string> key = env(variable);
  const std::string backend(llm_backend_name(settings.backend));
  if (!key)
    return Error::environment("the LLM backend `" + backend + "` reads its key from $" + variable +
                              ", which is not set ([llm] api_key_env names another)");
  if (key->empty())
    return Error::environment("the LLM backend `" + backend + "` reads its key from $" + variable +
                              ", which is empty");
  return *key;
}

}  // namespace

Result<std::unique_ptr<LlmBackend>> make_llm_backend(const LlmSettings& settings,
                                                     const EnvironmentLookup& env,
                                                     HttpTransport& transport,
                                                     HttpClientServices services) {
  const std::string backend(llm_backend_name(settings.backend));
  if (settings.backend == LlmBackendKind::command && settings.command.empty())
    return Error::usage("[llm]: the command backend needs a `command`");
  if (settings.backend != LlmBackendKind::command && settings.model.empty())
    return Error::usage("[llm]: the `" + backend + "` backend needs a `model`");
  auto key = read_key(settings, env);
  if (!key) return key.error();
  if (settings.backend != LlmBackendKind::command) {
    LlmEndpoint endpoint{.base_url = base_url_of(settings),
                         .model = settings.model,
                         .api_key = std::move(*key),
                         .timeout_s = settings.timeout_s};
    if (settings.backend == LlmBackendKind::anthropic)
      return std::unique_ptr<LlmBackend>(
          std::make_unique<AnthropicBackend>(std::move(endpoint), transport, std::move(services)));
    return std::unique_ptr<LlmBackend>(
        std::make_unique<OpenAiBackend>(std::move(endpoint), transport, std::move(services)));
  }
  return std::unique_ptr<LlmBackend>(
      std::make_unique<CommandBackend>(CommandOptions{.argv = settings.command,
                                                      .model = settings.model,
                                                      .timeout_s = settings.timeout_s,
                                                      .key_variable = key_variable(settings),
                                                      .key = std::move(*key),
                                                      .working_dir = {}}));
}

}  // namespace kblaster
