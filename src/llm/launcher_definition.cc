#include "llm/launcher_definition.h"

#include <algorithm>
#include <cctype>
#include <optional>

#include "llm/parameter_type.h"
#include "transform/source_text.h"

namespace kblaster {
namespace {

// Bounds that keep a hostile answer (`f(f(f(…`) from costing time quadratic in its length:
// a launcher's parameter list, what stands between it and the body, and the mentions of the
// launcher's name that are looked at. Real sources stay far below each.
constexpr std::size_t kMaxParameterListBytes = 4096;
constexpr std::size_t kMaxBeforeBodyBytes = 1024;
constexpr std::size_t kMaxMentions = 10000;

// The identifier that ends at `end` (exclusive), or an empty span.
Span word_before(std::string_view masked, std::size_t end) {
  std::size_t begin = end;
  while (begin > 0 && is_identifier_char(masked[begin - 1])) --begin;
  return {begin, end};
}

std::size_t skip_spaces_back(std::string_view masked, std::size_t end) {
  while (end > 0 && std::isspace(static_cast<unsigned char>(masked[end - 1]))) --end;
  return end;
}

// What a '{' opens, for the name of what is defined inside it.
struct Scope {
  enum class Kind { named_namespace, transparent, opaque } kind = Kind::opaque;
  std::string name;  // a namespace's, possibly "a::b"; empty otherwise
};

// The scope the '{' at `open` opens: `namespace a::b {`, `namespace {` and `extern "C" {`
// keep definitions at namespace scope; anything else (a class, a function) does not.
Scope scope_opened_at(std::string_view masked, std::size_t open) {
  std::size_t end = skip_spaces_back(masked, open);
  if (end > 0 && masked[end - 1] == '"') {  // extern "C" { (the literal is masked)
    const auto quote = masked.rfind('"', end - 2);
    if (quote != std::string_view::npos &&
        word_before(masked, skip_spaces_back(masked, quote)).of(masked) == "extern")
      return {Scope::Kind::transparent, {}};
    return {};
  }
  std::size_t begin = end;  // back over a::b
  while (begin > 0 && (is_identifier_char(masked[begin - 1]) || masked[begin - 1] == ':')) --begin;
  const auto name = masked.substr(begin, end - begin);
  if (name == "namespace") return {Scope::Kind::transparent, {}};  // anonymous
  const auto keyword = word_before(masked, skip_spaces_back(masked, begin)).of(masked);
  if (keyword != "namespace" || name.empty()) return {};
  const auto before = skip_spaces_back(masked, begin);
  const auto inline_word =
      word_before(masked, skip_spaces_back(masked, before - keyword.size())).of(masked);
  if (inline_word == "inline") return {Scope::Kind::transparent, {}};
  return {Scope::Kind::named_namespace, std::string(name)};
}

// The qualifier written before the name at `name_begin` ("ns::" of `ns::launch`, "::" of
// `::launch`), and the offset where it starts.
std::pair<std::string, std::size_t> qualifier_before(std::string_view masked,
                                                     std::size_t name_begin) {
  std::size_t begin = name_begin;
  for (;;) {
    const auto colons = skip_spaces_back(masked, begin);
    if (colons < 2 || masked.substr(colons - 2, 2) != "::") break;
    const auto word = word_before(masked, skip_spaces_back(masked, colons - 2));
    begin = word.empty() ? colons - 2 : word.begin;
    if (word.empty()) break;
  }
  std::string qualifier;
  for (const char c : masked.substr(begin, name_begin - begin))
    if (!std::isspace(static_cast<unsigned char>(c))) qualifier += c;
  return {qualifier, begin};
}

// The parameter span of a definition whose name is at `name`: `(params)` followed, before
// any ';', '=', ',' or '}', by a '{'. nullopt for a call or a declaration.
std::optional<Span> definition_parameters(std::string_view masked, Span name) {
  const auto open = skip_spaces(masked, name.end);
  if (open >= masked.size() || masked[open] != '(') return std::nullopt;
  const auto close = find_closing(masked.substr(0, open + kMaxParameterListBytes), open);
  if (close == std::string_view::npos) return std::nullopt;
  const auto after = masked.substr(0, close + kMaxBeforeBodyBytes).find_first_of("{;=,}", close);
  if (after == std::string_view::npos || masked[after] != '{') return std::nullopt;
  return Span{open + 1, close};
}

std::string_view unqualified(std::string_view name) {
  const auto colons = name.rfind("::");
  return colons == std::string_view::npos ? name : name.substr(colons + 2);
}

}  // namespace

std::vector<LauncherDefinition> find_launcher_definitions(std::string_view source,
                                                          std::string_view launcher) {
  if (unqualified(launcher).empty()) return {};
  const std::string masked = mask_source(source);
  const std::string wanted(launcher.starts_with("::") ? launcher.substr(2) : launcher);
  std::vector<LauncherDefinition> found;
  std::vector<Scope> scopes;
  std::size_t scanned = 0;
  auto mentions = find_words(masked, unqualified(launcher));
  if (mentions.size() > kMaxMentions) mentions.resize(kMaxMentions);
  for (const auto at : mentions) {
    for (; scanned < at; ++scanned) {  // the scopes open at `at`
      if (masked[scanned] == '{') scopes.push_back(scope_opened_at(masked, scanned));
      if (masked[scanned] == '}' && !scopes.empty()) scopes.pop_back();
    }
    if (std::any_of(scopes.begin(), scopes.end(),
                    [](const Scope& s) { return s.kind == Scope::Kind::opaque; }))
      continue;
    const Span name{at, at + unqualified(launcher).size()};
    const auto params = definition_parameters(masked, name);
    if (!params) continue;
    const auto [qualifier, qualifier_begin] = qualifier_before(masked, at);
    const auto before = skip_spaces_back(masked, qualifier_begin);
    const bool arrow = before > 1 && masked.substr(before - 2, 2) == "->";
    if (before > 0 && (masked[before - 1] == '.' || arrow || masked[before - 1] == '~'))
      continue;  // a member access or a destructor
    std::string full;
    if (!qualifier.starts_with("::"))
      for (const auto& scope : scopes)
        if (scope.kind == Scope::Kind::named_namespace) full += scope.name + "::";
    full += (qualifier.starts_with("::") ? qualifier.substr(2) : qualifier) +
            std::string(name.of(masked));
    if (full != wanted) continue;
    LauncherDefinition definition{.name_begin = at, .parameter_types = {}};
    for (const auto piece : split_top_level(masked, *params, ',', AngleBrackets::nest))
      definition.parameter_types.push_back(parameter_type(piece.of(masked)));
    if (definition.parameter_types == std::vector<std::string>{"void"})
      definition.parameter_types.clear();
    found.push_back(std::move(definition));
  }
  return found;
}

std::string parameter_list_text(const std::vector<std::string>& types) {
  std::string text = "(";
  for (std::size_t i = 0; i < types.size(); ++i) text += (i ? ", " : "") + types[i];
  return text + ")";
}

}  // namespace kblaster
