#include "core/scratch_folder.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <fstream>

#include "scoped_env.h"
#include "test_paths.h"

namespace kblaster {
namespace {

TEST(ScratchFolder, IsPrivateAndRemovedWithWhatItHolds) {
  std::filesystem::path kept;
  {
    const ScratchFolder folder("kblaster-test");
    ASSERT_FALSE(folder.path().empty()) << folder.why();
    kept = folder.path();
    EXPECT_EQ(kept.filename().string().rfind("kblaster-test-", 0), 0u) << kept;
    struct stat st {};
    ASSERT_EQ(::stat(kept.c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0700u) << "no one else may read or plant files there";
    std::filesystem::create_directories(kept / "a/b");
    std::ofstream(kept / "a/b/c") << "x";
  }
  EXPECT_FALSE(std::filesystem::exists(kept));
}

TEST(ScratchFolder, ThatCannotBeMadeSaysWhyAndHasNoPath) {
  testing::ScopedEnv tmpdir({{std::string("TMPDIR"), std::string("/kblaster/no/such/tmp")}});
  const ScratchFolder folder("kblaster-test");
  EXPECT_TRUE(folder.path().empty());
  EXPECT_NE(folder.why().find("/kblaster/no/such/tmp"), std::string::npos) << folder.why();
}

}  // namespace
}  // namespace kblaster
