#include "report/job_summary.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "h200_fixtures.h"

namespace kblaster {
namespace {

std::string read(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(JobSummary, AppendsTheMarkdownReportOfARealCheck) {
  testing::TempDir dir;
  const auto file = dir.path() / "summary.md";
  const auto check = testing::h200_fixture("UncoalescedAccessIsSlower.json");
  ASSERT_TRUE(append_job_summary({&check, 1}, file).ok());
  const std::string text = read(file);
  EXPECT_THAT(text, ::testing::StartsWith("## kblaster: 2 kernels slower"));
  EXPECT_THAT(text, ::testing::HasSubstr("| axpy |"));
}

TEST(JobSummary, AFullSummaryGetsANoteInsteadOfTheReport) {
  testing::TempDir dir;
  const auto file = dir.path() / "summary.md";
  { std::ofstream(file) << std::string(kJobSummaryLimit - 100, 'x'); }
  const auto check = testing::h200_fixture("UncoalescedAccessIsSlower.json");
  ASSERT_TRUE(append_job_summary({&check, 1}, file).ok());
  const std::string text = read(file);
  EXPECT_THAT(text.substr(kJobSummaryLimit - 100),
              ::testing::StartsWith("kblaster: this step's summary is full"));
  EXPECT_LE(text.size(), kJobSummaryLimit + 200);
}

TEST(JobSummary, AnUnwritableFileIsAnErrorNamingIt) {
  const auto check = testing::h200_fixture("UncoalescedAccessIsSlower.json");
  auto written = append_job_summary({&check, 1}, "/no/such/dir/summary.md");
  ASSERT_FALSE(written.ok());
  EXPECT_THAT(written.error().message,
              ::testing::HasSubstr("cannot append to /no/such/dir/summary.md"));
}

}  // namespace
}  // namespace kblaster
