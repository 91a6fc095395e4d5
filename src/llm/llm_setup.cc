#include "llm/llm_setup.h"

#include <algorithm>
#include <sstream>

#include "core/bounded_read.h"
#include "core/config_loader.h"
#include "core/input_limits.h"
#include "llm/backend_pool.h"
#include "llm/exchange_replay.h"
#include "llm/llm_factory.h"
#include "llm/llm_settings_parser.h"
#include "net/curl_transport.h"

namespace kblaster {
namespace {

// The words of `command`, split at whitespace.
std::vector<std::string> words(const std::string& command) {
  std::istringstream in(command);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

Result<LlmBackendKind> backend_named(const std::string& name) {
  for (const auto kind :
       {LlmBackendKind::openai, LlmBackendKind::anthropic, LlmBackendKind::command})
    if (llm_backend_name(kind) == name) return kind;
  return Error::usage("--llm " + name + ": expected openai, anthropic or command");
}

}  // namespace

Result<std::optional<LlmSettings>> read_llm_table(const std::filesystem::path& file,
                                                  bool untrusted) {
  auto text = read_bounded(file, kMaxSourceBytes, "the config");
  if (!text) return text.error();
  return llm_table_of(*text, file.string(), untrusted);
}

Result<std::optional<LlmSettings>> llm_table_of(std::string_view text, const std::string& file,
                                                bool untrusted) {
  auto root = parse_toml_text(text, file);
  if (!root) return root.error();
  auto settings = parse_llm(*root, file);
  if (!settings || !*settings || !untrusted) return settings;
  const LlmSettings& s = **settings;
  const auto refuse = [&](const char* field) {
    return Error::config(file,
                         std::string("[llm] ") + field +
                             ": a repository's kblaster.toml may come from a pull request, so "
                             "it may not say where the key goes or what program runs; give it "
                             "with a flag or in a trusted --llm-config file (docs/llm.md)");
  };
  if (!s.base_url.empty()) return refuse("base_url");
  if (!s.api_key_env.empty()) return refuse("api_key_env");
  if (s.backend == LlmBackendKind::command) return refuse("backend = \"command\"");
  // Prices decide when --max-cost stops a search: a pull request that set them to 0 would lift
  // the user's cap.
  if (!s.prices.empty())
    return Error::config(file,
                         "[llm.prices]: a repository's kblaster.toml may come from a pull request, "
                         "so it may not set the prices that --max-cost is checked against; give "
                         "them in a trusted --llm-config file (docs/llm.md)");
  return settings;
}

Result<std::optional<LlmSettings>> resolve_llm_settings(std::optional<LlmSettings> repository,
                                                        std::optional<LlmSettings> trusted,
                                                        const LlmFlags& flags) {
  std::optional<LlmSettings> s = trusted ? std::move(trusted) : std::move(repository);
  if (!flags.backend.empty()) {
    auto kind = backend_named(flags.backend);
    if (!kind) return kind.error();
    if (!s || s->backend != *kind) {
      LlmSettings fresh;
      if (s) fresh.prices = s->prices;  // a price table outlives a change of backend
      s = std::move(fresh);
      s->backend = *kind;
    }
  }
  if (!s) {
    if (!flags.model.empty() || !flags.command.empty() || !flags.base_url.empty() ||
        !flags.key_env.empty() || !flags.replay.empty() || !flags.prompts.empty() ||
        flags.caps.max_tokens_per_kernel > 0 || flags.caps.max_cost_usd > 0)
      return Error::usage(
          "--llm-model, --llm-command, --llm-base-url, --llm-key-env, --replay, --prompts, "
          "--max-tokens-per-kernel and --max-cost are for a model: give --llm BACKEND or an [llm] "
          "table");
    return std::optional<LlmSettings>();
  }
  if (!flags.model.empty()) s->model = flags.model;
  if (!flags.base_url.empty()) s->base_url = flags.base_url;
  if (!flags.key_env.empty()) s->api_key_env = flags.key_env;
  if (!flags.command.empty()) {
    if (s->backend != LlmBackendKind::command)
      return Error::usage("--llm-command is for --llm command");
    s->command = words(flags.command);
  }
  if (s->backend == LlmBackendKind::command && s->command.empty() && flags.replay.empty())
    return Error::usage("--llm command needs --llm-command \"PROGRAM ARG…\"");
  if (s->backend != LlmBackendKind::command && s->model.empty())
    return Error::usage("--llm " + std::string(llm_backend_name(s->backend)) +
                        " needs a model: --llm-model NAME, or model in [llm]");
  if (flags.caps.max_cost_usd > 0 && !s->prices.contains(s->model))
    return Error::usage("--max-cost needs a price for the model `" + s->model +
                        "`: add [llm.prices.\"" + s->model +
                        "\"] input_per_mtok and output_per_mtok to the config");
  return s;
}

Result<LlmConnection> open_llm(const LlmSettings& settings, const std::filesystem::path& replay,
                               const EnvironmentLookup& environment,
                               const ClientServicesFactory& services) {
  LlmConnection c;
  if (!replay.empty()) {
    c.backend = std::make_unique<BackendPool>(
        std::make_unique<ReplayBackend>(ExchangeStore(replay)), settings.in_flight);
    return c;
  }
  if (settings.backend == LlmBackendKind::command) {
    CurlTransport unused;  // a command backend sends nothing over HTTP
    auto backend = make_llm_backend(settings, environment, unused, services());
    if (!backend) return backend.error();
    c.backend = std::make_unique<BackendPool>(std::move(*backend), settings.in_flight);
    return c;
  }
  std::vector<std::unique_ptr<LlmBackend>> per_slot;
  for (int slot = 0; slot < std::max(1, settings.in_flight); ++slot) {
    c.transports.push_back(std::make_unique<CurlTransport>());
    auto backend = make_llm_backend(settings, environment, *c.transports.back(), services());
    if (!backend) return backend.error();
    per_slot.push_back(std::move(*backend));
  }
  c.backend = std::make_unique<BackendPool>(std::move(per_slot));
  return c;
}

}  // namespace kblaster
