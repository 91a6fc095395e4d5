// nvcc, and everything it starts, runs sandboxed: no secrets in its
// environment, and (where the kernel has Landlock) reads and writes confined.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/resource.h>

#include <filesystem>

#include "gpu/compiler.h"
#include "gpu/landlock_rules.h"
#include "gpu/subprocess.h"
#include "real_nvcc.h"
#include "scoped_env.h"
#include "test_paths.h"

namespace kblaster {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::Not;

#define KB_REQUIRE_LANDLOCK()                                                               \
  if (landlock_abi() == 0) GTEST_SKIP() << "this kernel has no Landlock; file confinement " \
                                           "untested"

// A stand-in nvcc: answers --version, and otherwise records its environment
// beside -o's path, writes that path, and tries to read and write `outside`.
fs::path recording_nvcc(const testing::TempDir& dir, const fs::path& outside) {
  const fs::path path = dir.write("toolkit/bin/nvcc", R"(#!/bin/sh
if [ "$1" = --version ]; then echo 'Cuda compilation tools, release 9.9, V9.9.9'; exit 0; fi
while [ $# -gt 0 ]; do [ "$1" = -o ] && out="$2"; shift; done
env > "$out.env"
echo object > "$out"
cat ')" + (outside / "secret.txt").string() + R"(' > "$out.read" 2>&1 || echo refused > "$out.read"
echo stolen > ')" + (outside / "written.txt").string() + R"(' 2>/dev/null
echo "tmp=$TMPDIR"; touch "$TMPDIR/scratch" && echo tmp-writable
echo nice=$(nice)
exit 0
)");
  fs::permissions(path, fs::perms::owner_all);
  return path;
}

struct CompileScene {
  testing::TempDir dir;
  fs::path outside = dir.path() / "outside";
  fs::path work = dir.path() / "work";
  CompileScene() {
    dir.write("outside/secret.txt", "ghp_secret\n");
    dir.write("work/shim.cu", "\n");
  }
  CompileJob job() const {
    CompileJob j;
    j.source = work / "shim.cu";
    j.output = work / "out.so";
    return j;
  }
};

TEST(CompileSandbox, NvccSeesNoTokenOrKey) {
  CompileScene scene;
  testing::ScopedEnv secrets({{"GITHUB_TOKEN", "ghp_abc"},
                              {"DEPLOY_TOKEN", "t"},
                              {"SIGNING_KEY", "k"},
                              {"OPENAI_API_KEY", "sk"},
                              {"NVCC_PREPEND_FLAGS", "-ccbin=/tmp/x"},
                              {"LD_PRELOAD", "/tmp/evil.so"}});
  auto nvcc = NvccCompiler::at(recording_nvcc(scene.dir, scene.outside));
  ASSERT_TRUE(nvcc.ok()) << nvcc.error().message;
  auto out = nvcc->compile(scene.job());
  ASSERT_TRUE(out.ok()) << out.error().message;
  EXPECT_EQ(out->exit_code, 0) << out->log;
  const std::string env = testing::read_text(scene.work / "out.so.env");
  ASSERT_THAT(env, HasSubstr("PATH="));
  for (const char* name : {"GITHUB_TOKEN", "DEPLOY_TOKEN", "SIGNING_KEY", "OPENAI_API_KEY",
                           "NVCC_PREPEND_FLAGS", "LD_PRELOAD"})
    EXPECT_THAT(env, Not(HasSubstr(std::string(name) + "="))) << name;
  EXPECT_THAT(env, Not(HasSubstr("ghp_abc")));
  EXPECT_THAT(out->log, HasSubstr("tmp=" + scene.work.string() + "/out.so.tmp"));
  EXPECT_THAT(out->log, HasSubstr("tmp-writable"));
  EXPECT_FALSE(fs::exists(scene.work / "out.so.tmp")) << "its temporary directory is removed";
  errno = 0;
  const int parent = ::getpriority(PRIO_PROCESS, 0);
  ASSERT_EQ(errno, 0);
  EXPECT_THAT(out->log, HasSubstr("nice=" + std::to_string(std::min(19, parent + 10))))
      << "a compile yields the CPU to the harness timing beside it";
}

TEST(CompileSandbox, NvccWritesOnlyBesideItsOutputAndReadsNoFilesOutside) {
  KB_REQUIRE_LANDLOCK();
  CompileScene scene;
  auto nvcc = NvccCompiler::at(recording_nvcc(scene.dir, scene.outside));
  ASSERT_TRUE(nvcc.ok()) << nvcc.error().message;
  auto out = nvcc->compile(scene.job());
  ASSERT_TRUE(out.ok()) << out.error().message;
  ASSERT_TRUE(out->sandbox.has_value());
  EXPECT_TRUE(out->sandbox->filesystem_confined) << out->sandbox->filesystem_why_not;
  EXPECT_EQ(testing::read_text(scene.work / "out.so"), "object\n");
  EXPECT_FALSE(fs::exists(scene.outside / "written.txt"));
  EXPECT_THAT(testing::read_text(scene.work / "out.so.read"), Not(HasSubstr("ghp_secret")));
}

TEST(CompileSandbox, TheRepositorysGitDirectoryIsNotReadable) {
  testing::TempDir dir;
  dir.write("repo/.git/config", "extraheader = AUTHORIZATION: basic c2VjcmV0\n");
  dir.write("repo/kernels/k.cu", "\n");
  const auto roots = repository_read_roots(dir.path() / "repo");
  ASSERT_EQ(roots.size(), 1u);
  EXPECT_EQ(roots[0], dir.path() / "repo/kernels");
}

TEST(CompileSandbox, ATopLevelLinkIsNotARootItsTargetWouldBeGranted) {
  testing::TempDir dir;
  dir.write("repo/.git/config", "extraheader = AUTHORIZATION: basic c2VjcmV0\n");
  dir.write("repo/kernels/k.cu", "\n");
  fs::create_directory_symlink("/", dir.path() / "repo/rootfs");
  fs::create_directory_symlink(dir.path() / "repo/.git", dir.path() / "repo/g");
  fs::create_directory_symlink(dir.path() / "repo/kernels", dir.path() / "repo/k");
  EXPECT_EQ(repository_read_roots(dir.path() / "repo"),
            std::vector<fs::path>{dir.path() / "repo/kernels"});
}

TEST(CompileSandbox, ARealNvccBuildStillWorksConfined) {
  KB_REQUIRE_NVCC(nvcc);
  testing::TempDir dir;
  dir.write("repo/.git/config", "ghp_leaked_value\n");
  dir.write("repo/kernels/k.cu", "__global__ void k(float* x) { x[0] = 1; }\n");
  const fs::path shim =
      dir.write("work/shim.cu", "#include \"" + (dir.path() / "repo/kernels/k.cu").string() +
                                    "\"\nextern \"C\" int kblaster_probe() { return 1; }\n");
  CompileJob job;
  job.source = shim;
  job.output = dir.path() / "work/k.so";
  job.read_roots = repository_read_roots(dir.path() / "repo");
  auto out = nvcc->compile(job);
  ASSERT_TRUE(out.ok()) << out.error().message;
  EXPECT_EQ(out->exit_code, 0) << out->log;
  EXPECT_TRUE(fs::exists(job.output));
  if (landlock_abi() > 0) {
    EXPECT_TRUE(out->sandbox->filesystem_confined) << out->sandbox->filesystem_why_not;
    // The kernel source cannot pull the repository's .git/config into the log.
    dir.write("repo/kernels/k.cu", "#include \"../.git/config\"\n");
    auto leak = nvcc->compile(job);
    ASSERT_TRUE(leak.ok()) << leak.error().message;
    EXPECT_NE(leak->exit_code, 0);
    EXPECT_THAT(leak->log, Not(HasSubstr("ghp_leaked_value")));
  }
}

}  // namespace
}  // namespace kblaster
