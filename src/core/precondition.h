// A kernel's declared preconditions (`requires = ["C % 4 == 0", "C >= block_size"]`): integer
// comparisons a launch needs, over its scalars, tunables and constants. Sizes that break one are
// left out, and the search does not build a child whose tunables break one.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/shape_expr.h"
#include "core/status.h"

namespace kblaster {

class Precondition {
 public:
  enum class Op { eq, ne, lt, le, gt, ge };

  // Parses "LHS OP RHS", OP one of == != < <= > >=, each side a ShapeExpr. More than one
  // comparison, or none, is an Error naming the text.
  static Result<Precondition> parse(std::string_view text);

  // Whether it holds with `scalars`; an unknown name, division by zero or overflow is an Error.
  Result<bool> holds(const std::map<std::string, std::int64_t>& scalars) const;

  // Every name either side uses, in order of first use.
  std::vector<std::string> names() const;
  const std::string& text() const { return text_; }

 private:
  std::string text_;
  ShapeExpr lhs_, rhs_;
  Op op_ = Op::eq;
};

// The first of `preconditions` that does not hold with `scalars`, as "`C % 4 == 0` (C=1001)":
// the condition and the values of the names it uses; nullopt when all hold. One that cannot be
// evaluated counts as not holding, with the reason.
std::optional<std::string> first_broken(const std::vector<Precondition>& preconditions,
                                        const std::map<std::string, std::int64_t>& scalars);

}  // namespace kblaster
