// Which model a run asks, from where it was configured, and the open connection to it
// (docs/llm.md, "Configuring a run"). The sources, in the order each overrides the last:
// the repository's kblaster.toml [llm] (untrusted: it may come from a pull request, so it
// cannot say where a key goes or what program runs), a trusted --llm-config file, the flags.
#pragma once

#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/environment.h"
#include "llm/llm_backend.h"
#include "llm/llm_settings.h"
#include "llm/token_ledger.h"
#include "net/client_services.h"
#include "net/transport.h"

namespace kblaster {

// What the command line says about the model; empty fields leave the config's.
struct LlmFlags {
  std::string backend;            // --llm openai|anthropic|command
  std::string model;              // --llm-model
  std::string base_url;           // --llm-base-url
  std::string key_env;            // --llm-key-env
  std::string command;            // --llm-command "PROGRAM ARG…" (split at spaces, no shell)
  std::filesystem::path config;   // --llm-config FILE: a trusted TOML file with an [llm] table
  std::filesystem::path replay;   // --replay DIR: answers from a recorded run, no model
  std::filesystem::path prompts;  // --prompts DIR: the templates (default kb/prompts)
  LlmCaps caps;                   // --max-tokens-per-kernel, --max-cost
};

// The [llm] table of TOML `text`, read from `file` (for messages), nullopt without one;
// parse_llm's errors. `untrusted` (a repository's kblaster.toml) refuses base_url,
// api_key_env and a command backend, naming the file and field.
Result<std::optional<LlmSettings>> llm_table_of(std::string_view text, const std::string& file,
                                                bool untrusted);

// llm_table_of the file at `file`, read within kMaxSourceBytes (read_bounded's errors).
Result<std::optional<LlmSettings>> read_llm_table(const std::filesystem::path& file,
                                                  bool untrusted);

// The settings the sources give together, nullopt when none names a model (no LLM: the
// embedded policy alone). Error::usage for a flag value that is not valid (an unknown
// backend, a command for another backend), or for --max-cost with a model that has no price.
Result<std::optional<LlmSettings>> resolve_llm_settings(std::optional<LlmSettings> repository,
                                                        std::optional<LlmSettings> trusted,
                                                        const LlmFlags& flags);

// An open model: the backend (a BackendPool of settings.in_flight slots) and what it borrows.
struct LlmConnection {
  std::vector<std::unique_ptr<HttpTransport>> transports;  // one per slot of an HTTP backend
  std::unique_ptr<LlmBackend> backend;
};

// The HttpClientServices of one slot: each slot's client retries on its own.
using ClientServicesFactory = std::function<HttpClientServices()>;

// The backend `settings` names (make_llm_backend, one over its own CurlTransport per slot for
// an HTTP backend, one shared by every slot for a command), or with a replay directory a
// ReplayBackend over it that reaches no model; pooled into settings.in_flight slots.
// Errors: make_llm_backend's.
Result<LlmConnection> open_llm(const LlmSettings& settings, const std::filesystem::path& replay,
                               const EnvironmentLookup& environment,
                               const ClientServicesFactory& services);

}  // namespace kblaster
