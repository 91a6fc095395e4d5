#include "cli/llm_flags.h"

#include <memory>
#include <mutex>

#include "core/config_loader.h"
#include "core/environment.h"
#include "core/source_tree.h"
#include "llm/prompt_set.h"
#include "net/client_services.h"

namespace kblaster {

void add_llm_flags(CLI::App& app, LlmFlags& flags) {
  app.add_option("--llm", flags.backend,
                 "Apply techniques with a model too: openai, anthropic or command "
                 "(default: [llm] of the config; none: the embedded policy alone)");
  app.add_option("--llm-model", flags.model, "The model to ask");
  app.add_option("--llm-base-url", flags.base_url,
                 "The API's base URL (an OpenAI-compatible server: vLLM, llama.cpp, Ollama, NIM)");
  app.add_option("--llm-key-env", flags.key_env,
                 "The environment variable holding the API key (default OPENAI_API_KEY or "
                 "ANTHROPIC_API_KEY)");
  app.add_option("--llm-command", flags.command,
                 "With --llm command: the program and its arguments, split at spaces (no "
                 "shell); the prompt as JSON on stdin, the answer on stdout (docs/llm.md)");
  app.add_option("--llm-config", flags.config,
                 "A trusted TOML file with an [llm] table, overriding the repository's");
  app.add_option("--replay", flags.replay,
                 "Answer every prompt from a recorded run's exchanges (its OUT/llm), with no "
                 "model")
      ->check(CLI::ExistingDirectory);
  app.add_option("--prompts", flags.prompts, "Prompt templates (default: kb/prompts)");
  app.add_option("--max-tokens-per-kernel", flags.caps.max_tokens_per_kernel,
                 "Stop a kernel's search once the model used this many tokens (in + out)")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--max-cost", flags.caps.max_cost_usd,
                 "Stop the search once the model cost this many USD in the run ([llm.prices])")
      ->check(CLI::NonNegativeNumber);
}

Result<std::optional<OptimizeLlm>> open_run_llm(const LlmFlags& flags, const LoadedRepo& repo,
                                                Session& session, LlmConnection& connection) {
  std::optional<LlmSettings> from_repo, trusted;
  // Read as the config loader read it: inside the repository, links resolved.
  if (const auto text = DirectoryTree(repo.root).read(kConfigFile)) {
    auto table = llm_table_of(*text, kConfigFile, /*untrusted=*/true);
    if (!table) return table.error();
    from_repo = std::move(*table);
  }
  if (!flags.config.empty()) {
    auto table = read_llm_table(flags.config, /*untrusted=*/false);
    if (!table) return table.error();
    if (!*table)
      return Error::usage("--llm-config " + flags.config.string() + " has no [llm] table");
    trusted = std::move(*table);
  }
  auto settings = resolve_llm_settings(std::move(from_repo), std::move(trusted), flags);
  if (!settings) return settings.error();
  if (!*settings) return std::optional<OptimizeLlm>();
  const LlmSettings& s = **settings;
  // Each slot's client has its own jitter; their call logs share one lock, since the slots
  // answer on the search's worker threads.
  auto log_lock = std::make_shared<std::mutex>();
  std::uint64_t slot = 0;
  auto opened = open_llm(s, flags.replay, process_environment, [&] {
    return real_client_services(session.clock, 0x6b626c6c6dULL + slot++,
                                [&session, log_lock](const std::string& line) {
                                  const std::lock_guard lock(*log_lock);
                                  session.progress << "  " << line << "\n";
                                });
  });
  if (!opened) return opened.error();
  connection = std::move(*opened);
  return std::optional(OptimizeLlm{.backend = connection.backend.get(),
                                   .backend_name = std::string(connection.backend->name()),
                                   .model = s.model,
                                   .options = {.temperature = s.temperature,
                                               .max_tokens = s.max_tokens,
                                               .repair_attempts = s.repair_attempts},
                                   .caps = flags.caps,
                                   .prices = s.prices,
                                   .prompts_dir = prompts_dir(flags.prompts, process_environment),
                                   .in_flight = s.in_flight});
}

}  // namespace kblaster
