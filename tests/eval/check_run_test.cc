// The pure parts of check_run: what a new kernel's row says about the kernels the change deletes.
#include "eval/check_run.h"

#include <gtest/gtest.h>

namespace kblaster {
namespace {

CheckTarget target(const std::string& kernel, bool at_head) {
  return {kernel, at_head ? "new_kernel" : "deleted", std::nullopt, at_head};
}

TEST(DeletedKernelsNote, NamesAFewDeletedKernelsAndCountsTheRest) {
  EXPECT_EQ(deleted_kernels_note({target("added", true)}), "");
  EXPECT_EQ(deleted_kernels_note({target("added", true), target("old", false)}),
            "the change also deletes `old`: if this kernel replaces one, it is not compared with "
            "it");
  std::vector<CheckTarget> many{target("added", true)};
  for (int i = 0; i < 1000; ++i) many.push_back(target("k" + std::to_string(i), false));
  EXPECT_EQ(deleted_kernels_note(many),
            "the change also deletes `k0`, `k1`, `k2`, and 997 more: if this kernel replaces one, "
            "it is not compared with it");
}

}  // namespace
}  // namespace kblaster
