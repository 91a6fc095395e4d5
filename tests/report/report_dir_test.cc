// write_report_dir, which --report DIR of check (and later bench and optimize) calls.
#include "report/report_dir.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>

#include "test_paths.h"

namespace kblaster {
namespace {

using ::testing::HasSubstr;

nlohmann::json slower() {
  std::ifstream in(testing::source_dir() /
                   "tests/eval/fixtures/h200/UncoalescedAccessIsSlower.json");
  return nlohmann::json::parse(in);
}

TEST(ReportDir, WritesEveryFormatIntoANewFolder) {
  testing::TempDir dir;
  const nlohmann::json result = slower();
  ASSERT_TRUE(write_report_dir({&result, 1}, dir.path() / "a" / "b").ok());
  for (const char* file : {"report.md", "report.html", "report.json"})
    EXPECT_THAT(testing::read_text(dir.path() / "a" / "b" / file), HasSubstr("2 kernels slower"))
        << file;
}

TEST(ReportDir, AResultTheCommandMadeWrongIsABug) {
  testing::TempDir dir;
  nlohmann::json result = slower();
  result.erase("kernels");
  result["kernels"] = "none";
  auto written = write_report_dir({&result, 1}, dir.path());
  ASSERT_FALSE(written.ok());
  EXPECT_EQ(written.error().kind, ErrorKind::internal);
  EXPECT_THAT(written.error().message, HasSubstr("field `kernels`: expected an array"));
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "report.md")) << "nothing written";
}

TEST(ReportDir, AFolderThatCannotBeMadeIsAnErrorNamingIt) {
  testing::TempDir dir;
  const auto file = dir.write("taken", "a file, not a folder");
  const nlohmann::json result = slower();
  auto written = write_report_dir({&result, 1}, file / "reports");
  ASSERT_FALSE(written.ok());
  EXPECT_THAT(written.error().message, HasSubstr(file.string()));
}

}  // namespace
}  // namespace kblaster
