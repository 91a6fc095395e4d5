#include "llm/prompt_set.h"

#include <algorithm>
#include <array>
#include <vector>

#ifndef KBLASTER_PROMPTS_DIR
#define KBLASTER_PROMPTS_DIR "kb/prompts"
#endif

namespace kblaster {
namespace {

struct KindRow {
  PromptKind kind;
  std::string_view name;
  std::vector<PromptSlot> required;  // without these the step cannot work
};

const std::array kKinds{
    KindRow{PromptKind::apply,
            "apply",
            {PromptSlot::parent_source, PromptSlot::launcher_signature, PromptSlot::technique}},
    KindRow{
        PromptKind::repair,
        "repair",
        {PromptSlot::candidate_source, PromptSlot::launcher_signature, PromptSlot::compile_errors}},
    KindRow{
        PromptKind::review, "review", {PromptSlot::parent_source, PromptSlot::candidate_source}},
    KindRow{PromptKind::gap, "gap", {PromptSlot::predicted_gain, PromptSlot::observed_gain}},
};

Result<PromptTemplate> load_checked(const std::filesystem::path& dir, const KindRow& row) {
  const auto file = dir / (std::string(row.name) + ".md");
  auto loaded = PromptTemplate::load(file, std::string(row.name));
  if (!loaded) return loaded.error();
  const auto used = loaded->slots();
  for (const auto slot : row.required)
    if (std::find(used.begin(), used.end(), slot) == used.end())
      return Error::config(file.string(), "the " + std::string(row.name) +
                                              " prompt must use the slot {{" +
                                              std::string(prompt_slot_name(slot)) + "}}");
  return loaded;
}

}  // namespace

std::string_view prompt_kind_name(PromptKind kind) {
  for (const auto& row : kKinds)
    if (row.kind == kind) return row.name;
  return "unknown";
}

std::filesystem::path prompts_dir(const std::filesystem::path& given,
                                  const EnvironmentLookup& environment) {
  if (!given.empty()) return given;
  if (const auto set = environment("KBLASTER_PROMPTS"); set && !set->empty()) return *set;
  return KBLASTER_PROMPTS_DIR;
}

Result<PromptSet> load_prompt_set(const std::filesystem::path& dir) {
  PromptSet set;
  for (const auto& row : kKinds) {
    auto loaded = load_checked(dir, row);
    if (!loaded) return loaded.error();
    set.templates[static_cast<std::size_t>(row.kind)] = std::move(*loaded);
  }
  return set;
}

}  // namespace kblaster
