// `kblaster report` through the real binary: saved results in, a report out in each
// format; files that are not results are usage errors naming them.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli_run.h"
#include "result_schema.h"
#include "test_paths.h"

namespace kblaster {
namespace {

using ::testing::HasSubstr;
using testing::run_kblaster;
using ::testing::StartsWith;

const std::string kSlower = "tests/eval/fixtures/h200/UncoalescedAccessIsSlower.json";
const std::string kWrong = "tests/eval/fixtures/h200/ChangedOutputIsAFunctionalRegression.json";
const std::string kOptimize = "tests/eval/fixtures/h200/optimize_softmax_slow_matmul_naive.json";

TEST(ReportCli, RendersSavedResultsTogetherAsMarkdownByDefault) {
  auto r = run_kblaster({"report", kSlower, kWrong});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, StartsWith("## kblaster: 1 kernel failing verification, 2 slower\n"));
  EXPECT_THAT(r.out, HasSubstr("### check 75b7741..ec7d1da"));
  EXPECT_THAT(r.out, HasSubstr("### check 75b7741..a840a68"));
  EXPECT_EQ(r.err, "");
}

TEST(ReportCli, WritesHtmlToTheOutFile) {
  testing::TempDir dir;
  const auto out = dir.path() / "report.html";
  auto r = run_kblaster({"report", kSlower, kOptimize, "--format", "html", "--out", out.string()});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "") << "the report goes to --out only";
  const std::string html = testing::read_text(out);
  EXPECT_THAT(html, StartsWith("<!DOCTYPE html>"));
  EXPECT_THAT(html, HasSubstr("check: 2 kernels slower; optimize: 2 kernels faster"));
  EXPECT_THAT(html, HasSubstr("<figure data-chart=\"speedup\">"));
}

TEST(ReportCli, ItsJsonIsAReportValueThatValidates) {
  auto r = run_kblaster({"report", kSlower, kWrong, "--format", "json"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["kind"], "report");
  EXPECT_EQ(j["headline"], "1 kernel failing verification, 2 slower");
  ASSERT_EQ(j["results"].size(), 2u);
  EXPECT_EQ(j["results"][1]["kernels"][0]["verdict"], "REGRESSION");
  testing::TempDir dir;
  const auto [code, said] = testing::validate_result(j, dir);
  EXPECT_EQ(code, 0) << said;
  EXPECT_THAT(said, HasSubstr("ok (report, schema_version 1)"));
}

TEST(ReportCli, WhatIsNotAResultIsAUsageErrorNamingTheFile) {
  testing::TempDir dir;
  const auto broken = dir.write("broken.json", "{\"kind\": \"check\", ");
  const auto bench = dir.write("bench.json", R"({"kind": "sweep", "schema_version": 1})");
  const std::pair<std::vector<std::string>, std::string> cases[] = {
      {{"report", broken.string()}, broken.string() + ": not valid JSON"},
      {{"report", kSlower, bench.string()},
       bench.string() + ": field `kind`: `sweep` is not a kind of result kblaster reports on"},
      {{"report", (dir.path() / "none.json").string()}, "none.json"},
      {{"report", kSlower, "--format", "pdf"},
       "--format pdf: not a report format (md, html, json)"},
      {{"report"}, "results is required"},
  };
  for (const auto& [args, says] : cases) {
    auto r = run_kblaster(args);
    EXPECT_EQ(r.exit_code, 2) << args.back() << ": " << r.err;
    EXPECT_THAT(r.err, HasSubstr(says));
    EXPECT_EQ(r.out, "") << "no partial report";
  }
}

}  // namespace
}  // namespace kblaster
