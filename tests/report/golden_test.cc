// Golden reports from real results: each row renders its results together, and the
// Markdown and HTML must equal tests/report/golden/<name>.md and .html byte for byte.
// After an intended change, rewrite them and review the diff:
//   KBLASTER_UPDATE_GOLDEN=1 build/tests/kblaster_tests --gtest_filter='Golden*'
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <vector>

#include "report/html_report.h"
#include "report/markdown_report.h"
#include "report/result_reader.h"
#include "test_paths.h"

namespace kblaster {
namespace {

struct Golden {
  const char* name;
  std::vector<const char*> results;  // repository-relative, rendered in this order
};

const char* const kSlower = "tests/eval/fixtures/h200/UncoalescedAccessIsSlower.json";
const char* const kSame = "tests/eval/fixtures/h200/CommentOnlyEditIsSame.json";
const char* const kWrong = "tests/eval/fixtures/h200/ChangedOutputIsAFunctionalRegression.json";

// One row per golden; a new real result needs one row here and a KBLASTER_UPDATE_GOLDEN run.
const Golden kGoldens[] = {
    {"check_slower", {kSlower}},
    {"check_same", {kSame}},
    {"check_regression", {kWrong}},
    {"check_all", {kSlower, kSame, kWrong}},
    {"optimize", {"tests/eval/fixtures/h200/optimize_softmax_slow_matmul_naive.json"}},
    {"bench", {"tests/eval/fixtures/h200/bench_axpy_matmul_naive.json"}},
    {"check_and_optimize",
     {kSlower, "tests/eval/fixtures/h200/optimize_softmax_slow_matmul_naive.json"}},
};

// What a failing test names.
void PrintTo(const Golden& golden, std::ostream* out) { *out << golden.name; }

class GoldenReport : public ::testing::TestWithParam<Golden> {};

std::vector<ResultView> views_of(const Golden& golden) {
  std::vector<ResultView> views;
  for (const char* relative : golden.results) {
    std::ifstream in(testing::source_dir() / relative);
    auto view = read_result(nlohmann::json::parse(in), relative);
    EXPECT_TRUE(view.ok()) << view.error().message;
    if (view.ok()) views.push_back(std::move(*view));
  }
  return views;
}

// Compares `actual` with the golden file, or rewrites it under KBLASTER_UPDATE_GOLDEN=1.
void expect_golden(const std::string& actual, const std::string& file) {
  const auto path = testing::source_dir() / "tests/report/golden" / file;
  const char* update = std::getenv("KBLASTER_UPDATE_GOLDEN");
  if (update && std::string(update) == "1") {
    std::ofstream(path, std::ios::binary) << actual;
    GTEST_SKIP() << "rewrote " << path.string();
  }
  const std::string expected = testing::read_text(path);
  ASSERT_FALSE(expected.empty()) << path.string()
                                 << " is missing; KBLASTER_UPDATE_GOLDEN=1 "
                                    "writes it";
  if (actual == expected) return;
  std::size_t line = 1, at = 0;
  while (at < actual.size() && at < expected.size() && actual[at] == expected[at])
    line += actual[at++] == '\n';
  ADD_FAILURE() << file << " differs from its golden from line " << line
                << " on:\n  golden: " << expected.substr(at, 120)
                << "\n  actual: " << actual.substr(at, 120)
                << "\nIf the change is intended: KBLASTER_UPDATE_GOLDEN=1 "
                   "build/tests/kblaster_tests --gtest_filter='Golden*', then review the diff.";
}

TEST_P(GoldenReport, MarkdownIsTheGolden) {
  expect_golden(render_markdown(views_of(GetParam())), std::string(GetParam().name) + ".md");
}

TEST_P(GoldenReport, HtmlIsTheGolden) {
  expect_golden(render_html(views_of(GetParam())), std::string(GetParam().name) + ".html");
}

INSTANTIATE_TEST_SUITE_P(Golden, GoldenReport, ::testing::ValuesIn(kGoldens),
                         [](const auto& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace kblaster
