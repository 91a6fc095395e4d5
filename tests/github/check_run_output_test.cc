#include "github/check_run_output.h"

#include <gtest/gtest.h>

#include <fstream>

#include "h200_fixtures.h"

namespace kblaster {
namespace {

TEST(CheckRunOutput, TheConclusionFollowsTheResultsOwnFailOn) {
  auto slower = testing::h200_fixture("UncoalescedAccessIsSlower.json");
  EXPECT_EQ(check_conclusion(slower), "failure");
  slower["fail_on"] = "error";
  EXPECT_EQ(check_conclusion(slower), "success") << "SLOWER does not fail under fail_on error";
  EXPECT_EQ(check_conclusion(testing::h200_fixture("ChangedOutputIsAFunctionalRegression.json")),
            "failure");
  EXPECT_EQ(check_conclusion(testing::h200_fixture("CommentOnlyEditIsSame.json")), "success");
  auto never = testing::h200_fixture("ChangedOutputIsAFunctionalRegression.json");
  never["fail_on"] = "never";
  EXPECT_EQ(check_conclusion(never), "success");

  // A changed kernel nothing could check fails closed, as check's exit code does.
  auto unverified = testing::h200_fixture("CommentOnlyEditIsSame.json");
  unverified["kernels"][0]["verdict"] = "UNVERIFIED";
  unverified["fail_on"] = "error";
  EXPECT_EQ(check_conclusion(unverified), "failure");

  auto skipped = testing::h200_fixture("CommentOnlyEditIsSame.json");
  skipped["kernels"][0]["verdict"] = "SKIPPED";
  EXPECT_EQ(check_conclusion(skipped), "neutral") << "nothing was measured";
  EXPECT_EQ(check_conclusion(nlohmann::json::object()), "neutral");
}

TEST(CheckRunOutput, SlowerAndWrongKernelsAreAnnotatedOnTheirLauncherLine) {
  auto check = testing::h200_fixture("UncoalescedAccessIsSlower.json");
  check["kernels"][0]["source"] = {{"path", "kernels/axpy.cu"}, {"line", 12}};
  check["kernels"][1]["source"] = {{"path", "kernels/axpy_small.cu"}};
  auto annotations = check_annotations(check);
  ASSERT_EQ(annotations.size(), 2u);
  EXPECT_EQ(annotations[0].path, "kernels/axpy.cu");
  EXPECT_EQ(annotations[0].start_line, 12u);
  EXPECT_EQ(annotations[0].level, "failure");
  EXPECT_EQ(annotations[0].title, "axpy: SLOWER");
  EXPECT_EQ(annotations[0].message, check["kernels"][0]["reason"]);
  EXPECT_EQ(annotations[1].start_line, 1u) << "no line known: the file's first";
  const auto j = to_json(annotations[0]);
  EXPECT_EQ(j["annotation_level"], "failure");
  EXPECT_EQ(j["end_line"], 12);

  check["fail_on"] = "error";
  EXPECT_EQ(check_annotations(check)[0].level, "warning");
  check["kernels"][0].erase("source");
  EXPECT_EQ(check_annotations(check).size(), 1u) << "a kernel with no source has nowhere to go";
  EXPECT_TRUE(check_annotations(testing::h200_fixture("CommentOnlyEditIsSame.json")).empty());
}

// NOT_COMPARED (head changed its definition so that it could not be timed) fails and is
// annotated as SLOWER is, as check's exit code counts it.
TEST(CheckRunOutput, AnUncomparedKernelFailsAsASlowdownWould) {
  auto check = testing::h200_fixture("CommentOnlyEditIsSame.json");
  check["kernels"][0]["verdict"] = "NOT_COMPARED";
  check["kernels"][0]["source"] = {{"path", "kernels/softmax.cu"}, {"line", 40}};
  EXPECT_EQ(check_conclusion(check), "failure");
  ASSERT_EQ(check_annotations(check).size(), 1u);
  EXPECT_EQ(check_annotations(check)[0].level, "failure");
  check["fail_on"] = "error";
  EXPECT_EQ(check_conclusion(check), "success");
  EXPECT_EQ(check_annotations(check)[0].level, "warning");
}

TEST(CheckRunOutput, AnnotationsGoFiftyPerRequest) {
  std::vector<Annotation> many(120);
  for (std::size_t i = 0; i < many.size(); ++i) many[i].start_line = i + 1;
  const auto batches = annotation_batches(many);
  ASSERT_EQ(batches.size(), 3u);
  EXPECT_EQ(batches[0].size(), 50u);
  EXPECT_EQ(batches[1].size(), 50u);
  EXPECT_EQ(batches[2].size(), 20u);
  EXPECT_EQ(batches[2].back().start_line, 120u);
  EXPECT_TRUE(annotation_batches({}).empty());
}

}  // namespace
}  // namespace kblaster
