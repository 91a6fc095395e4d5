// The change plan around the change set: keeping the named kernels, and the
// errors of a head whose configuration does not load.
#include "git/change_plan.h"

#include <gtest/gtest.h>

#include "kernel_repo_fixture.h"

namespace kblaster {
namespace {

class ChangePlanTest : public testing::KernelRepoTest {};

// alpha's header and beta's size change; gamma is untouched.
TEST_F(ChangePlanTest, KeepKernelsKeepsTheNamedHitsAndOnlyTheNamedKernelsAtHead) {
  git.write("include/b.cuh", "#pragma once\n#define B 1\n");
  write_config(kProject, "2048");
  const auto head = git.commit("alpha and beta");
  auto p = plan(base, head);
  ASSERT_TRUE(p.ok()) << p.error().describe();
  ASSERT_EQ(p->changes.hits.size(), 2u);
  keep_kernels(*p, {"gamma", "beta"});
  ASSERT_EQ(p->changes.hits.size(), 1u);
  EXPECT_EQ(p->changes.hits[0].kernel, "beta");
  ASSERT_EQ(p->head_config.kernels.size(), 2u);
  EXPECT_EQ(p->head_config.kernels[0].name, "beta");
  EXPECT_EQ(p->head_config.kernels[1].name, "gamma");

  auto all = plan(base, head);
  ASSERT_TRUE(all.ok());
  keep_kernels(*all, {});
  EXPECT_EQ(all->changes.hits.size(), 2u);
  EXPECT_EQ(all->head_config.kernels.size(), 3u);
}

TEST_F(ChangePlanTest, KeepKernelsDropsADeletedKernel) {
  git.write("kblaster.toml",
            kProject + std::string("\n") +
                testing::kernel_table("alpha", "kernels/alpha.cu",
                                      "reference = "
                                      "\"kernels/ref/alpha_ref.cpp:alpha_ref\"\n") +
                testing::kernel_table("beta", "kernels/beta.cu"));
  const auto head = git.commit("delete gamma");
  auto p = plan(base, head);
  ASSERT_TRUE(p.ok()) << p.error().describe();
  ASSERT_EQ(p->changes.hits.size(), 1u);
  EXPECT_EQ(p->changes.hits[0].why, KernelHit::Why::deleted);
  keep_kernels(*p, {"alpha"});
  EXPECT_TRUE(p->changes.hits.empty());
}

TEST_F(ChangePlanTest, AConfigErrorAtHeadKeepsItsRepoRelativeLocation) {
  git.write("kblaster.toml", "[project]\narch = 90\n");
  const auto head = git.commit("bad arch");
  auto p = plan(base, head);
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.error().where.substr(0, 16), "kblaster.toml:2:");
  EXPECT_TRUE(p.error().message.ends_with(" (at head revision " + head.substr(0, 7) + ")"))
      << p.error().message;
}

TEST_F(ChangePlanTest, AHeadWithoutConfigNamesOnlyTheRevision) {
  git.remove("kblaster.toml");
  const auto head = git.commit("no config");
  auto p = plan(base, head);
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.error().kind, ErrorKind::config);
  EXPECT_EQ(p.error().where, "") << "the tree's name is no path in the kernel repository";
  EXPECT_NE(p.error().message.find("no kblaster.toml here"), std::string::npos);
  EXPECT_NE(p.error().message.find("(at head revision " + head.substr(0, 7) + ")"),
            std::string::npos);
}

}  // namespace
}  // namespace kblaster
