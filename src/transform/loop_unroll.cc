#include "transform/loop_unroll.h"

#include <optional>

#include "transform/constant_table.h"
#include "transform/kernel_sites.h"
#include "transform/source_text.h"

namespace kblaster {
namespace {

constexpr auto npos = std::string_view::npos;

// The trip count of the loop whose header (between the parentheses) is `header`,
// or nullopt when it is not constant or longer than `limit`.
std::optional<int> trip_count(std::string_view masked, const ConstantTable& table, Span header,
                              int limit) {
  const auto parts = split_top_level(masked, header, ';');
  if (parts.size() != 3) return std::nullopt;
  // init: [type words] var = start
  const auto eq = parts[0].of(masked).find('=');
  if (eq == npos) return std::nullopt;
  Span var = trim(masked, {parts[0].begin, parts[0].begin + eq});
  std::size_t name_start = var.end;
  while (name_start > var.begin && is_identifier_char(masked[name_start - 1])) --name_start;
  const auto name = std::string(masked.substr(name_start, var.end - name_start));
  const auto start = table.evaluate({parts[0].begin + eq + 1, parts[0].end}, header.begin);
  // condition: var OP bound
  const auto cond = parts[1].of(masked);
  if (name.empty() || !start || !cond.starts_with(name) ||
      (cond.size() > name.size() && is_identifier_char(cond[name.size()])))
    return std::nullopt;
  std::size_t op_at = skip_spaces(cond, name.size());
  std::string op;
  while (op_at < cond.size() && std::string_view("<>=!").find(cond[op_at]) != npos)
    op += cond[op_at++];
  const auto bound = table.evaluate({parts[1].begin + op_at, parts[1].end}, header.begin);
  // step: ++var, var++, --var, var--, var OP= constant
  const auto step_text = collapse_spaces(parts[2].of(masked));
  std::string step_op;
  std::optional<std::int64_t> step = 1;
  // Compared piecewise, not as `"++" + name` (GCC 12's -Wrestrict misfires on those).
  auto is = [&](std::string_view pre, std::string_view post) {
    return step_text.size() == pre.size() + name.size() + post.size() &&
           step_text.starts_with(pre) && step_text.ends_with(post) &&
           step_text.compare(pre.size(), name.size(), name) == 0;
  };
  if (is("++", "") || is("", "++"))
    step_op = "+";
  else if (is("--", "") || is("", "--"))
    step_op = "-";
  else if (step_text.starts_with(name)) {
    const auto assign = parts[2].of(masked).find('=');
    if (assign == npos || assign < name.size()) return std::nullopt;
    step_op = collapse_spaces(parts[2].of(masked).substr(name.size(), assign - name.size()));
    step = table.evaluate({parts[2].begin + assign + 1, parts[2].end}, header.begin);
  }
  if (!bound || !step || step_op.empty()) return std::nullopt;
  std::int64_t v = *start;
  auto holds = [&] {
    return op == "<"    ? v < *bound
           : op == "<=" ? v <= *bound
           : op == ">"  ? v > *bound
           : op == ">=" ? v >= *bound
           : op == "!=" ? v != *bound
                        : false;
  };
  int trips = 0;
  for (; holds(); ++trips) {
    if (trips >= limit) return std::nullopt;
    const std::int64_t before = v;
    if (step_op == "+")
      v += *step;
    else if (step_op == "-")
      v -= *step;
    else if (step_op == "*")
      v *= *step;
    else if (step_op == "/" && *step != 0)
      v /= *step;
    else if (step_op == "<<" && *step > 0 && *step < 32)
      v <<= *step;
    else if (step_op == ">>" && *step > 0 && *step < 63)
      v >>= *step;
    else
      return std::nullopt;
    if (v == before) return std::nullopt;  // never ends
  }
  return trips;
}

// Whether the line before the one starting at `line` is a pragma about unrolling.
bool has_unroll_pragma(std::string_view masked, std::size_t line) {
  while (line > 0) {
    const std::size_t end = line - 1;  // the '\n' ending the previous line
    const auto prev = end == 0 ? npos : masked.rfind('\n', end - 1);
    const std::size_t begin = prev == npos ? 0 : prev + 1;
    const auto text = trim(masked, {begin, end}).of(masked);
    if (!text.empty()) return text.starts_with("#") && text.find("unroll") != npos;
    line = begin;
  }
  return false;
}

}  // namespace

SourceRewrite unroll_constant_loops(std::string_view source, const UnrollLimits& limits) {
  const std::string masked = mask_source(source);
  const ConstantTable table(masked);
  std::vector<Span> bodies;
  for (const auto qualifier : {"__global__", "__device__"})
    for (const auto& f : find_functions(masked, qualifier))
      if (f.body_close != npos) bodies.push_back({f.body_open, f.body_close});
  std::vector<Insertion> edits;
  std::string counts;
  for (const auto at : find_words(masked, "for")) {
    bool in_device_code = false;
    for (const auto b : bodies) in_device_code = in_device_code || (b.begin < at && at < b.end);
    const auto line = masked.rfind('\n', at) == npos ? 0 : masked.rfind('\n', at) + 1;
    const auto indent = masked.substr(line, at - line);
    const bool starts_line = indent.find_first_not_of(" \t") == npos;
    const bool in_macro = line >= 2 && masked[line - 2] == '\\';
    const auto open = skip_spaces(masked, at + 3);
    if (!in_device_code || !starts_line || in_macro || open >= masked.size() ||
        masked[open] != '(' || has_unroll_pragma(masked, line))
      continue;
    const auto close = find_closing(masked, open);
    if (close == npos) continue;
    const auto trips = trip_count(masked, table, {open + 1, close}, limits.max_trip_count);
    if (!trips || *trips < 2) continue;
    edits.push_back({line, std::string(indent) + "#pragma unroll\n"});
    counts += (counts.empty() ? "" : ", ") + std::to_string(*trips);
  }
  if (edits.empty())
    return {false, std::string(source),
            "no device loop with a constant trip count lacks #pragma unroll"};
  const auto n = edits.size();
  return {true, apply_insertions(source, std::move(edits)),
          "added #pragma unroll to " + std::to_string(n) + " loop" + (n == 1 ? "" : "s") +
              " with constant trip counts (" + counts + ")"};
}

}  // namespace kblaster
