#include "llm/prompt_slot.h"

#include <array>

namespace kblaster {
namespace {

struct SlotRow {
  PromptSlot slot;
  std::string_view name;
  std::size_t cap;  // bytes
};

// Caps: a source may be whole; a diagnostic, a profile or the lessons are read from their
// start, so their head is what matters; a gain or a name is one line.
constexpr std::array kSlots{
    SlotRow{PromptSlot::parent_source, "parent_source", kMaxSourceSlotBytes},
    SlotRow{PromptSlot::launcher_signature, "launcher_signature", 1024},
    SlotRow{PromptSlot::spec, "spec", 4096},
    SlotRow{PromptSlot::profile_summary, "profile_summary", 4096},
    SlotRow{PromptSlot::state, "state", 512},
    SlotRow{PromptSlot::technique, "technique", 256},
    SlotRow{PromptSlot::technique_description, "technique_description", 4096},
    SlotRow{PromptSlot::lessons, "lessons", 6144},
    SlotRow{PromptSlot::prior_failures, "prior_failures", 6144},
    SlotRow{PromptSlot::compile_errors, "compile_errors", 8192},
    SlotRow{PromptSlot::candidate_source, "candidate_source", kMaxSourceSlotBytes},
    SlotRow{PromptSlot::predicted_gain, "predicted_gain", 256},
    SlotRow{PromptSlot::observed_gain, "observed_gain", 256},
    SlotRow{PromptSlot::profile_delta, "profile_delta", 4096},
};

const SlotRow& row_of(PromptSlot slot) {
  for (const auto& row : kSlots)
    if (row.slot == slot) return row;
  return kSlots.front();  // unreachable: every enumerator has a row
}

// The length of the longest prefix of `text` within `cap` bytes that ends on a character
// boundary: continuation bytes (10xxxxxx) never start the cut-off part.
std::size_t utf8_prefix(std::string_view text, std::size_t cap) {
  std::size_t end = cap;
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
  return end;
}

}  // namespace

std::string_view prompt_slot_name(PromptSlot slot) { return row_of(slot).name; }

std::optional<PromptSlot> prompt_slot_named(std::string_view name) {
  for (const auto& row : kSlots)
    if (row.name == name) return row.slot;
  return std::nullopt;
}

std::size_t prompt_slot_cap(PromptSlot slot) { return row_of(slot).cap; }

std::string cap_slot_text(std::string_view text, std::size_t cap) {
  if (text.size() <= cap) return std::string(text);
  const std::size_t kept = utf8_prefix(text, cap);
  return std::string(text.substr(0, kept)) + "\n[… cut " + std::to_string(text.size() - kept) +
         " bytes]";
}

}  // namespace kblaster
