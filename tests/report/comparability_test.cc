// A report that sets results side by side says when they were not measured alike.
#include "report/comparability.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>

#include "report/markdown_report.h"
#include "report/result_reader.h"
#include "test_paths.h"

namespace kblaster {
namespace {

ResultView read(const std::string& relative, const std::string& gpu = "") {
  std::ifstream in(testing::source_dir() / relative);
  auto json = nlohmann::json::parse(in);
  if (!gpu.empty()) json["provenance"]["gpu"]["name"] = gpu;
  auto view = read_result(json, relative);
  EXPECT_TRUE(view.ok()) << view.error().message;
  return view.ok() ? *view : ResultView{};
}

TEST(Comparability, ResultsFromOneMachineNeedNoNote) {
  const std::vector<ResultView> results = {
      read("tests/eval/fixtures/h200/UncoalescedAccessIsSlower.json"),
      read("tests/eval/fixtures/h200/CommentOnlyEditIsSame.json")};
  EXPECT_THAT(comparability_notes(results), ::testing::IsEmpty());
}

TEST(Comparability, ADifferentGpuIsNamedInTheReport) {
  const std::vector<ResultView> results = {
      read("tests/eval/fixtures/h200/UncoalescedAccessIsSlower.json"),
      read("tests/eval/fixtures/h200/CommentOnlyEditIsSame.json", "NVIDIA A100")};
  EXPECT_THAT(comparability_notes(results),
              ::testing::ElementsAre("check 75b7741..ec7d1da and check 75b7741..597aac6 were not "
                                     "measured alike: different GPU models: NVIDIA H200 and "
                                     "NVIDIA A100"));
  EXPECT_THAT(render_markdown(results),
              ::testing::HasSubstr("\n\n> \u26A0\uFE0F check 75b7741..ec7d1da and check "
                                   "75b7741..597aac6 were not measured alike: "));
}

}  // namespace
}  // namespace kblaster
