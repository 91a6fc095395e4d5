// The one place an LlmBackend is chosen and built from [llm] settings.
#pragma once

#include <memory>

#include "core/environment.h"
#include "core/status.h"
#include "llm/llm_backend.h"
#include "llm/llm_settings.h"
#include "net/client_services.h"
#include "net/transport.h"

namespace kblaster {

// The backend `settings` names, its key read from `env` (key_variable: OPENAI_API_KEY,
// ANTHROPIC_API_KEY or api_key_env). An HTTP backend borrows `transport`, which must outlive
// it, and sends through an HttpClient with `services`; a command backend uses neither.
// Errors: the key variable unset or empty is Error::environment naming the variable (never
// its value); no model for an HTTP backend, or no command for the command backend, is
// Error::usage. `settings` must come from a trusted config (llm/llm_settings_parser.h).
// An HTTP backend is not thread-safe: for `in_flight` requests at once, make one backend per
// worker, each over its own transport.
Result<std::unique_ptr<LlmBackend>> make_llm_backend(const LlmSettings& settings,
                                                     const EnvironmentLookup& env,
                                                     HttpTransport& transport,
                                                     HttpClientServices services);

}  // namespace kblaster
