#include "transform/macro_default.h"

#include <optional>
#include <string>
#include <vector>

#include "transform/source_text.h"

namespace kblaster {
namespace {

// The value of a `#define NAME value` whose NAME starts at `at`, as a span of `masked`
// (its trailing comment and spaces excluded); nullopt when `at` is no such definition.
// `continued` is set for a definition that goes on to the next line.
std::optional<Span> define_value(std::string_view masked, std::size_t at, std::size_t name_size,
                                 bool& continued) {
  const std::size_t line = masked.rfind('\n', at);
  const std::size_t begin = line == std::string_view::npos ? 0 : line + 1;
  std::size_t i = skip_spaces(masked, begin);
  if (i >= at || masked[i] != '#') return std::nullopt;
  i = skip_spaces(masked, i + 1);
  if (masked.substr(i, 6) != "define" || skip_spaces(masked, i + 6) != at) return std::nullopt;
  const std::size_t after = at + name_size;
  if (after < masked.size() && masked[after] == '(') return std::nullopt;  // function-like
  std::size_t end = masked.find('\n', after);
  if (end == std::string_view::npos) end = masked.size();
  Span value = trim(masked, {after, end});
  continued = !value.empty() && masked[value.end - 1] == '\\';
  return value;
}

// The value span of the one definition of `name`, or the reason there is none.
struct FoundDefault {
  std::optional<Span> value;
  std::string why_not;
};

FoundDefault find_default(std::string_view source, std::string_view name) {
  const std::string masked = mask_source(source);
  const std::string n(name);
  std::vector<Span> values;
  for (const std::size_t at : find_words(masked, name)) {
    bool continued = false;
    const auto span = define_value(masked, at, name.size(), continued);
    if (!span) continue;
    if (continued || span->empty())
      return {std::nullopt,
              "the source's #define " + n + " is empty or continued onto the next line"};
    values.push_back(*span);
  }
  if (values.empty())
    return {std::nullopt,
            "the source has no `#define " + n + " <value>` whose default could be set"};
  if (values.size() > 1)
    return {std::nullopt, "the source defines " + n + " " + std::to_string(values.size()) +
                              " times; which default its build takes depends on the "
                              "preprocessor"};
  return {values.front(), ""};
}

}  // namespace

std::optional<std::string> macro_default(std::string_view source, std::string_view name) {
  const FoundDefault found = find_default(source, name);
  if (!found.value) return std::nullopt;
  return std::string(found.value->of(source));
}

SourceRewrite set_macro_default(std::string_view source, std::string_view name,
                                std::string_view value) {
  const std::string n(name);
  const FoundDefault found = find_default(source, name);
  if (!found.value) return {false, std::string(source), found.why_not};
  const Span v = *found.value;
  if (v.of(source) == value)
    return {false, std::string(source),
            "the source's default of " + n + " is already " + std::string(value)};
  std::string out(source);
  out.replace(v.begin, v.end - v.begin, value);
  return {true, out,
          "#define " + n + " " + std::string(value) + " (was " + std::string(v.of(source)) +
              ") in the source"};
}

}  // namespace kblaster
