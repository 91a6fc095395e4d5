// The session's reference outputs on disk: what one harness keeps, the next reads back exactly,
// and anything else (another key, other sizes, a torn or planted file, no room) is a miss, so it
// can only cost a reference run, never supply a wrong expected output (issue 22, point 9).
#include "shared_reference_outputs.h"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace kblaster::harness {
namespace {

namespace fs = std::filesystem;

class SharedReferenceOutputsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string templ = (fs::temp_directory_path() / "kblaster-shared-outputs-XXXXXX").string();
    ASSERT_NE(::mkdtemp(templ.data()), nullptr);
    dir = templ;
  }
  void TearDown() override { fs::remove_all(dir); }

  std::size_t files() const {
    return static_cast<std::size_t>(std::distance(fs::directory_iterator(dir), {}));
  }

  std::string dir;
  const MemoOutputs outputs{std::vector<unsigned char>(64, 7), std::vector<unsigned char>(8, 9)};
  const std::vector<std::size_t> sizes{64, 8};
};

TEST_F(SharedReferenceOutputsTest, WhatOneHarnessKeepsAnotherReadsBackExactly) {
  SharedReferenceOutputs first(dir, 1 << 20), second(dir, 1 << 20);
  first.write("ref\nworkload\n7", outputs);
  const auto read = second.read("ref\nworkload\n7", sizes);
  ASSERT_TRUE(read.has_value());
  EXPECT_EQ(*read, outputs);
  EXPECT_EQ(files(), 1u) << "written aside and renamed: no temporary left";
}

TEST_F(SharedReferenceOutputsTest, AnotherKeyOrOtherSizesAreAMiss) {
  SharedReferenceOutputs shared(dir, 1 << 20);
  shared.write("ref\nworkload\n7", outputs);
  EXPECT_FALSE(shared.read("ref\nworkload\n8", sizes).has_value());
  EXPECT_FALSE(shared.read("ref\nworkload\n7", {64, 16}).has_value());
  EXPECT_FALSE(shared.read("ref\nworkload\n7", {64}).has_value());
}

TEST_F(SharedReferenceOutputsTest, AFileUnderTheKeysNameHoldingAnotherKeyIsAMiss) {
  // A hash collision, played by copying key A's file to key B's name: the stored key decides.
  SharedReferenceOutputs shared(dir, 1 << 20);
  shared.write("key A", outputs);
  fs::copy_file(shared.path_of("key A"), shared.path_of("key B"));
  EXPECT_FALSE(shared.read("key B", sizes).has_value());
  EXPECT_TRUE(shared.read("key A", sizes).has_value());
}

TEST_F(SharedReferenceOutputsTest, ATornOrLengthenedFileIsAMiss) {
  SharedReferenceOutputs shared(dir, 1 << 20);
  shared.write("k", outputs);
  const auto path = shared.path_of("k");
  const auto size = fs::file_size(path);
  fs::resize_file(path, size - 1);
  EXPECT_FALSE(shared.read("k", sizes).has_value());
  fs::resize_file(path, size + 1);
  EXPECT_FALSE(shared.read("k", sizes).has_value());
}

TEST_F(SharedReferenceOutputsTest, ALinkPlantedUnderTheKeysNameIsNotFollowed) {
  SharedReferenceOutputs shared(dir, 1 << 20);
  shared.write("k", outputs);
  const auto path = shared.path_of("k");
  fs::rename(path, dir + "/elsewhere");
  fs::create_symlink(dir + "/elsewhere", path);
  EXPECT_FALSE(shared.read("k", sizes).has_value());
}

TEST_F(SharedReferenceOutputsTest, APipePlantedUnderTheKeysNameIsAMissNotAWait) {
  // A candidate runs in a harness and could leave a FIFO for a later one to block on.
  SharedReferenceOutputs shared(dir, 1 << 20);
  ASSERT_EQ(::mkfifo(shared.path_of("k").c_str(), 0600), 0);
  EXPECT_FALSE(shared.read("k", sizes).has_value());
}

TEST_F(SharedReferenceOutputsTest, ATemporaryAKilledHarnessLeftDoesNotCountAgainstTheBudget) {
  std::ofstream(dir + "/0123456789abcdef.out.Ab12Cd") << std::string(150, 'x');
  SharedReferenceOutputs shared(dir, 200);
  shared.write("first", outputs);
  EXPECT_TRUE(shared.read("first", sizes).has_value());
}

TEST_F(SharedReferenceOutputsTest, NothingIsWrittenOverTheBudget) {
  SharedReferenceOutputs shared(dir, 200);  // one file of these outputs takes ~130 bytes
  shared.write("first", outputs);
  shared.write("second", outputs);
  EXPECT_TRUE(shared.read("first", sizes).has_value());
  EXPECT_FALSE(shared.read("second", sizes).has_value());
  EXPECT_EQ(files(), 1u);
}

TEST_F(SharedReferenceOutputsTest, AFileOverTheFileSizeLimitIsNotWrittenRatherThanKillTheHarness) {
  // The harness's sandbox sets RLIMIT_FSIZE; writing past it would raise SIGXFSZ and kill it.
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    const rlimit small{100, 100};
    ::setrlimit(RLIMIT_FSIZE, &small);
    SharedReferenceOutputs shared(dir, 1 << 20);
    shared.write("k", outputs);
    ::_exit(shared.read("k", sizes).has_value() ? 1 : 0);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status)) << "killed by signal " << WTERMSIG(status);
  EXPECT_EQ(WEXITSTATUS(status), 0) << "written past the limit";
  EXPECT_EQ(files(), 0u);
}

TEST_F(SharedReferenceOutputsTest, AFolderThatCannotBeWrittenOnlyCostsAReferenceRun) {
  // A path that is a file, not a folder: nothing can be created under it, as on a full disk.
  const std::string not_a_folder = dir + "/file";
  std::ofstream(not_a_folder) << "x";
  SharedReferenceOutputs shared(not_a_folder, 1 << 20);
  shared.write("k", outputs);  // must not throw
  EXPECT_FALSE(shared.read("k", sizes).has_value());
}

TEST_F(SharedReferenceOutputsTest, OffWithoutTheEnvironmentsFolder) {
  ::unsetenv("KBLASTER_REFERENCE_OUTPUTS");
  const auto off = SharedReferenceOutputs::from_environment();
  EXPECT_FALSE(off.on());
  off.write("k", outputs);
  EXPECT_FALSE(off.read("k", sizes).has_value());
  ::setenv("KBLASTER_REFERENCE_OUTPUTS", dir.c_str(), 1);
  const auto on = SharedReferenceOutputs::from_environment();
  ::unsetenv("KBLASTER_REFERENCE_OUTPUTS");
  EXPECT_TRUE(on.on());
  on.write("k", outputs);
  EXPECT_TRUE(on.read("k", sizes).has_value());
}

}  // namespace
}  // namespace kblaster::harness
