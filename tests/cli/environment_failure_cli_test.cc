// What the machine lacks is exit 3 with a message that says what to do, not exit 4:
// a compiler that exits 0 without writing its object, a read-only repository and a
// full disk during `build` and `kb import`, through the real binary. The full and
// read-only file systems are real, made in a mount namespace (confined_run.h).
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <filesystem>

#include "cli_run.h"
#include "confined_run.h"
#include "test_paths.h"

namespace kblaster {
namespace {

namespace fs = std::filesystem;
using testing::Confinement;
using ::testing::HasSubstr;
using testing::run_kblaster;

// An nvcc that answers --version and, asked to compile, exits 0 having written
// nothing; KBLASTER_NVCC names it while the object lives.
class FakeNvcc {
 public:
  FakeNvcc() {
    const auto script = dir_.write("nvcc",
                                   "#!/bin/sh\n"
                                   "if [ \"$1\" = --version ]; then\n"
                                   "  echo 'Cuda compilation tools, release 12.4, V12.4.131'\n"
                                   "fi\n"
                                   "exit 0\n");
    fs::permissions(script, fs::perms::owner_all | fs::perms::group_read | fs::perms::others_read |
                                fs::perms::group_exec | fs::perms::others_exec);
    ::setenv("KBLASTER_NVCC", script.c_str(), 1);
  }
  ~FakeNvcc() { ::unsetenv("KBLASTER_NVCC"); }
  FakeNvcc(const FakeNvcc&) = delete;  // owns the environment variable
  FakeNvcc& operator=(const FakeNvcc&) = delete;

 private:
  testing::TempDir dir_;
};

// A copy of examples/kernels, so a test may confine it.
fs::path copy_examples(const testing::TempDir& dir) {
  const fs::path repo = dir.path() / "repo";
  fs::copy(testing::examples_dir(), repo, fs::copy_options::recursive);
  fs::remove_all(repo / ".kblaster");
  fs::permissions(dir.path(), fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                                  fs::perms::others_read | fs::perms::others_exec);
  return repo;
}

#define KB_RUN_CONFINED(result, args, dir, how)                           \
  std::string why_not_;                                                   \
  auto result = testing::run_kblaster_confined(args, dir, how, why_not_); \
  if (!result) GTEST_SKIP() << why_not_

TEST(EnvironmentFailureCli, ACompilerThatExitsZeroWithoutAnObjectIsExitThree) {
  FakeNvcc nvcc;
  testing::TempDir cache;
  auto r = run_kblaster(
      {"build", "examples/kernels", "--kernel", "axpy", "--cache-dir", cache.path().string()});
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_THAT(r.err, HasSubstr("exited 0 but wrote no object at "));
  EXPECT_THAT(r.err, HasSubstr("check the CUDA installation"));
  EXPECT_FALSE(fs::exists(cache.path() / "objects")) << "nothing entered the cache";
}

TEST(EnvironmentFailureCli, BuildingAReadOnlyRepositoryIsExitThreeNamingTheDirectory) {
  FakeNvcc nvcc;  // the build fails before it compiles, so no real nvcc is needed
  testing::TempDir dir;
  const fs::path repo = copy_examples(dir);
  KB_RUN_CONFINED(r, (std::vector<std::string>{"build", repo.string(), "--kernel", "axpy"}), repo,
                  Confinement::read_only);
  EXPECT_EQ(r->exit_code, 3) << r->err;
  EXPECT_THAT(r->err, HasSubstr("cannot create the directory " + (repo / ".kblaster").string()));
  EXPECT_THAT(r->err, HasSubstr("Read-only file system (the file system is read-only; give a "
                                "writable location and run again)"));
}

TEST(EnvironmentFailureCli, BuildingOnAFullDiskIsExitThreeSayingTheDiskIsFull) {
  FakeNvcc nvcc;
  testing::TempDir dir;
  const fs::path repo = copy_examples(dir);
  fs::create_directories(repo / ".kblaster");
  KB_RUN_CONFINED(r, (std::vector<std::string>{"build", repo.string(), "--kernel", "axpy"}),
                  repo / ".kblaster", Confinement::full_disk);
  EXPECT_EQ(r->exit_code, 3) << r->err;
  EXPECT_THAT(r->err, HasSubstr("cannot write " + (repo / ".kblaster").string()));
  EXPECT_THAT(r->err, HasSubstr("No space left on device (the disk is full; free space on it "
                                "and run again)"));
}

TEST(EnvironmentFailureCli, ImportingOnAFullDiskIsExitThreeSayingTheDiskIsFull) {
  testing::TempDir dir, source;
  ASSERT_EQ(run_kblaster({"kb", "init", source.path().string()}).exit_code, 0);
  const fs::path json = dir.path() / "kb.json";
  ASSERT_EQ(
      run_kblaster({"kb", "export", source.path().string(), "--out", json.string()}).exit_code, 0);
  const fs::path repo = dir.path() / "repo";
  fs::create_directories(repo / ".kblaster");
  ::chmod(dir.path().c_str(), 0755);
  KB_RUN_CONFINED(
      r, (std::vector<std::string>{"kb", "import", repo.string(), "--from", json.string()}),
      repo / ".kblaster", Confinement::full_disk);
  EXPECT_EQ(r->exit_code, 3) << r->err;
  EXPECT_THAT(r->err, HasSubstr("the disk is full"));
  EXPECT_THAT(r->err, HasSubstr((repo / ".kblaster" / "kb.sqlite").string()));
}

}  // namespace
}  // namespace kblaster
