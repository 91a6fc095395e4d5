// The integer constants a CUDA source defines (object-like #defines, const and
// constexpr integer variables, dim3 variables), and compile-time evaluation of
// integer expressions over them. Works on mask_source() text.
// Limits: names resolve by position and braces (the latest definition before the
// use, in an enclosing block); a parameter shadowing a constant is not seen; only
// the first declarator of `const int a = 1, b = 2;` counts; #define values are
// taken as written, although a -D flag or an #undef may change them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "transform/source_text.h"

namespace kblaster {

struct ConstantDefinition {
  enum class Kind { macro, variable, dim3 };
  Kind kind = Kind::variable;
  std::string name;
  std::size_t name_begin = 0;   // also where the definition starts to be visible
  std::size_t visible_end = 0;  // the end of its enclosing block
  std::vector<Span> values;     // the initialiser; a dim3 has one span per component
};

// The thread count of a launch's block argument, and how it was computed.
struct BlockSize {
  std::int64_t threads = 0;
  std::string expression;  // in source names, e.g. "BLOCK * kTileRows"
  // The names `expression` mentions, with the definitions they meant there.
  std::vector<std::pair<std::string, const ConstantDefinition*>> names;
  // Every definition read, directly or through other definitions.
  std::vector<const ConstantDefinition*> used;
};

class ConstantTable {
 public:
  // Scans `masked`, which must outlive the table.
  explicit ConstantTable(std::string_view masked);

  // The definition `name` refers to at offset `at`, or nullptr.
  const ConstantDefinition* lookup(std::string_view name, std::size_t at) const;

  // The value of the integer expression `expr` (a span of the masked text) as
  // seen at `at`; nullopt unless every part is constant. Definitions read are
  // appended to `used` when given. Operators: + - * / % << >> ( ), unary -.
  std::optional<std::int64_t> evaluate(
      Span expr, std::size_t at, std::vector<const ConstantDefinition*>* used = nullptr) const;

  // The threads per block of a launch's block argument at `at`: an integer
  // expression, dim3(...) / dim3{...}, or a dim3 variable. nullopt unless constant.
  std::optional<BlockSize> block_size(Span arg, std::size_t at) const;

  const std::vector<ConstantDefinition>& definitions() const { return defs_; }

 private:
  void add_macros();
  void add_variables(std::string_view keyword);
  std::size_t enclosing_end(std::size_t pos) const;

  std::string_view masked_;
  std::vector<ConstantDefinition> defs_;
};

}  // namespace kblaster
