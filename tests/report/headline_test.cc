// The headline's counts come from the verdicts, and every verdict a check result
// may hold is one the report knows.
#include "report/headline.h"

#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "test_paths.h"

namespace kblaster {
namespace {

ResultView with(ResultKind kind, std::vector<Finding> findings) {
  ResultView r;
  r.kind = kind;
  for (Finding f : findings) {
    KernelView k;
    k.finding = f;
    r.kernels.push_back(k);
  }
  return r;
}

TEST(Headline, CountsEachVerdictInHeadlineOrder) {
  std::vector<Finding> findings(7, Finding::same);
  findings.push_back(Finding::faster);
  findings.insert(findings.begin(), 2, Finding::slower);
  EXPECT_EQ(headline(findings), "2 kernels slower, 1 faster, 7 unchanged");
  EXPECT_EQ(headline(std::vector<Finding>{Finding::faster}), "1 kernel faster");
  EXPECT_EQ(headline(std::vector<Finding>{Finding::same, Finding::regression}),
            "1 kernel failing verification, 1 unchanged");
  EXPECT_EQ(headline(std::vector<Finding>{}), "no kernels");
}

TEST(Headline, AReportCountsKindsApartOnlyWhenItMixesThem) {
  const std::vector<ResultView> checks = {
      with(ResultKind::check, {Finding::slower}),
      with(ResultKind::check, {Finding::slower, Finding::same})};
  EXPECT_EQ(report_headline(checks), "2 kernels slower, 1 unchanged");
  const std::vector<ResultView> mixed = {with(ResultKind::check, {Finding::slower}),
                                         with(ResultKind::optimize, {Finding::faster})};
  EXPECT_EQ(report_headline(mixed), "check: 1 kernel slower; optimize: 1 kernel faster");
  EXPECT_EQ(report_headline({}), "no results");
}

TEST(Finding, EveryVerdictOfTheCheckSchemaIsKnownAndSpelledBack) {
  std::ifstream in(testing::source_dir() / "reports/schema/check.schema.json");
  const auto schema = nlohmann::json::parse(in);
  const auto& verdicts = schema["$defs"]["verdict"]["enum"];
  // Every finding but TIMED, which is bench's (a kernel timed with nothing to compare).
  ASSERT_EQ(verdicts.size() + 1, std::size(kAllFindings));
  EXPECT_EQ(finding_from_name("TIMED"), Finding::timed);
  for (const auto& v : verdicts) {
    const auto f = finding_from_name(v.get<std::string>());
    ASSERT_TRUE(f) << v;
    EXPECT_EQ(finding_name(*f), v.get<std::string>());
  }
  EXPECT_FALSE(finding_from_name("slower")) << "the spelling is the result's, upper case";
}

}  // namespace
}  // namespace kblaster
