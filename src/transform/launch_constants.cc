#include "transform/launch_constants.h"

#include <algorithm>
#include <cctype>
#include <optional>

#include "transform/constant_table.h"
#include "transform/kernel_sites.h"
#include "transform/source_text.h"

namespace kblaster {
namespace {

constexpr std::int64_t kMaxThreadsPerBlock = 1024;
// The smallest literal offered: rewriting every 2 or 4 of a launcher would hit
// unrelated arithmetic far more often than block math.
constexpr std::int64_t kMinLiteralBlockDim = 8;

// The length of the integer suffix (u, l, ul, ...) at the end of `literal`.
std::size_t suffix_length(std::string_view literal) {
  std::size_t n = 0;
  while (n < literal.size() &&
         std::string_view("uUlLzZ").find(literal[literal.size() - 1 - n]) != std::string_view::npos)
    ++n;
  return n;
}

// The components of a dim3 block argument: those of `dim3(...)` / `dim3{...}`
// written in the launch, or of the dim3 variable it names; empty otherwise.
std::vector<Span> dim3_components(std::string_view masked, const ConstantTable& table, Span arg,
                                  std::size_t at) {
  arg = trim(masked, arg);
  const std::size_t open = skip_spaces(masked, arg.begin + 4);
  if (masked.compare(arg.begin, 4, "dim3") == 0 && open < arg.end &&
      (masked[open] == '(' || masked[open] == '{') && find_closing(masked, open) == arg.end - 1)
    return split_top_level(masked, {open + 1, arg.end - 1}, ',');
  const ConstantDefinition* var = table.lookup(arg.of(masked), at);
  if (var && var->kind == ConstantDefinition::Kind::dim3) return var->values;
  return {};
}

// Appends to `out` a literal constant for each value >= kMinLiteralBlockDim in
// `launch`'s block, when that block is a dim3 of integer literals alone, written
// inside the launching function (a file-scope dim3 may serve launchers whose grid
// math this would not rewrite), and `out` lacks it.
void add_literal_constants(std::string_view masked, const ConstantTable& table,
                           const LaunchSite& launch, std::vector<LaunchConstant>& out) {
  const auto components = dim3_components(masked, table, launch.config[1], launch.at);
  const auto function = enclosing_function(masked, launch.at);
  const auto literal = [&](Span s) { return is_literal_token(masked, s); };
  const auto inside = [&](Span s) {
    return function && s.begin >= function->body.begin && s.end <= function->body.end;
  };
  if (components.empty() || !function ||
      !std::all_of(components.begin(), components.end(), literal) ||
      !std::all_of(components.begin(), components.end(), inside))
    return;
  for (const Span first : components) {
    const auto value = table.evaluate(first, 0);
    const auto covers = [&](const LaunchConstant& k) {
      return k.value == *value && (k.value_begin == first.begin ||
                                   std::any_of(k.also.begin(), k.also.end(), [&](const auto& s) {
                                     return s.first == first.begin;
                                   }));
    };
    if (!value || *value < kMinLiteralBlockDim || std::any_of(out.begin(), out.end(), covers))
      continue;
    LaunchConstant k;
    k.kind = LaunchConstant::Kind::literal;
    k.name = "literal " + std::to_string(*value) + " of " + function->name + "'s block";
    k.value = *value;
    k.value_begin = first.begin;
    k.value_end = first.end;
    k.function = function->name;
    for (std::size_t i = function->body.begin; i < function->body.end;) {
      if (!std::isdigit(static_cast<unsigned char>(masked[i]))) {
        ++i;
        continue;
      }
      // A whole number token at a time, so the 16 of `1e-16` or `x16` is never one;
      // hex and octal literals are masks more often than block math.
      const Span token{i, number_end(masked, i)};
      const bool decimal = masked[i] != '0' || token.end - token.begin == 1;  // not 0x10, 020
      if (decimal && is_literal_token(masked, token) && table.evaluate(token, 0) == *value &&
          token.begin != first.begin)
        k.also.emplace_back(token.begin, token.end);
      i = token.end;
    }
    std::sort(k.also.begin(), k.also.end());
    k.also.erase(std::unique(k.also.begin(), k.also.end()), k.also.end());
    out.push_back(std::move(k));
  }
}

// The most threads per block each launch may have: 1024, or the kernel's
// `__launch_bounds__` when it has a constant one.
std::int64_t thread_limit(std::string_view masked, const ConstantTable& table,
                          std::string_view kernel) {
  std::int64_t limit = kMaxThreadsPerBlock;
  for (const auto& f : find_functions(masked, "__global__")) {
    if (f.name != kernel || !f.has_launch_bounds) continue;
    const std::string_view head = masked.substr(f.qualifier, f.name_begin - f.qualifier);
    const auto word = head.find("__launch_bounds__");
    if (word == std::string_view::npos) continue;
    const std::size_t open = skip_spaces(masked, f.qualifier + word + 17);
    if (open >= masked.size() || masked[open] != '(') continue;
    const std::size_t close = find_closing(masked, open);
    if (close == std::string_view::npos) continue;
    const auto args = split_top_level(masked, {open + 1, close}, ',');
    if (args.empty()) continue;
    if (const auto bound = table.evaluate(trim(masked, args[0]), open))
      limit = std::min(limit, *bound);
  }
  return limit;
}

// Each launch's kernel, constant threads per block (0 where not constant) and
// thread limit, in order.
struct LaunchThreads {
  std::string kernel;
  std::int64_t threads = 0, limit = kMaxThreadsPerBlock;
};
std::vector<LaunchThreads> launch_threads(std::string_view masked) {
  const ConstantTable table(masked);
  std::vector<LaunchThreads> out;
  for (const auto& launch : find_launches(masked)) {
    const auto size =
        launch.config.size() < 2 ? std::nullopt : table.block_size(launch.config[1], launch.at);
    out.push_back(
        {launch.kernel, size ? size->threads : 0, thread_limit(masked, table, launch.kernel)});
  }
  return out;
}

}  // namespace

std::vector<LaunchConstant> find_launch_constants(std::string_view source) {
  const std::string masked = mask_source(source);
  const ConstantTable table(masked);
  std::vector<const ConstantDefinition*> found;
  std::vector<LaunchConstant> constants;
  for (const auto& launch : find_launches(masked)) {
    if (launch.config.size() < 2) continue;
    const auto size = table.block_size(launch.config[1], launch.at);
    if (!size) continue;
    for (const auto* def : size->used)
      if (std::find(found.begin(), found.end(), def) == found.end()) found.push_back(def);
    add_literal_constants(masked, table, launch, constants);
  }
  for (const auto* def : found) {
    if (def->kind == ConstantDefinition::Kind::dim3) continue;
    const Span literal = def->values[0];
    if (!is_integer_literal(literal.of(masked))) continue;
    const auto value = table.evaluate(literal, def->name_begin + 1);
    if (!value) continue;
    LaunchConstant k;
    k.kind = def->kind == ConstantDefinition::Kind::macro ? LaunchConstant::Kind::macro
                                                          : LaunchConstant::Kind::variable;
    k.name = def->name;
    k.value = *value;
    k.value_begin = literal.begin;
    k.value_end = literal.end;
    constants.push_back(std::move(k));
  }
  std::sort(constants.begin(), constants.end(),
            [](const auto& a, const auto& b) { return a.value_begin < b.value_begin; });
  return constants;
}

SourceRewrite set_launch_constant(std::string_view source, const LaunchConstant& constant,
                                  std::int64_t value) {
  const auto unchanged = [&](std::string why) {
    return SourceRewrite{false, std::string(source), std::move(why)};
  };
  if (value <= 0) return unchanged("block-size constant " + constant.name + " must stay positive");
  std::vector<Span> spans{{constant.value_begin, constant.value_end}};
  for (const auto& [begin, end] : constant.also) spans.push_back({begin, end});
  const std::string masked = mask_source(source);
  const ConstantTable table(masked);
  for (const Span s : spans) {
    if (s.end > source.size() || s.empty())
      return unchanged("offsets of " + constant.name + " lie outside the source");
    if (!is_literal_token(masked, s) || table.evaluate(s, 0) != constant.value)
      return unchanged("source changed: " + constant.name + " is no longer " +
                       std::to_string(constant.value) + " at its offsets");
  }
  if (value == constant.value)
    return unchanged(constant.name + " is already " + std::to_string(value));
  std::sort(spans.begin(), spans.end(), [](Span a, Span b) { return a.begin > b.begin; });
  std::string out(source);
  for (const Span s : spans) {  // back to front, so the offsets before stay valid
    const auto literal = s.of(source);
    out.replace(s.begin, s.end - s.begin,
                std::to_string(value) +
                    std::string(literal.substr(literal.size() - suffix_length(literal))));
  }
  const auto before = launch_threads(masked);
  const auto after = launch_threads(mask_source(out));
  for (std::size_t i = 0; i < before.size() && after.size() == before.size(); ++i) {
    const LaunchThreads& a = after[i];
    if (a.threads > a.limit && a.threads != before[i].threads)
      return unchanged(std::to_string(value) + " would give " + a.kernel + " blocks of " +
                       std::to_string(a.threads) + " threads, over " +
                       (a.limit < kMaxThreadsPerBlock
                            ? "its __launch_bounds__ of " + std::to_string(a.limit)
                            : std::to_string(kMaxThreadsPerBlock)));
  }
  const std::string to = " to " + std::to_string(value);
  if (constant.kind != LaunchConstant::Kind::literal)
    return {true, std::move(out),
            "set " + constant.name + " from " + std::to_string(constant.value) + to};
  const std::string what = "set the literal " + std::to_string(constant.value) + " of the block";
  return {true, std::move(out),
          constant.also.empty()
              ? what + " in " + constant.function + to
              : what + " (and its " + std::to_string(constant.also.size()) + " other use" +
                    (constant.also.size() == 1 ? "" : "s") + " in " + constant.function + ")" + to};
}

}  // namespace kblaster
