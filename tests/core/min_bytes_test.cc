// A spec's min_bytes (issue 22, point 5): the bytes one launch must move at the least, declared
// where the buffers overstate them, as in an embedding lookup that reads T rows of a V-row table.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "core/config_loader.h"
#include "core/launch_plan.h"
#include "core/source_tree.h"
#include "core/spec_json.h"
#include "test_paths.h"

namespace kblaster {
namespace {

using ::testing::HasSubstr;

std::string encoder(const std::string& min_bytes) {
  return "[[kernel]]\nname = \"encoder\"\nsource = \"k/e.cu\"\nlauncher = \"encoder\"\n"
         "args = [\n"
         "  { name = \"out\", type = \"f32\", shape = \"T*C\", role = \"out\" },\n"
         "  { name = \"idx\", type = \"i32\", shape = \"T\" },\n"
         "  { name = \"wte\", type = \"f32\", shape = \"V*C\" },\n"
         "  { name = \"T\", type = \"i32\" },\n  { name = \"V\", type = \"i32\" },\n"
         "  { name = \"C\", type = \"i32\" },\n]\n" +
         min_bytes + "sizes = [ { T = 8192, V = 50257, C = 768 } ]\n";
}

class MinBytes : public ::testing::Test {
 protected:
  Result<Config> load(const std::string& min_bytes) {
    dir.write("k/e.cu", "void encoder(float*, const int*, const float*, int, int, int) {}\n");
    dir.write("kblaster.toml", encoder(min_bytes));
    return load_config(DirectoryTree(dir.path()));
  }
  testing::TempDir dir;
};

TEST_F(MinBytes, ADeclaredMinimumReplacesTheBuffersTotal) {
  auto whole = load("");
  ASSERT_TRUE(whole.ok()) << whole.error().describe();
  auto plan = plan_kernel(whole->kernels[0]);
  ASSERT_TRUE(plan.ok());
  const std::int64_t buffers = 8192LL * 768 * 4 + 8192LL * 4 + 50257LL * 768 * 4;
  EXPECT_EQ(plan->sizes[0].min_bytes(), buffers) << "every buffer once: the whole table";

  auto gather = load("min_bytes = \"T*C*4 + T*4 + T*C*4\"\n");
  ASSERT_TRUE(gather.ok()) << gather.error().describe();
  auto gplan = plan_kernel(gather->kernels[0]);
  ASSERT_TRUE(gplan.ok());
  EXPECT_EQ(gplan->sizes[0].min_bytes(), 8192LL * 768 * 8 + 8192LL * 4) << "the rows read";
  EXPECT_EQ(to_json(gather->kernels[0])["min_bytes"], "T*C*4 + T*4 + T*C*4");
}

// The outputs are checked in full, so they are written in full: a declared minimum under their
// bytes is refused rather than allowed to lower bench's floor.
TEST_F(MinBytes, AMinimumUnderTheOutputsBytesIsAConfigError) {
  auto low = load("min_bytes = \"T*4\"\n");
  Result<KernelPlan> plan =
      low.ok() ? plan_kernel(low->kernels[0]) : Result<KernelPlan>(low.error());
  ASSERT_FALSE(plan.ok());
  EXPECT_EQ(plan.error().kind, ErrorKind::config);
  EXPECT_THAT(plan.error().message,
              HasSubstr("`T*4` is 32768 bytes here, fewer than the 25165824 bytes its outputs "
                        "alone must be written"));
}

TEST_F(MinBytes, AnUnknownNameIsAConfigErrorAtTheField) {
  auto bad = load("min_bytes = \"Q * 4\"\n");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().kind, ErrorKind::config);
  EXPECT_THAT(bad.error().message, HasSubstr("field `min_bytes`"));
}

}  // namespace
}  // namespace kblaster
