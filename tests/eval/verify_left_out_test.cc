// Sizes a kernel's `requires` leaves out are said in its verification, so a result shows what
// was not verified and why (issue 22, point 3).
#include <gtest/gtest.h>

#include "eval/verify_step.h"
#include "result_schema.h"
#include "test_paths.h"

namespace kblaster {
namespace {

TEST(VerificationJson, SaysEachSizeLeftOutAndWhyAndValidates) {
  KernelSpec spec;
  spec.name = "axpy";
  spec.args = {ArgSpec{.name = "n", .type = DType::i32}};
  spec.sizes = {{{"n", 65536}}};
  spec.left_out = {{{{"n", 1001}}, "requires `n % 4 == 0` (n=1001)"}};
  KernelVerification v{.spec = &spec, .status = KernelVerification::Status::passed};
  v.sizes.push_back({"n=65536", CheckVerdict{true, "passed", "", {}}});
  const auto j = to_json(v);
  ASSERT_TRUE(j.contains("left_out"));
  EXPECT_EQ(
      j["left_out"],
      (nlohmann::json::array({{{"size", "n=1001"}, {"why", "requires `n % 4 == 0` (n=1001)"}}})));
  auto result = nlohmann::json::parse(testing::read_text(
      testing::source_dir() / "tests/eval/fixtures/h200/verify_axpy_softmax.json"));
  result["kernels"][0]["left_out"] = j["left_out"];
  testing::TempDir dir;
  EXPECT_TRUE(testing::is_valid_result(result, "verify", dir));
  spec.left_out.clear();
  EXPECT_FALSE(to_json(v).contains("left_out")) << "nothing left out, nothing said";
}

}  // namespace
}  // namespace kblaster
