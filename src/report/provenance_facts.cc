#include "report/provenance_facts.h"

namespace kblaster {
namespace {

// Text fields copied as they are: the fact's label and the field's path.
struct TextFact {
  const char* label;
  const char* object;  // "" for provenance itself
  const char* field;
};
constexpr TextFact kTextFacts[] = {
    {"GPU", "gpu", "name"},
    {"GPU UUID", "gpu", "uuid"},
    {"driver", "gpu", "driver_version"},
    {"clocks locked", "gpu", "clocks_locked"},
    {"nvcc", "", "nvcc_version"},
    {"kblaster", "", "kblaster_version"},
    {"repository", "", "repository"},
    {"base", "", "base_sha"},
    {"head", "", "head_sha"},
    {"started", "", "started_at"},
    {"finished", "", "finished_at"},
};

}  // namespace

std::string short_sha(const std::string& sha) { return sha.substr(0, 7); }

Result<Facts> provenance_facts(const JsonField& provenance) {
  if (!provenance.present()) return provenance.error("missing; expected an object");
  Facts out;
  for (const TextFact& f : kTextFacts) {
    const JsonField field = *f.object ? provenance[f.object][f.field] : provenance[f.field];
    auto text = field.optional_string();
    if (!text) return text.error();
    if (!text->empty()) out.emplace_back(f.label, *text);
  }
  auto seeds = provenance["seeds"].items();
  if (!seeds) return seeds.error();
  std::string joined;
  for (const JsonField& s : *seeds) {
    auto n = s.unsigned_integer();
    if (!n) return n.error();
    joined += (joined.empty() ? "" : ", ") + std::to_string(*n);
  }
  if (!joined.empty()) out.emplace_back("seeds", joined);
  auto argv = provenance["command_line"].items();
  if (!argv) return argv.error();
  std::string line;
  for (const JsonField& a : *argv) {
    auto word = a.string();
    if (!word) return word.error();
    line += (line.empty() ? "" : " ") + *word;
  }
  if (!line.empty()) out.emplace_back("command", line);
  return out;
}

}  // namespace kblaster
