// What a hostile pull request can ask of `kblaster` through its files, end to
// end through the built binary.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>

#include "cli_run.h"
#include "scoped_env.h"
#include "test_paths.h"

namespace kblaster {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::Not;

constexpr const char* kKernel = R"([[kernel]]
name = "k"
source = "kernels/k.cu"
launcher = "launch"
args = [ { name = "x", type = "f32", shape = "N", role = "out" }, { name = "N", type = "i32" } ]
sizes = [ { N = 4 } ]
)";

TEST(UntrustedPr, AConfigThatAsksForItsOwnHostCompilerIsRefusedBeforeAnythingRuns) {
  testing::TempDir dir;
  dir.write("kernels/k.cu", "void launch(float*, int) {}\n");
  const fs::path script = dir.write("tools/g++", "#!/bin/sh\nenv > \"$(dirname \"$0\")/stolen\"\n");
  fs::permissions(script, fs::perms::owner_all);
  dir.write("kblaster.toml",
            std::string("[project]\nnvcc_flags = [\"-ccbin\", \"tools/g++\"]\n\n") + kKernel);
  testing::ScopedEnv token({{"GITHUB_TOKEN", "ghp_should_not_leak"}, {"DEPLOY_KEY", "k"}});
  const auto r = testing::run_kblaster({"build", dir.path().string()});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_THAT(r.err, HasSubstr("kblaster.toml:2:"));
  EXPECT_THAT(r.err, HasSubstr("`-ccbin` is not an allowed nvcc flag"));
  EXPECT_FALSE(fs::exists(dir.path() / "tools/stolen"));
}

// The compiler kblaster starts for a PR sees no token: a stand-in nvcc (the
// one boundary replaced) records the environment it was given.
TEST(UntrustedPr, TheCompilerKblasterStartsSeesNoTokenOrKey) {
  testing::TempDir dir;
  dir.write("repo/kernels/k.cu", "void launch(float*, int) {}\n");
  dir.write("repo/kblaster.toml", kKernel);
  const fs::path record = dir.path() / "nvcc-env.txt";
  const fs::path nvcc =
      dir.write("toolkit/bin/nvcc",
                "#!/bin/sh\n"
                "if [ \"$1\" = --version ]; then echo 'Cuda compilation tools, release 9.9, "
                "V9.9.9'; exit 0; fi\n"
                "while [ $# -gt 0 ]; do [ \"$1\" = -o ] && out=\"$2\"; shift; done\n"
                "env > \"$out.env\"; echo 'error: stand-in compiler' >&2; exit 1\n");
  fs::permissions(nvcc, fs::perms::owner_all);
  testing::ScopedEnv env({{"KBLASTER_NVCC", nvcc.string()},
                          {"GITHUB_TOKEN", "ghp_should_not_leak"},
                          {"ACTIONS_RUNTIME_TOKEN", "runtime"},
                          {"NPM_TOKEN", "npm"},
                          {"SSH_PRIVATE_KEY", "key"},
                          {"ANTHROPIC_API_KEY", "sk-ant"}});
  const auto r = testing::run_kblaster({"build", (dir.path() / "repo").string()});
  EXPECT_EQ(r.exit_code, 1) << r.err;  // the stand-in rejects the code
  std::string seen;
  for (const auto& entry : fs::recursive_directory_iterator(dir.path() / "repo/.kblaster"))
    if (entry.path().extension() == ".env") seen = testing::read_text(entry.path());
  ASSERT_THAT(seen, HasSubstr("PATH="));
  for (const char* name : {"GITHUB_TOKEN", "ACTIONS_RUNTIME_TOKEN", "NPM_TOKEN", "SSH_PRIVATE_KEY",
                           "ANTHROPIC_API_KEY"})
    EXPECT_THAT(seen, Not(HasSubstr(std::string(name) + "="))) << name;
  EXPECT_THAT(seen, Not(HasSubstr("ghp_should_not_leak")));
}

std::string pull_request_event(const std::string& head_repo) {
  return R"({"pull_request": {"base": {"sha": ")" + std::string(40, 'a') +
         R"(", "repo": {"full_name": "org/kernels"}}, "head": {"sha": ")" + std::string(40, 'b') +
         R"(", "repo": {"full_name": ")" + head_repo + R"("}}}})";
}

TEST(UntrustedPr, CheckRefusesAForkPullRequestUnlessAllowedByName) {
  testing::TempDir dir;
  const fs::path event = dir.write("event.json", pull_request_event("stranger/kernels"));
  testing::ScopedEnv env(
      {{"GITHUB_EVENT_PATH", event.string()}, {"GITHUB_EVENT_NAME", "pull_request"}});
  const auto r = testing::run_kblaster({"check", dir.path().string(), "--event"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_THAT(r.err, HasSubstr("comes from a fork"));
  EXPECT_THAT(r.err, HasSubstr("--allow-untrusted"));
  // Opted in, it goes on to the repository (which this scratch dir is not).
  const auto allowed =
      testing::run_kblaster({"check", dir.path().string(), "--event", "--allow-untrusted"});
  EXPECT_THAT(allowed.err, Not(HasSubstr("comes from a fork")));
}

TEST(UntrustedPr, CheckRefusesPullRequestTarget) {
  testing::TempDir dir;
  const fs::path event = dir.write("event.json", pull_request_event("org/kernels"));
  testing::ScopedEnv env(
      {{"GITHUB_EVENT_PATH", event.string()}, {"GITHUB_EVENT_NAME", "pull_request_target"}});
  const auto r = testing::run_kblaster({"check", dir.path().string(), "--event"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_THAT(r.err, HasSubstr("pull_request_target"));
}

}  // namespace
}  // namespace kblaster
