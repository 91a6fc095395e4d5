// A small kernel repository in a real git repository, for the git layer's tests:
// kernels alpha (reference, includes a.cuh -> b.cuh), beta (includes c.cuh by a
// relative path) and gamma (includes <c.cuh> through include_dirs).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "git/change_plan.h"
#include "git/repo_builder.h"
#include "test_paths.h"

namespace kblaster::testing {

// One [[kernel]] table; `extra` is appended verbatim (reference, include_dirs, …).
inline std::string kernel_table(const std::string& name, const std::string& source,
                                const std::string& extra = "", const std::string& n = "1024") {
  return "[[kernel]]\nname = \"" + name + "\"\nsource = \"" + source + "\"\nlauncher = \"" + name +
         "\"\n" + extra +
         "args = [\n  { name = \"y\", type = \"f32\", shape = \"n\", role = \"out\" },\n"
         "  { name = \"n\", type = \"i32\" },\n]\nsizes = [ { n = " +
         n + " } ]\n\n";
}

inline std::string kernel_source(const std::string& name, const std::string& includes) {
  return includes + "void " + name + "(float* y, int n) {}\n";
}

class KernelRepoTest : public ::testing::Test {
 protected:
  static constexpr const char* kProject = "[project]\ninclude_dirs = [\"include\"]\n";

  KernelRepoTest() : git(dir.path()) {
    git.write("include/a.cuh", "#pragma once\n#include \"b.cuh\"\n");
    git.write("include/b.cuh", "#pragma once\n");
    git.write("include/c.cuh", "#pragma once\n");
    git.write("kernels/alpha.cu", kernel_source("alpha", "#include <a.cuh>\n"));
    git.write("kernels/ref/alpha_ref.cpp", "void alpha_ref(float* y, int n) {}\n");
    git.write("kernels/beta.cu", kernel_source("beta", "#include \"../include/c.cuh\"\n"));
    git.write("kernels/gamma.cu", kernel_source("gamma", "#include <c.cuh>\n"));
    git.write("docs/guide.md", "# Guide\n");
    write_config();
    base = git.commit("initial");
  }

  // kblaster.toml with `project` and the three kernels; `beta_n` is beta's size.
  static std::string config_text(const std::string& project = kProject,
                                 const std::string& beta_n = "1024") {
    return project + "\n" +
           kernel_table("alpha", "kernels/alpha.cu",
                        "reference = \"kernels/ref/alpha_ref.cpp:alpha_ref\"\n") +
           kernel_table("beta", "kernels/beta.cu", "", beta_n) +
           kernel_table("gamma", "kernels/gamma.cu");
  }
  void write_config(const std::string& project = kProject, const std::string& beta_n = "1024") {
    git.write("kblaster.toml", config_text(project, beta_n));
  }

  Result<ChangePlan> plan(const std::string& from, const std::string& to,
                          BaseMode mode = BaseMode::as_given) {
    auto repo = GitRepo::open(dir.path());
    if (!repo) return repo.error();
    auto range = resolve_range(**repo, from, to, mode);
    if (!range) return range.error();
    return plan_change(**repo, *range);
  }

  // The names of the kernels head hits since `base`, sorted.
  std::vector<std::string> hit(const std::string& head) {
    auto p = plan(base, head);
    EXPECT_TRUE(p.ok()) << p.error().describe();
    std::vector<std::string> names;
    if (!p.ok()) return names;
    for (const auto& h : p->changes.hits) names.push_back(h.kernel);
    std::sort(names.begin(), names.end());
    return names;
  }

  TempDir dir;
  RepoBuilder git;
  std::string base;
};

}  // namespace kblaster::testing
