// What a pull request changed in how its own kernel is checked, said beside check's verdict.
#include "eval/definition_change.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "test_paths.h"

namespace kblaster {
namespace {

KernelSpec with(ReferenceSpec reference, Tolerance tolerance) {
  KernelSpec k;
  k.name = "scale";
  k.reference = std::move(reference);
  k.tolerance = tolerance;
  return k;
}

TEST(CheckDefinitionChanges, ARepointedReferenceAndALooserToleranceAreSaid) {
  const ReferenceSpec cpu{ReferenceSpec::Kind::cpu, "k/ref.cpp", "scale_ref", false};
  const KernelSpec base = with(cpu, {1e-4, 1e-5});
  EXPECT_TRUE(check_definition_changes(base, base).empty());
  EXPECT_TRUE(check_definition_changes(base, with(cpu, {1e-5, 1e-6})).empty())
      << "a stricter tolerance checks more, not less";
  ReferenceSpec mine = cpu;
  mine.path = "k/mine.cpp";
  EXPECT_THAT(
      check_definition_changes(base, with(mine, {0.1, 1e-5})),
      ::testing::ElementsAre(
          "head changes its reference from k/ref.cpp:scale_ref to k/mine.cpp:scale_ref",
          "head loosens its tolerance (rtol 0.0001 -> 0.1, atol 1e-05 -> 1e-05); base's holds"));
  EXPECT_THAT(check_definition_changes(base, with(ReferenceSpec{}, {1e-4, 1e-5})),
              ::testing::ElementsAre(
                  "head changes its reference from k/ref.cpp:scale_ref to base's output"));
}

TEST(DefinitionChange, HeadIsVerifiedAtTheStricterToleranceFieldByField) {
  const Tolerance t = stricter_tolerance({1e-4, 1e-3}, {0.5, 1e-6});
  EXPECT_DOUBLE_EQ(t.rtol, 1e-4);
  EXPECT_DOUBLE_EQ(t.atol, 1e-6);
  const Tolerance tighter = stricter_tolerance({1e-4, 1e-5}, {1e-6, 1e-7});
  EXPECT_DOUBLE_EQ(tighter.rtol, 1e-6);
  EXPECT_DOUBLE_EQ(tighter.atol, 1e-7);
}

TEST(CheckDefinitionChanges, AnEditToTheReferenceFileIsSaid) {
  const ReferenceSpec cpu{ReferenceSpec::Kind::cpu, "k/ref.cpp", "scale_ref", false};
  const KernelSpec k = with(cpu, {1e-4, 1e-5});
  testing::TempDir base, head;
  base.write("k/ref.cpp", "void scale_ref(float* o) { o[0] = 2; }\n");
  head.write("k/ref.cpp", "void scale_ref(float* o) { o[0] = 3; }\n");
  EXPECT_EQ(reference_edit(k, k, DirectoryTree(base.path()), DirectoryTree(head.path())),
            "head edits its reference file `k/ref.cpp`");
  EXPECT_FALSE(reference_edit(k, k, DirectoryTree(base.path()), DirectoryTree(base.path())));
  const KernelSpec no_reference = with(ReferenceSpec{}, {1e-4, 1e-5});
  EXPECT_FALSE(reference_edit(no_reference, no_reference, DirectoryTree(base.path()),
                              DirectoryTree(head.path())));
}

TEST(CheckDefinitionChanges, AnUnreadableReferenceIsSaidNotTakenAsUnchanged) {
  const ReferenceSpec cpu{ReferenceSpec::Kind::cpu, "k/ref.cpp", "scale_ref", false};
  const KernelSpec k = with(cpu, {1e-4, 1e-5});
  testing::TempDir base, head;
  base.write("k/ref.cpp", "void scale_ref(float* o) { o[0] = 2; }\n");
  EXPECT_EQ(reference_edit(k, k, DirectoryTree(base.path()), DirectoryTree(head.path())),
            "head's reference file `k/ref.cpp` could not be compared with base's");
}

}  // namespace
}  // namespace kblaster
