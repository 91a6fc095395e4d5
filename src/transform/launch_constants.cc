#include "transform/launch_constants.h"

#include <algorithm>
#include <cctype>

#include "transform/constant_table.h"
#include "transform/kernel_sites.h"
#include "transform/source_text.h"

namespace kblaster {
namespace {

// The length of the integer suffix (u, l, ul, ...) at the end of `literal`.
std::size_t suffix_length(std::string_view literal) {
  std::size_t n = 0;
  while (n < literal.size() &&
         std::string_view("uUlLzZ").find(literal[literal.size() - 1 - n]) != std::string_view::npos)
    ++n;
  return n;
}

bool is_integer_literal(std::string_view text) {
  return !text.empty() && std::isdigit(static_cast<unsigned char>(text[0])) &&
         std::all_of(text.begin(), text.end(),
                     [](char c) { return is_identifier_char(c) || c == '\''; });
}

}  // namespace

std::vector<LaunchConstant> find_launch_constants(std::string_view source) {
  const std::string masked = mask_source(source);
  const ConstantTable table(masked);
  std::vector<const ConstantDefinition*> found;
  for (const auto& launch : find_launches(masked)) {
    if (launch.config.size() < 2) continue;
    const auto size = table.block_size(launch.config[1], launch.at);
    if (!size) continue;
    for (const auto* def : size->used)
      if (std::find(found.begin(), found.end(), def) == found.end()) found.push_back(def);
  }
  std::sort(found.begin(), found.end(),
            [](const auto* a, const auto* b) { return a->name_begin < b->name_begin; });
  std::vector<LaunchConstant> constants;
  for (const auto* def : found) {
    if (def->kind == ConstantDefinition::Kind::dim3) continue;
    const Span literal = def->values[0];
    if (!is_integer_literal(literal.of(masked))) continue;
    const auto value = table.evaluate(literal, def->name_begin + 1);
    if (!value) continue;
    constants.push_back({def->kind == ConstantDefinition::Kind::macro
                             ? LaunchConstant::Kind::macro
                             : LaunchConstant::Kind::variable,
                         def->name, *value, literal.begin, literal.end});
  }
  return constants;
}

SourceRewrite set_launch_constant(std::string_view source, const LaunchConstant& constant,
                                  std::int64_t value) {
  const auto unchanged = [&](std::string why) {
    return SourceRewrite{false, std::string(source), std::move(why)};
  };
  if (value <= 0) return unchanged("block-size constant " + constant.name + " must stay positive");
  if (constant.value_end > source.size() || constant.value_begin >= constant.value_end)
    return unchanged("offsets of " + constant.name + " lie outside the source");
  const auto literal =
      source.substr(constant.value_begin, constant.value_end - constant.value_begin);
  const std::string masked = mask_source(source);
  const auto current =
      ConstantTable(masked).evaluate({constant.value_begin, constant.value_end}, 0);
  if (!is_integer_literal(literal) || current != constant.value)
    return unchanged("source changed: " + constant.name + " is no longer " +
                     std::to_string(constant.value) + " at its offsets");
  if (value == constant.value)
    return unchanged(constant.name + " is already " + std::to_string(value));
  std::string out(source.substr(0, constant.value_begin));
  out += std::to_string(value);
  out += literal.substr(literal.size() - suffix_length(literal));
  out += source.substr(constant.value_end);
  return {true, std::move(out),
          "set " + constant.name + " from " + std::to_string(constant.value) + " to " +
              std::to_string(value)};
}

}  // namespace kblaster
