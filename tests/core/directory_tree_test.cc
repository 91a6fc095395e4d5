#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>

#include "core/config_loader.h"
#include "core/source_tree.h"
#include "test_paths.h"

namespace kblaster {
namespace {

namespace fs = std::filesystem;
using ::testing::Contains;
using ::testing::HasSubstr;
using ::testing::Not;

// One [[kernel]] table named "k" over `source`, with `extra` fields after its launcher.
std::string kernel_table(const std::string& source, const std::string& extra = "") {
  return "[[kernel]]\nname = \"k\"\nsource = \"" + source + "\"\nlauncher = \"launch\"\n" + extra +
         "args = [ { name = \"x\", type = \"f32\", shape = \"N\", role = \"out\" }, "
         "{ name = \"N\", type = \"i32\" } ]\nsizes = [ { N = 4 } ]\n";
}

// A repository in repo/ and a secret beside it, outside.
struct RepoWithOutside {
  testing::TempDir dir;
  fs::path repo = dir.path() / "repo";
  RepoWithOutside() {
    dir.write("outside/secret.h", "#define TOKEN 1\n");
    dir.write("repo/kernels/k.cu", "__global__ void k() {}\n");
  }
};

TEST(DirectoryTree, SymbolicLinksThatLeaveTheRepositoryReadAsAbsent) {
  RepoWithOutside r;
  fs::create_symlink(r.dir.path() / "outside/secret.h", r.repo / "kernels/secret.h");
  fs::create_directory_symlink(r.dir.path() / "outside", r.repo / "linked");
  fs::create_symlink("k.cu", r.repo / "kernels/inner.cu");  // stays inside: allowed
  DirectoryTree tree(r.repo);
  EXPECT_FALSE(tree.read("kernels/secret.h"));
  EXPECT_FALSE(tree.is_file("kernels/secret.h"));
  EXPECT_FALSE(tree.is_directory("linked"));
  EXPECT_FALSE(tree.read("linked/secret.h"));
  EXPECT_THAT(tree.refusal("linked/secret.h").value_or(""),
              HasSubstr("symbolic link that leads outside"));
  EXPECT_THAT(tree.list_files(), Not(Contains("kernels/secret.h")));
  EXPECT_EQ(tree.read("kernels/inner.cu").value_or(""), "__global__ void k() {}\n");
  EXPECT_FALSE(tree.refusal("kernels/inner.cu"));
  EXPECT_FALSE(tree.refusal("kernels/missing.cu"));
}

TEST(DirectoryTree, AConfigNamingALinkOutsideIsAConfigErrorThatSaysSo) {
  RepoWithOutside r;
  fs::create_symlink(r.dir.path() / "outside/secret.h", r.repo / "kernels/evil.cu");
  r.dir.write("repo/kblaster.toml", kernel_table("kernels/evil.cu"));
  auto config = load_config(DirectoryTree(r.repo));
  ASSERT_FALSE(config.ok());
  EXPECT_EQ(config.error().kind, ErrorKind::config);
  EXPECT_THAT(config.error().where, HasSubstr("kblaster.toml:3:"));
  EXPECT_THAT(config.error().message, HasSubstr("symbolic link that leads outside"));
}

TEST(DirectoryTree, AKblasterTomlThatIsALinkOutsideIsNotRead) {
  RepoWithOutside r;
  r.dir.write("outside/kblaster.toml", "[project]\n");
  fs::create_symlink(r.dir.path() / "outside/kblaster.toml", r.repo / "kblaster.toml");
  auto config = load_config(DirectoryTree(r.repo));
  ASSERT_FALSE(config.ok());
  EXPECT_EQ(config.error().kind, ErrorKind::config);
}

TEST(DirectoryTree, NvccFlagsOutsideTheAllowListAreAConfigErrorAtTheFlag) {
  testing::TempDir dir;
  dir.write("kernels/k.cu", "void launch(float*, int) {}\n");
  dir.write("tools/g++", "#!/bin/sh\nenv > /tmp/stolen\n");
  dir.write("kblaster.toml", "[project]\nnvcc_flags = [\"-O3\", \"-ccbin\", \"tools/g++\"]\n\n" +
                                 kernel_table("kernels/k.cu"));
  auto config = load_config(DirectoryTree(dir.path()));
  ASSERT_FALSE(config.ok());
  EXPECT_EQ(config.error().kind, ErrorKind::config);
  EXPECT_EQ(config.error().where, "kblaster.toml:2:22");
  EXPECT_THAT(config.error().message,
              HasSubstr("field `nvcc_flags`[1]: `-ccbin` is not an allowed"));
}

TEST(DirectoryTree, AnIncludeFlagJoinsTheIncludeDirectories) {
  testing::TempDir dir;
  dir.write("kernels/k.cu", "void launch(float*, int) {}\n");
  dir.write("inc/h.h", "\n");
  dir.write("kblaster.toml", kernel_table("kernels/k.cu", "nvcc_flags = [\"-Iinc\", \"-O2\"]\n"));
  auto config = load_config(DirectoryTree(dir.path()));
  ASSERT_TRUE(config.ok()) << config.error().describe();
  EXPECT_THAT(config->kernels[0].include_dirs, Contains("inc"));
  EXPECT_THAT(config->kernels[0].nvcc_flags, Not(Contains("-Iinc")));
  dir.write("kblaster.toml", kernel_table("kernels/k.cu", "nvcc_flags = [\"-Imissing\"]\n"));
  auto missing = load_config(DirectoryTree(dir.path()));
  ASSERT_FALSE(missing.ok());
  EXPECT_THAT(missing.error().message, HasSubstr("-I directory `missing` does not exist"));
}

}  // namespace
}  // namespace kblaster
