// The named slots of the prompt templates (kb/prompts/*.md), each with the most text a
// value may put into a prompt: one table, so a template and its caller agree on names.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace kblaster {

// A value a template can ask for, written `{{name}}` in the template.
enum class PromptSlot {
  parent_source,
  launcher_signature,
  spec,
  profile_summary,
  state,
  technique,
  technique_description,
  lessons,
  prior_failures,
  compile_errors,
  candidate_source,
  predicted_gain,
  observed_gain,
  profile_delta,
};

// The slot's name as templates write it: "parent_source".
std::string_view prompt_slot_name(PromptSlot slot);

// The slot called `name`; nullopt for a name no template may use.
std::optional<PromptSlot> prompt_slot_named(std::string_view name);

// The most bytes of a value that go into a prompt (kMaxSourceSlotBytes for a source).
std::size_t prompt_slot_cap(PromptSlot slot);

// Bytes of a kernel source in a prompt: far above the example kernels (under 4 KiB), and a
// fraction of any model's context.
inline constexpr std::size_t kMaxSourceSlotBytes = 64 * 1024;

// `text` whole when it has at most `cap` bytes; else its first bytes (never half of a UTF-8
// character) and a line "[… cut N bytes]" saying how many were left out.
std::string cap_slot_text(std::string_view text, std::size_t cap);

}  // namespace kblaster
