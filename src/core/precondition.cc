#include "core/precondition.h"

#include <algorithm>
#include <array>
#include <utility>

#include "core/input_limits.h"

namespace kblaster {
namespace {

constexpr std::array<std::pair<std::string_view, Precondition::Op>, 6> kOps = {{
    {"==", Precondition::Op::eq},
    {"!=", Precondition::Op::ne},
    {"<=", Precondition::Op::le},
    {">=", Precondition::Op::ge},
    {"<", Precondition::Op::lt},
    {">", Precondition::Op::gt},
}};

// The first comparison operator in `text` at or after `from`: its position and length.
std::optional<std::pair<std::size_t, std::size_t>> find_op(std::string_view text,
                                                           std::size_t from) {
  for (std::size_t i = from; i < text.size(); ++i)
    for (const auto& [spelling, op] : kOps)
      if (text.substr(i, spelling.size()) == spelling) return std::pair{i, spelling.size()};
  return std::nullopt;
}

}  // namespace

Result<Precondition> Precondition::parse(std::string_view text) {
  // A PR's config controls the text: quoted within the expression limit, not whole.
  const std::string shown = quote_input(text, kMaxExpressionLength);
  const auto at = find_op(text, 0);
  if (!at)
    return Error::config("", shown +
                                 " compares nothing; write one of == != < <= > >=, as in "
                                 "`C % 4 == 0`");
  if (find_op(text, at->first + at->second))
    return Error::config("", shown + " has more than one comparison; give each its own entry");
  Precondition p;
  p.text_ = std::string(text);
  for (const auto& [spelling, op] : kOps)
    if (text.substr(at->first, at->second) == spelling) p.op_ = op;
  auto lhs = ShapeExpr::parse(text.substr(0, at->first));
  if (!lhs) return Error::config("", shown + ": left of the comparison: " + lhs.error().message);
  auto rhs = ShapeExpr::parse(text.substr(at->first + at->second));
  if (!rhs) return Error::config("", shown + ": right of the comparison: " + rhs.error().message);
  p.lhs_ = std::move(*lhs);
  p.rhs_ = std::move(*rhs);
  return p;
}

Result<bool> Precondition::holds(const std::map<std::string, std::int64_t>& scalars) const {
  auto l = lhs_.evaluate(scalars);
  if (!l) return l.error();
  auto r = rhs_.evaluate(scalars);
  if (!r) return r.error();
  switch (op_) {
    case Op::eq:
      return *l == *r;
    case Op::ne:
      return *l != *r;
    case Op::lt:
      return *l < *r;
    case Op::le:
      return *l <= *r;
    case Op::gt:
      return *l > *r;
    case Op::ge:
      return *l >= *r;
  }
  return false;
}

std::vector<std::string> Precondition::names() const {
  std::vector<std::string> out = lhs_.names();
  for (const auto& n : rhs_.names())
    if (std::find(out.begin(), out.end(), n) == out.end()) out.push_back(n);
  return out;
}

std::optional<std::string> first_broken(const std::vector<Precondition>& preconditions,
                                        const std::map<std::string, std::int64_t>& scalars) {
  for (const auto& p : preconditions) {
    auto ok = p.holds(scalars);
    if (ok && *ok) continue;
    std::string values;
    for (const auto& n : p.names())
      if (auto it = scalars.find(n); it != scalars.end())
        values += (values.empty() ? "" : ", ") + n + "=" + std::to_string(it->second);
    return "`" + p.text() + "` (" + (ok ? values : ok.error().message) + ")";
  }
  return std::nullopt;
}

}  // namespace kblaster
