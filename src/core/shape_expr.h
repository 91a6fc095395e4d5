// Integer expressions over a kernel's scalar arguments, as used for shapes and
// FLOP counts: "N*C", "(M + 1) * K / 2". Operators: + - * / % and parentheses;
// operands are non-negative integer literals and scalar names.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"

namespace kblaster {

class ShapeExpr {
 public:
  // Parses `text`. On failure the Error's `where` is "col N" (1-based, in `text`).
  static Result<ShapeExpr> parse(std::string_view text);

  // Evaluates with the given scalar values. Fails on an unknown name, division
  // by zero, or a result outside int64 (overflow is checked at every step).
  Result<std::int64_t> evaluate(const std::map<std::string, std::int64_t>& scalars) const;

  // Every name the expression refers to, in order of first use.
  const std::vector<std::string>& names() const { return names_; }
  const std::string& text() const { return text_; }

  struct Node;

 private:
  std::string text_;
  std::vector<std::string> names_;
  std::shared_ptr<const Node> root_;  // immutable, so copies may share it
};

}  // namespace kblaster
