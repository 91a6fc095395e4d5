// The four prompts of the search's LLM steps, read from one directory (kb/prompts/ in the
// source tree): apply.md, repair.md, review.md and gap.md.
#pragma once

#include <array>
#include <cstddef>
#include <filesystem>
#include <string_view>

#include "core/environment.h"
#include "core/status.h"
#include "llm/prompt_template.h"

namespace kblaster {

// A step that asks the model; its name is the template's file stem and the request's purpose.
enum class PromptKind {
  apply,   // rewrite the parent with a technique
  repair,  // fix a candidate that did not compile
  review,  // judge whether a candidate still computes the whole function
  gap,     // the lesson of predicted against observed gain
};

// "apply", "repair", "review" or "gap".
std::string_view prompt_kind_name(PromptKind kind);

// Where the templates are: `given` (a flag) when not empty, else $KBLASTER_PROMPTS, else the
// kb/prompts installed with kblaster.
std::filesystem::path prompts_dir(const std::filesystem::path& given,
                                  const EnvironmentLookup& environment);

// How many kinds of prompt there are.
inline constexpr std::size_t kPromptKinds = 4;

// The four templates, parsed and checked, by kind.
struct PromptSet {
  std::array<PromptTemplate, kPromptKinds> templates;

  const PromptTemplate& of(PromptKind kind) const {
    return templates[static_cast<std::size_t>(kind)];
  }
};

// Reads <dir>/<kind>.md for every kind. A missing or malformed file, or a template that
// leaves out a slot its step cannot do without (the apply prompt without {{parent_source}}),
// is an Error::config naming the file (read_bounded's usage error for a file not there).
Result<PromptSet> load_prompt_set(const std::filesystem::path& dir);

}  // namespace kblaster
