// Reading the [llm] table of a kblaster.toml (llm/llm_settings.h).
//
// Trust: callers must pass only a trusted config's table (the user's own file, or the base
// branch's), never a pull request's own kblaster.toml. Its base_url, api_key_env and command
// decide where a key is sent and what program runs, so from a PR they could send the key to
// the PR author's server or run the PR author's code (docs/llm.md, "Trust").
#pragma once

#include <toml++/toml.h>

#include <optional>
#include <string>

#include "core/status.h"
#include "llm/llm_settings.h"

namespace kblaster {

// The [llm] table of `root`, the parsed file that `file` names in errors; nullopt when
// absent (no LLM: the embedded policy alone). Pure: reads no environment. Errors:
// Error::config at the value's file:line:col naming the field (an unknown field, a backend
// that is none of openai/anthropic/command, a missing model or command, a field the backend
// does not take, a value outside its bounds in llm/llm_limits.h).
Result<std::optional<LlmSettings>> parse_llm(const toml::table& root, const std::string& file);

}  // namespace kblaster
