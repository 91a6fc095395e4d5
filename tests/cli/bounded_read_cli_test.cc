// Every file a command reads from a path the user gave (a flag, an environment
// variable) is read with core/bounded_read: /dev/zero, a FIFO and a file over the
// limit are usage errors (exit 2) naming the flag, the file and the limit. Before,
// /dev/zero ended in bad_alloc (exit 4) and a FIFO blocked forever.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdlib>
#include <functional>

#include "cli_run.h"
#include "core/input_limits.h"
#include "test_paths.h"

namespace kblaster {
namespace {

using testing::CliResult;
using ::testing::HasSubstr;
using testing::run_kblaster;
using testing::TempDir;

const std::string kCsv = (testing::source_dir() / "tests/profile/fixtures/h200/axpy.csv").string();

// One reader: the flag (or variable) that names its file, its limit, and a run of
// kblaster with `path` in that place.
struct Reader {
  const char* label;
  const char* flag;
  std::uintmax_t limit;
  std::function<CliResult(const std::string& path)> run;
};

CliResult with_event(const std::string& path) {
  TempDir repo;
  ::setenv("GITHUB_EVENT_PATH", path.c_str(), 1);
  ::setenv("GITHUB_EVENT_NAME", "pull_request", 1);
  auto r = run_kblaster({"plan", repo.path().string(), "--event"});
  ::unsetenv("GITHUB_EVENT_PATH");
  ::unsetenv("GITHUB_EVENT_NAME");
  return r;
}

// A seed catalogue whose techniques.json is `path` (a link to it).
CliResult with_catalogue(const std::string& path) {
  TempDir repo, catalogue;
  std::filesystem::create_symlink(path, catalogue.path() / "techniques.json");
  std::filesystem::copy_file(testing::source_dir() / "kb/catalogue/states.json",
                             catalogue.path() / "states.json");
  return run_kblaster(
      {"kb", "init", repo.path().string(), "--catalogue", catalogue.path().string()});
}

std::vector<Reader> readers() {
  return {
      {"ncu_csv", "--ncu-csv", kMaxCsvBytes,
       [](const std::string& p) {
         return run_kblaster({"classify", "--ncu-csv", p});
       }},
      {"before_csv", "--before-csv", kMaxCsvBytes,
       [](const std::string& p) {
         return run_kblaster({"classify", "--ncu-csv", kCsv, "--before-csv", p});
       }},
      {"source", "--source", kMaxSourceBytes,
       [](const std::string& p) {
         return run_kblaster({"classify", "--ncu-csv", kCsv, "--source", p});
       }},
      {"kb_import", "--from", kMaxJsonBytes,
       [](const std::string& p) {
         TempDir repo;
         return run_kblaster({"kb", "import", repo.path().string(), "--from", p});
       }},
      {"event", "$GITHUB_EVENT_PATH", kMaxEventBytes, with_event},
  };
}

TEST(BoundedReadCli, DevZeroIsRefusedAsADevice) {
  for (const Reader& reader : readers()) {
    auto r = reader.run("/dev/zero");
    EXPECT_EQ(r.exit_code, 2) << reader.label << ": " << r.err;
    EXPECT_THAT(r.err, HasSubstr(std::string(reader.flag) +
                                 " /dev/zero: a character device, not a regular file"))
        << reader.label;
  }
}

TEST(BoundedReadCli, AFifoIsRefusedWithoutWaitingForAWriter) {
  TempDir dir;
  const auto fifo = dir.path() / "pipe";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  for (const Reader& reader : readers()) {
    auto r = reader.run(fifo.string());
    EXPECT_EQ(r.exit_code, 2) << reader.label << ": " << r.err;
    EXPECT_THAT(r.err, HasSubstr(std::string(reader.flag) + " " + fifo.string() +
                                 ": a FIFO, not a regular file"))
        << reader.label;
  }
}

// Sparse files one byte over each limit: refused by their size, with nothing read.
TEST(BoundedReadCli, AFileOverItsLimitIsRefusedNamingTheLimit) {
  TempDir dir;
  for (const Reader& reader : readers()) {
    const auto big = dir.write(std::string(reader.label) + ".big", "");
    std::filesystem::resize_file(big, reader.limit + 1);
    auto r = reader.run(big.string());
    EXPECT_EQ(r.exit_code, 2) << reader.label << ": " << r.err;
    EXPECT_THAT(r.err, HasSubstr(std::string(reader.flag) + " " + big.string() + ": the file has " +
                                 std::to_string(reader.limit + 1) + " bytes, over the limit of " +
                                 std::to_string(reader.limit) + " bytes"))
        << reader.label;
  }
}

TEST(BoundedReadCli, TheSeedCatalogueIsReadWithinItsLimitToo) {
  auto r = with_catalogue("/dev/zero");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_THAT(r.err, HasSubstr("a character device, not a regular file"));
}

}  // namespace
}  // namespace kblaster
