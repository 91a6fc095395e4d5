// An LlmRequest as JSON, and the hash that keys its answer in a run's store: the same
// request always hashes the same, on any machine, whichever backend answers it.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "core/status.h"
#include "llm/llm_backend.h"

namespace kblaster {

// {"max_tokens", "messages": [{"content", "role"}…], "purpose", "system", "temperature"}.
nlohmann::json request_to_json(const LlmRequest& request);

// The request `json` describes; an Error::usage naming `origin` and the field when a field
// is missing or of the wrong type.
Result<LlmRequest> request_from_json(const nlohmann::json& json, const std::string& origin);

// request_to_json with keys sorted and no spaces; bytes that are not UTF-8 read as U+FFFD.
std::string canonical_request_json(const LlmRequest& request);

// The SHA-256 of canonical_request_json, as 64 hex digits: the prompt's hash.
Result<std::string> prompt_hash(const LlmRequest& request);

}  // namespace kblaster
