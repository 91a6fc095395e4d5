// optimize's flags for the LLM policy (docs/llm.md, "Configuring a run"), and opening the
// model they and the configs name.
#pragma once

#include <CLI/CLI.hpp>
#include <optional>

#include "eval/loaded_repo.h"
#include "eval/session.h"
#include "llm/llm_setup.h"
#include "search/optimize_result.h"

namespace kblaster {

// Adds --llm, --llm-model, --llm-base-url, --llm-key-env, --llm-command, --llm-config,
// --replay, --prompts, --max-tokens-per-kernel and --max-cost to `app`, bound to `flags`.
void add_llm_flags(CLI::App& app, LlmFlags& flags);

// The model of the run, nullopt with no [llm] anywhere and no --llm: read from the
// repository's kblaster.toml (untrusted), --llm-config and the flags, opened into
// `connection`, which must outlive the run. Errors: read_llm_table's, resolve_llm_settings's,
// open_llm's.
Result<std::optional<OptimizeLlm>> open_run_llm(const LlmFlags& flags, const LoadedRepo& repo,
                                                Session& session, LlmConnection& connection);

}  // namespace kblaster
