// libFuzzer target: ShapeExpr::parse on the input, then evaluate with every name
// bound (to a small value and to a large one) and with none bound.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/shape_expr.h"
#include "fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace kblaster;
  Result<ShapeExpr> expr =
      ShapeExpr::parse(std::string_view(reinterpret_cast<const char*>(data), size));
  if (!expr) {
    expect_input_error(expr.error());
    return 0;
  }
  for (std::int64_t value : {std::int64_t{7}, std::int64_t{1} << 40}) {
    std::map<std::string, std::int64_t> scalars;
    for (const std::string& name : expr->names()) scalars[name] = value;
    Result<std::int64_t> result = expr->evaluate(scalars);
    if (!result) expect_input_error(result.error());
  }
  Result<std::int64_t> unbound = expr->evaluate({});
  if (!unbound) expect_input_error(unbound.error());
  return 0;
}
