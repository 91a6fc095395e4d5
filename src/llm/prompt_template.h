// A prompt template: a file of kb/prompts/ with a system part and a user part, and named
// slots `{{parent_source}}` that a step fills with its values (prompt_slot.h lists them).
#pragma once

#include <cstddef>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"
#include "llm/llm_backend.h"
#include "llm/prompt_slot.h"

namespace kblaster {

// A step's values, by slot. A template ignores values it does not ask for.
using PromptValues = std::map<PromptSlot, std::string>;

// Bytes of a template file; ours are about 3 KiB.
inline constexpr std::size_t kMaxPromptTemplateBytes = 256 * 1024;

// A parsed template. The file reads: notes for its editors (not sent), a line
// `--- system ---`, the system text, a line `--- user ---`, the user text. Copyable value.
class PromptTemplate {
 public:
  // Parses `text`, read from `file` (for messages). `purpose` becomes the requests'
  // purpose. A missing or repeated marker, or a `{{` that does not open a known slot, is an
  // Error::config whose `where` is "file:line" and whose message names the slot.
  static Result<PromptTemplate> parse(std::string_view text, std::string file, std::string purpose);
  // parse() of the file at `file`, read within kMaxPromptTemplateBytes.
  static Result<PromptTemplate> load(const std::filesystem::path& file, std::string purpose);

  // The request: the system text and one user message, each slot replaced by its value cut
  // to the slot's cap (cap_slot_text). Values are inserted as they are: a `{{x}}` inside a
  // value is never expanded. A slot without a value is an Error::config naming the file and
  // the slot. Temperature and max_tokens keep LlmRequest's defaults.
  Result<LlmRequest> render(const PromptValues& values) const;

  // The slots the template uses, each once, in order of first use.
  std::vector<PromptSlot> slots() const;
  const std::string& file() const { return file_; }
  const std::string& purpose() const { return purpose_; }

 private:
  // Literal text, or a slot to fill.
  struct Piece {
    std::string text;
    std::optional<PromptSlot> slot;
  };
  using Pieces = std::vector<Piece>;

  static Result<Pieces> split_slots(std::string_view part, const std::string& file, int first_line);
  Result<std::string> fill(const Pieces& pieces, const PromptValues& values) const;

  std::string file_;
  std::string purpose_;
  Pieces system_;
  Pieces user_;
};

}  // namespace kblaster
