// How config errors name their files, and --kernel selection, without running the CLI.
#include "core/kernel_selection.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace kblaster {
namespace {

TEST(PrefixConfigPaths, PutsTheRepositoryInFrontOfARepoRelativeLocation) {
  auto e = prefix_config_paths(Error::config("kblaster.toml:3:1", "bad"), "sub");
  EXPECT_EQ(e.where, "sub/kblaster.toml:3:1");
  EXPECT_EQ(e.message, "bad");
  EXPECT_EQ(prefix_config_paths(Error::config("specs/a.kblaster.toml", "bad"), "./sub/../k").where,
            "k/specs/a.kblaster.toml");
  EXPECT_EQ(prefix_config_paths(Error::config("kblaster.toml:1:1", "bad"), ".").where,
            "kblaster.toml:1:1");
}

TEST(PrefixConfigPaths, PrefixesWhereADuplicateKernelWasFirstDeclared) {
  auto e = prefix_config_paths(
      Error::config("a.kblaster.toml:9:1",
                    "kernel `k` is declared twice; first at kblaster.toml:1:1 (at head revision "
                    "1234567)"),
      "sub");
  EXPECT_EQ(e.where, "sub/a.kblaster.toml:9:1");
  EXPECT_EQ(e.message,
            "kernel `k` is declared twice; first at sub/kblaster.toml:1:1 (at head revision "
            "1234567)");
}

TEST(PrefixConfigPaths, LeavesOtherErrorsAsTheyAre) {
  // A directory without kblaster.toml is named by its absolute path.
  EXPECT_EQ(prefix_config_paths(Error::config("/abs/repo", "no kblaster.toml here"), "sub").where,
            "/abs/repo");
  EXPECT_EQ(prefix_config_paths(Error::config("", "no kblaster.toml here"), "sub").where, "");
  auto usage = prefix_config_paths(Error::usage("first at kblaster.toml:1:1"), "sub");
  EXPECT_EQ(usage.message, "first at kblaster.toml:1:1");
}

TEST(SelectKernels, KeepsConfigOrderAndRejectsAnUnknownName) {
  Config config;
  for (const char* name : {"alpha", "beta", "gamma"}) {
    KernelSpec k;
    k.name = name;
    config.kernels.push_back(k);
  }
  auto all = select_kernels(config, {});
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(all->size(), 3u);
  auto two = select_kernels(config, {"gamma", "alpha"});
  ASSERT_TRUE(two.ok());
  ASSERT_EQ(two->size(), 2u);
  EXPECT_EQ((*two)[0]->name, "alpha");
  EXPECT_EQ((*two)[1]->name, "gamma");
  auto typo = select_kernels(config, {"alpha", "gama"});
  ASSERT_FALSE(typo.ok());
  EXPECT_EQ(typo.error().kind, ErrorKind::usage);
  EXPECT_EQ(typo.error().message,
            "--kernel gama: no such kernel; did you mean `gamma`? (kernels: alpha, beta, gamma)");
}

}  // namespace
}  // namespace kblaster
