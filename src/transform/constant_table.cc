#include "transform/constant_table.h"

#include <algorithm>
#include <cctype>
#include <cstring>

namespace kblaster {
namespace {

constexpr auto npos = std::string_view::npos;

bool is_type_word(std::string_view w) {
  static constexpr std::string_view kWords[] = {
      "static",   "inline", "constexpr", "const",      "int",         "unsigned", "signed",
      "long",     "short",  "size_t",    "std",        "int32_t",     "uint32_t", "int64_t",
      "uint64_t", "auto",   "dim3",      "__device__", "__constant__"};
  return std::find(std::begin(kWords), std::end(kWords), w) != std::end(kWords);
}

}  // namespace

ConstantTable::ConstantTable(std::string_view masked) : masked_(masked) {
  add_macros();
  for (const auto keyword : {"constexpr", "const", "dim3"}) add_variables(keyword);
}

void ConstantTable::add_macros() {
  for (std::size_t line = 0; line < masked_.size();) {
    auto eol = masked_.find('\n', line);
    if (eol == npos) eol = masked_.size();
    std::size_t i = skip_spaces(masked_, line);
    if (i < eol && masked_[i] == '#') {
      const Span directive = identifier_at(masked_, skip_spaces(masked_, i + 1));
      const Span name = identifier_at(masked_, skip_spaces(masked_, directive.end));
      const Span value = trim(masked_, {name.end, eol});
      const bool object_like = name.end < eol && masked_[name.end] != '(';
      const bool continued = eol > 0 && masked_[eol - 1] == '\\';
      if (directive.of(masked_) == "define" && !name.empty() && directive.end <= eol &&
          name.end <= eol && object_like && !value.empty() && !continued)
        defs_.push_back({ConstantDefinition::Kind::macro,
                         std::string(name.of(masked_)),
                         name.begin,
                         masked_.size(),
                         {value}});
    }
    line = eol + 1;
  }
}

// `[static] [constexpr|const] <integer type or dim3 or auto> name = init;`, or
// `name(init)` / `name{init}`; a dim3 also `= dim3(a, b)` or `= {a, b}`.
void ConstantTable::add_variables(std::string_view keyword) {
  for (const auto start : find_words(masked_, keyword)) {
    std::vector<Span> words;
    std::size_t i = start;
    while ((i = skip_spaces(masked_, i)) < masked_.size()) {
      const Span w = identifier_at(masked_, i);
      if (!w.empty())
        words.push_back(w), i = w.end;
      else if (masked_.compare(i, 2, "::") == 0)
        i += 2;
      else
        break;
    }
    if (words.size() < 2 || i >= masked_.size()) continue;
    const Span name = words.back();
    bool dim3 = false;
    bool constant = false;
    bool typed = true;
    for (std::size_t k = 0; k + 1 < words.size(); ++k) {
      const auto w = words[k].of(masked_);
      typed = typed && is_type_word(w);
      dim3 = dim3 || w == "dim3";
      constant = constant || w == "const" || w == "constexpr";
    }
    const bool seen = std::any_of(defs_.begin(), defs_.end(),
                                  [&](const auto& d) { return d.name_begin == name.begin; });
    if (!typed || seen || (!constant && !dim3)) continue;
    Span init;
    const char c = masked_[i];
    if (c == '=' && masked_[i + 1] != '=') {
      std::size_t end = i + 1;
      for (int depth = 0; end < masked_.size(); ++end) {
        const char e = masked_[end];
        if (e == '(' || e == '[' || e == '{') ++depth;
        if (e == ')' || e == ']' || e == '}') --depth;
        if (depth <= 0 && (e == ';' || e == ',' || depth < 0)) break;
      }
      init = trim(masked_, {i + 1, end});
      // dim3(a, b) and {a, b}: the components are inside the brackets.
      std::size_t open = init.begin;
      if (masked_.compare(open, 4, "dim3") == 0) open = skip_spaces(masked_, open + 4);
      if (dim3 && open < init.end && (masked_[open] == '(' || masked_[open] == '{') &&
          find_closing(masked_, open) == init.end - 1)
        init = {open + 1, init.end - 1};
      else if (dim3 && open != init.begin)
        continue;
    } else if (c == '(' || c == '{') {
      const auto close = find_closing(masked_, i);
      if (close == npos) continue;
      init = {i + 1, close};
    } else {
      continue;
    }
    auto values =
        dim3 ? split_top_level(masked_, init, ',') : std::vector<Span>{trim(masked_, init)};
    if (values.empty() || values.size() > 3 || values[0].empty()) continue;
    ConstantDefinition def{
        dim3 ? ConstantDefinition::Kind::dim3 : ConstantDefinition::Kind::variable,
        std::string(name.of(masked_)), name.begin, enclosing_end(name.begin), std::move(values)};
    // A dim3 that is not const must not be assigned to (block = ..., block.x = ...).
    bool assigned = false;
    for (const auto use : find_words(masked_.substr(0, def.visible_end), def.name)) {
      if (use <= name.begin || constant) continue;
      std::size_t j = skip_spaces(masked_, use + def.name.size());
      if (j < masked_.size() && masked_[j] == '.')
        j = skip_spaces(masked_, identifier_at(masked_, skip_spaces(masked_, j + 1)).end);
      if (j + 1 < masked_.size() && masked_[j] != '=' && std::strchr("+-*/", masked_[j])) ++j;
      assigned = assigned || (j + 1 < masked_.size() && masked_[j] == '=' && masked_[j + 1] != '=');
    }
    if (!assigned) defs_.push_back(std::move(def));
  }
}

std::size_t ConstantTable::enclosing_end(std::size_t pos) const {
  int depth = 0;
  for (std::size_t i = pos; i < masked_.size(); ++i) {
    if (masked_[i] == '{') ++depth;
    if (masked_[i] == '}' && --depth < 0) return i;
  }
  return masked_.size();
}

const ConstantDefinition* ConstantTable::lookup(std::string_view name, std::size_t at) const {
  const ConstantDefinition* best = nullptr;
  for (const auto& d : defs_) {
    if (d.name != name || d.name_begin >= at || at > d.visible_end) continue;
    if (!best || d.name_begin > best->name_begin) best = &d;
  }
  return best;
}

}  // namespace kblaster
