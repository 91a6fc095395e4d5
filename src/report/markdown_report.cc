#include "report/markdown_report.h"

#include <map>

#include "report/markdown_blocks.h"

namespace kblaster {
namespace {

// The parts in the order they are cut.
constexpr MarkdownPart kCutOrder[] = {MarkdownPart::provenance, MarkdownPart::search,
                                      MarkdownPart::profile, MarkdownPart::verification,
                                      MarkdownPart::row};

// The parts a note on cuts names: those cut whole, then headings cut mid-text.
constexpr MarkdownPart kNoteOrder[] = {MarkdownPart::provenance, MarkdownPart::search,
                                       MarkdownPart::profile,    MarkdownPart::verification,
                                       MarkdownPart::row,        MarkdownPart::heading};

// "\n_Cut to fit 65536 characters: Provenance (2 results), kernel rows (3)._\n"
std::string cut_note(const std::map<MarkdownPart, std::size_t>& cut, std::size_t max_chars) {
  if (cut.empty()) return "";
  std::string parts;
  for (MarkdownPart p : kNoteOrder) {
    auto it = cut.find(p);
    if (it == cut.end()) continue;
    if (p == MarkdownPart::heading) {
      parts += (parts.empty() ? "" : ", ") + std::string("the rest of the text");
      continue;
    }
    const bool per_result = p != MarkdownPart::row;
    parts += (parts.empty() ? "" : ", ") + std::string(markdown_part_name(p)) + " (" +
             std::to_string(it->second) +
             (!per_result       ? ""
              : it->second == 1 ? " result"
                                : " results") +
             ")";
  }
  return "\n_Cut to fit " + std::to_string(max_chars) + " characters: " + parts + "._\n";
}

// `text` cut at a character boundary to at most `max` bytes.
std::string truncated(std::string text, std::size_t max) {
  if (text.size() <= max) return text;
  std::size_t end = max;
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
  text.resize(end);
  return text;
}

}  // namespace

std::string render_markdown(std::span<const ResultView> results, std::size_t max_chars) {
  std::vector<MarkdownBlock> blocks = markdown_blocks(results);
  std::vector<bool> kept(blocks.size(), true);
  std::size_t total = 0;
  for (const auto& b : blocks) total += b.text.size();
  std::map<MarkdownPart, std::size_t> cut;
  for (MarkdownPart part : kCutOrder)
    for (std::size_t i = blocks.size(); i-- > 0;) {
      if (total + cut_note(cut, max_chars).size() <= max_chars) break;
      if (blocks[i].part != part) continue;
      kept[i] = false, total -= blocks[i].text.size(), ++cut[part];
    }
  std::string out;
  for (std::size_t i = 0; i < blocks.size(); ++i)
    if (kept[i]) out += blocks[i].text;
  if (out.size() + cut_note(cut, max_chars).size() > max_chars) {
    // Headings alone are too long (a result with a huge note): cut them mid-text.
    ++cut[MarkdownPart::heading];
    const std::string note = cut_note(cut, max_chars);
    return truncated(std::move(out), max_chars > note.size() ? max_chars - note.size() : 0) +
           truncated(note, max_chars);
  }
  return out + cut_note(cut, max_chars);
}

}  // namespace kblaster
