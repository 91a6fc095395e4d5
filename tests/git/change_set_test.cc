// The kernels a change hits, on real git repositories built with libgit2.
#include "git/change_set.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>

#include "kernel_repo_fixture.h"

namespace kblaster {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;
using testing::kernel_source;
using testing::kernel_table;
using Why = KernelHit::Why;

class ChangeSetTest : public testing::KernelRepoTest {
 protected:
  // The plan of base..head, which must succeed.
  ChangePlan must_plan(const std::string& head) {
    auto p = plan(base, head);
    if (!p.ok()) ADD_FAILURE() << p.error().describe();
    return p.ok() ? std::move(*p) : ChangePlan{};
  }
};

TEST_F(ChangeSetTest, HeaderChangeHitsExactlyItsDependents) {
  git.write("include/c.cuh", "#pragma once\n#define C 1\n");
  const auto head = git.commit("edit c.cuh");
  EXPECT_THAT(hit(head), ElementsAre("beta", "gamma"));
  const auto p = must_plan(head);
  ASSERT_NE(p.changes.find("gamma"), nullptr);
  EXPECT_EQ(p.changes.find("gamma")->why, Why::include_changed);
  EXPECT_THAT(p.changes.find("gamma")->because, ElementsAre("include/c.cuh"));
  EXPECT_EQ(p.changes.find("gamma")->base_source, "kernels/gamma.cu");
  EXPECT_THAT(p.changes.find("gamma")->include_chains.at("include/c.cuh"),
              ElementsAre("kernels/gamma.cu", "include/c.cuh"));
}

// Issue 21, C: what the preprocessor includes, a plan must not miss. A header named only by a
// macro could be any file its include directories reach, so all of them count.
TEST_F(ChangeSetTest, IncludesThroughAMacroAContinuationOrADigraphAreNotMissed) {
  git.write("kernels/beta.cu", kernel_source("beta", "#define CFG <b.cuh>\n#include CFG\n"));
  git.write("kernels/gamma.cu", kernel_source("gamma", "%:include \\\n  <c.cuh>\n"));
  const auto from = git.commit("beta includes through a macro, gamma with a digraph, continued");
  git.write("include/b.cuh", "#pragma once\n#define B 3\n");
  git.write("include/c.cuh", "#pragma once\n#define C 3\n");
  const auto head = git.commit("edit b.cuh and c.cuh");
  auto p = plan(from, head);
  ASSERT_TRUE(p.ok()) << p.error().describe();
  std::vector<std::string> names;
  for (const auto& h : p->changes.hits) names.push_back(h.kernel);
  std::sort(names.begin(), names.end());
  EXPECT_THAT(names, ElementsAre("alpha", "beta", "gamma"));
  ASSERT_NE(p->changes.find("beta"), nullptr);
  const auto& chain = p->changes.find("beta")->include_chains.at("include/b.cuh");
  ASSERT_GE(chain.size(), 2u);
  EXPECT_EQ(chain.front(), "kernels/beta.cu");
  EXPECT_EQ(chain.back(), "include/b.cuh");
}

TEST_F(ChangeSetTest, TransitiveIncludeHitsKernelsThatIncludeItsIncluder) {
  git.write("include/b.cuh", "#pragma once\n#define B 2\n");
  const auto head = git.commit("edit b.cuh");
  EXPECT_THAT(hit(head), ElementsAre("alpha"));
  // The hit says how alpha reaches the header it never names.
  const auto p = must_plan(head);
  ASSERT_NE(p.changes.find("alpha"), nullptr);
  EXPECT_THAT(p.changes.find("alpha")->include_chains.at("include/b.cuh"),
              ElementsAre("kernels/alpha.cu", "include/a.cuh", "include/b.cuh"));
}

TEST_F(ChangeSetTest, SourceAndReferenceChangesNameTheirReason) {
  git.write("kernels/ref/alpha_ref.cpp", "void alpha_ref(float* y, int n) { /* fixed */ }\n");
  git.write("kernels/beta.cu", kernel_source("beta", "#include \"../include/c.cuh\"\n// faster\n"));
  const auto p = must_plan(git.commit("edit sources"));
  ASSERT_EQ(p.changes.hits.size(), 2u);
  EXPECT_EQ(p.changes.find("alpha")->why, Why::reference_changed);
  EXPECT_EQ(p.changes.find("beta")->why, Why::source_changed);
}

TEST_F(ChangeSetTest, IncludeDirsAreHonouredInTheirOrder) {
  // A kernel's own include_dirs come after the project's: <c.cuh> stays include/c.cuh
  // for gamma, and delta's <only_extra.cuh> is found in extra/.
  git.write("extra/c.cuh", "#pragma once\n");
  git.write("extra/only_extra.cuh", "#pragma once\n");
  git.write("kernels/delta.cu",
            kernel_source("delta", "#include <c.cuh>\n#include <only_extra.cuh>\n"));
  git.write("kblaster.toml", config_text() + kernel_table("delta", "kernels/delta.cu",
                                                          "include_dirs = [\"extra\"]\n"));
  base = git.commit("add delta");
  git.write("extra/c.cuh", "#pragma once\n#define SHADOWED 1\n");
  EXPECT_THAT(hit(git.commit("edit extra/c.cuh")), IsEmpty());
  git.write("extra/only_extra.cuh", "#pragma once\n#define E 1\n");
  EXPECT_THAT(hit(git.commit("edit extra/only_extra.cuh")), ElementsAre("delta"));
}

TEST_F(ChangeSetTest, AnAddedHeaderThatShadowsAnIncludeHits) {
  // A quoted include looks beside the includer first, so a new kernels/a.cuh takes
  // over alpha's "a.cuh"; gamma's <c.cuh> is angled, so a new kernels/c.cuh does not.
  git.write("kernels/alpha.cu", kernel_source("alpha", "#include \"a.cuh\"\n"));
  base = git.commit("alpha includes a.cuh quoted");  // resolves to include/a.cuh
  git.write("kernels/a.cuh", "#pragma once\n");      // now shadows it, beside alpha.cu
  git.write("kernels/c.cuh", "#pragma once\n");
  const auto p = must_plan(git.commit("add shadowing headers"));
  ASSERT_EQ(p.changes.hits.size(), 1u);
  EXPECT_EQ(p.changes.hits[0].kernel, "alpha");
  EXPECT_THAT(p.changes.hits[0].because, ElementsAre("kernels/a.cuh"));
}

TEST_F(ChangeSetTest, RenamedSourceIsFollowed) {
  git.rename("kernels/alpha.cu", "kernels/alpha_v2.cu");
  git.write("kblaster.toml",
            "[project]\ninclude_dirs = [\"include\"]\n\n" +
                kernel_table("alpha", "kernels/alpha_v2.cu",
                             "reference = \"kernels/ref/alpha_ref.cpp:alpha_ref\"\n") +
                kernel_table("beta", "kernels/beta.cu") +
                kernel_table("gamma", "kernels/gamma.cu"));
  const auto p = must_plan(git.commit("rename alpha.cu"));
  ASSERT_EQ(p.changes.hits.size(), 1u);
  const KernelHit& h = p.changes.hits[0];
  EXPECT_EQ(h.kernel, "alpha");
  EXPECT_EQ(h.why, Why::renamed);
  EXPECT_EQ(h.base_source, "kernels/alpha.cu");
  EXPECT_THAT(h.because, ElementsAre("kernels/alpha.cu", "kernels/alpha_v2.cu"));
}

TEST_F(ChangeSetTest, RenamedKernelIsFollowedByItsSource) {
  git.rename("kernels/gamma.cu", "kernels/gamma2.cu");
  git.write("kblaster.toml",
            "[project]\ninclude_dirs = [\"include\"]\n\n" +
                kernel_table("alpha", "kernels/alpha.cu",
                             "reference = \"kernels/ref/alpha_ref.cpp:alpha_ref\"\n") +
                kernel_table("beta", "kernels/beta.cu") +
                kernel_table("gamma2", "kernels/gamma2.cu"));
  const auto p = must_plan(git.commit("rename gamma to gamma2"));
  ASSERT_EQ(p.changes.hits.size(), 1u);
  EXPECT_EQ(p.changes.hits[0].kernel, "gamma2");
  EXPECT_EQ(p.changes.hits[0].why, Why::renamed);
  EXPECT_EQ(p.changes.hits[0].base_name, "gamma");
  EXPECT_EQ(p.changes.hits[0].base_source, "kernels/gamma.cu");
}

TEST_F(ChangeSetTest, DeletedKernelIsReported) {
  git.remove("kernels/beta.cu");
  git.write("kblaster.toml",
            "[project]\ninclude_dirs = [\"include\"]\n\n" +
                kernel_table("alpha", "kernels/alpha.cu",
                             "reference = \"kernels/ref/alpha_ref.cpp:alpha_ref\"\n") +
                kernel_table("gamma", "kernels/gamma.cu"));
  const auto p = must_plan(git.commit("delete beta"));
  ASSERT_EQ(p.changes.hits.size(), 1u);
  EXPECT_EQ(p.changes.hits[0].kernel, "beta");
  EXPECT_EQ(p.changes.hits[0].why, Why::deleted);
  EXPECT_EQ(p.changes.hits[0].base_source, "kernels/beta.cu");
}

TEST_F(ChangeSetTest, AddedKernelIsNewWithNoBase) {
  git.write("kernels/more/epsilon.cu", kernel_source("epsilon", "#include <c.cuh>\n"));
  git.write("kernels/more/more.kblaster.toml", kernel_table("epsilon", "epsilon.cu"));
  const auto p = must_plan(git.commit("add epsilon"));
  ASSERT_EQ(p.changes.hits.size(), 1u);
  EXPECT_EQ(p.changes.hits[0].kernel, "epsilon");
  EXPECT_EQ(p.changes.hits[0].why, Why::new_kernel);
  EXPECT_THAT(p.changes.hits[0].because, ElementsAre("kernels/more/more.kblaster.toml"));
  EXPECT_FALSE(p.changes.hits[0].base_name.has_value());
  EXPECT_FALSE(p.changes.hits[0].base_source.has_value());
}

TEST_F(ChangeSetTest, BaseWithoutConfigMakesEveryKernelNew) {
  git.remove("kblaster.toml");
  git.write("kblaster.toml", "[project\n");  // a base whose config does not parse
  base = git.commit("broken config");
  write_config();
  const auto p = must_plan(git.commit("fix config"));
  ASSERT_TRUE(p.changes.base_config_error.has_value());
  EXPECT_FALSE(p.base_config.has_value());
  ASSERT_EQ(p.changes.hits.size(), 3u);
  for (const auto& h : p.changes.hits) EXPECT_EQ(h.why, Why::new_kernel) << h.kernel;
}

TEST_F(ChangeSetTest, DocsOnlyChangeHitsNothing) {
  git.write("docs/guide.md", "# Guide, edited\n");
  git.write("docs/new_page.md", "# New\n");
  git.write("README.md", "# Kernels\n");
  EXPECT_THAT(hit(git.commit("docs")), IsEmpty());
}

TEST_F(ChangeSetTest, EditingAnotherKernelsTableHitsOnlyIt) {
  write_config(kProject, "4096");
  const auto p = must_plan(git.commit("beta's size"));
  ASSERT_EQ(p.changes.hits.size(), 1u);
  EXPECT_EQ(p.changes.hits[0].kernel, "beta");
  EXPECT_EQ(p.changes.hits[0].why, Why::spec_changed);
  EXPECT_THAT(p.changes.hits[0].because, ElementsAre("kblaster.toml"));
}

TEST_F(ChangeSetTest, CommentsAndReorderedTablesHitNothing) {
  git.write("kblaster.toml",
            "# kernels of the team\n[project]\ninclude_dirs = [\"include\"]\n\n" +
                kernel_table("gamma", "kernels/gamma.cu") +
                kernel_table("beta", "kernels/beta.cu") +
                kernel_table("alpha", "kernels/alpha.cu",
                             "reference = \"kernels/ref/alpha_ref.cpp:alpha_ref\"\n"));
  EXPECT_THAT(hit(git.commit("reorder")), IsEmpty());
}

TEST_F(ChangeSetTest, ProjectFlagsChangeHitsAll) {
  write_config("[project]\ninclude_dirs = [\"include\"]\nnvcc_flags = [\"-O2\"]\n");
  const auto p = must_plan(git.commit("flags"));
  ASSERT_EQ(p.changes.hits.size(), 3u);
  for (const auto& h : p.changes.hits) {
    EXPECT_EQ(h.why, Why::spec_changed) << h.kernel;
    EXPECT_THAT(h.because, ElementsAre("kblaster.toml")) << h.kernel;
  }
}

TEST_F(ChangeSetTest, ProjectArchChangeHitsAll) {
  write_config("[project]\narch = \"sm_80\"\ninclude_dirs = [\"include\"]\n");
  EXPECT_THAT(hit(git.commit("arch")), ElementsAre("alpha", "beta", "gamma"));
}

TEST_F(ChangeSetTest, MergeCommitAsHeadDiffsAgainstTheGivenBase) {
  // main: base -> m1 (edits beta.cu). feature: base -> f1 (edits b.cuh) -> merge of main.
  git.write("kernels/beta.cu", kernel_source("beta", "#include \"../include/c.cuh\"\n// m1\n"));
  const auto m1 = git.commit("main edits beta");
  git.branch("feature", base);
  git.write("include/b.cuh", "#pragma once\n// f1\n");
  const auto f1 = git.commit("feature edits b.cuh");
  git.write("kernels/beta.cu", kernel_source("beta", "#include \"../include/c.cuh\"\n// m1\n"));
  const auto merge = git.merge(m1, "merge main into feature");

  auto names = [](const Result<ChangePlan>& p) {
    std::vector<std::string> out;
    EXPECT_TRUE(p.ok()) << p.error().describe();
    if (p.ok())
      for (const auto& h : p->changes.hits) out.push_back(h.kernel);
    return out;
  };
  // Against main (the PR's base): only what the feature branch brought.
  EXPECT_THAT(names(plan("main", merge, BaseMode::merge_base)), ElementsAre("alpha"));
  EXPECT_THAT(names(plan(m1, merge)), ElementsAre("alpha"));
  // Against the merge's first parent: what the merge brought in from main.
  EXPECT_THAT(names(plan(f1, merge)), ElementsAre("beta"));
  // Against the old base: both.
  EXPECT_THAT(names(plan(base, merge)), ElementsAre("alpha", "beta"));
}

TEST_F(ChangeSetTest, MergeBaseModeIgnoresWhatTheBaseBranchDidSince) {
  git.write("kernels/beta.cu", kernel_source("beta", "#include \"../include/c.cuh\"\n// m1\n"));
  git.commit("main edits beta");
  git.branch("feature", base);
  git.write("include/b.cuh", "#pragma once\n// f1\n");
  const auto f1 = git.commit("feature edits b.cuh");
  auto with = [&](BaseMode mode) {
    auto p = plan("main", f1, mode);
    EXPECT_TRUE(p.ok()) << p.error().describe();
    std::vector<std::string> out;
    if (p.ok())
      for (const auto& h : p->changes.hits) out.push_back(h.kernel);
    return out;
  };
  EXPECT_THAT(with(BaseMode::merge_base), ElementsAre("alpha"));
  EXPECT_THAT(with(BaseMode::as_given), ElementsAre("alpha", "beta"));
}

TEST_F(ChangeSetTest, HeadConfigErrorNamesTheRevision) {
  git.write("kblaster.toml", "[project\n");
  const auto head = git.commit("break config");
  auto p = plan(base, head);
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.error().kind, ErrorKind::config);
  EXPECT_NE(p.error().message.find(head.substr(0, 7)), std::string::npos) << p.error().message;
}

}  // namespace
}  // namespace kblaster
