#include "gpu/compiler.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>

#include "real_nvcc.h"
#include "test_paths.h"

namespace kblaster {
namespace {

namespace fs = std::filesystem;
using ::testing::Contains;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;

// A stand-in nvcc that only answers --version.
fs::path fake_nvcc(const testing::TempDir& dir, const std::string& subdir,
                   const std::string& release) {
  auto path = dir.write(subdir + "/nvcc", "#!/bin/sh\necho 'Cuda compilation tools, " + release +
                                              "'\necho 'Build cuda_x'\n");
  fs::permissions(path, fs::perms::owner_all);
  return path;
}

EnvironmentLookup environment(std::map<std::string, std::string> vars) {
  return [vars](const std::string& name) -> std::optional<std::string> {
    auto it = vars.find(name);
    return it == vars.end() ? std::nullopt : std::optional<std::string>(it->second);
  };
}

TEST(NvccCompiler, FindPrefersKblasterNvccThenPathThenCudaHome) {
  testing::TempDir dir;
  auto explicit_nvcc = fake_nvcc(dir, "explicit", "release 1.0, V1.0.1");
  fake_nvcc(dir, "on_path", "release 2.0, V2.0.2");
  fake_nvcc(dir, "cuda_home/bin", "release 3.0, V3.0.3");
  const std::string path = "/kblaster/none:" + (dir.path() / "on_path").string();
  const std::string home = (dir.path() / "cuda_home").string();

  auto a = NvccCompiler::find(
      environment({{"KBLASTER_NVCC", explicit_nvcc.string()}, {"PATH", path}, {"CUDA_HOME", home}}),
      {});
  ASSERT_TRUE(a.ok()) << a.error().message;
  EXPECT_EQ(a->version(), "release 1.0, V1.0.1");
  auto b = NvccCompiler::find(environment({{"PATH", path}, {"CUDA_HOME", home}}), {});
  ASSERT_TRUE(b.ok()) << b.error().message;
  EXPECT_EQ(b->version(), "release 2.0, V2.0.2");
  auto c = NvccCompiler::find(environment({{"CUDA_HOME", home}}), {});
  ASSERT_TRUE(c.ok()) << c.error().message;
  EXPECT_EQ(c->version(), "release 3.0, V3.0.3");
  EXPECT_EQ(c->path(), dir.path() / "cuda_home/bin/nvcc");
}

TEST(NvccCompiler, MissingNvccIsAnEnvironmentErrorThatSaysWhatToDo) {
  auto none =
      NvccCompiler::find(environment({{"PATH", "/kblaster/none"}}), {"/kblaster/also/none"});
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.error().kind, ErrorKind::environment);
  EXPECT_THAT(none.error().message, HasSubstr("nvcc not found"));
  EXPECT_THAT(none.error().message, HasSubstr("PATH"));
  EXPECT_THAT(none.error().message, HasSubstr("KBLASTER_NVCC"));
  EXPECT_THAT(none.error().message, HasSubstr("/kblaster/also/none"));

  auto bad = NvccCompiler::find(environment({{"KBLASTER_NVCC", "/kblaster/nvcc"}}), {});
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().kind, ErrorKind::environment);
  EXPECT_THAT(bad.error().message, HasSubstr("KBLASTER_NVCC=/kblaster/nvcc"));
}

TEST(NvccCompiler, CommandBuildsASharedObjectWithUserFlagsAfterOurs) {
  testing::TempDir dir;
  auto nvcc = NvccCompiler::at(fake_nvcc(dir, "bin", "release 9.9, V9.9.9"));
  ASSERT_TRUE(nvcc.ok()) << nvcc.error().message;
  CompileJob job;
  job.source = "/w/shim.cu";
  job.output = "/w/out.so";
  job.include_dirs = {"/repo/include"};
  job.defines = {"BLOCK=256"};
  job.flags = {"-O3"};
  EXPECT_THAT(nvcc->command(job),
              ElementsAre(nvcc->path().string(), "-shared", "-Xcompiler", "-fPIC", "-Xcompiler",
                          "-fvisibility=hidden", "-cudart", "static", "-Xlinker", "-z,defs",
                          "-arch=sm_90", "-std=c++17", "-lineinfo", "-O3", "-I/repo/include",
                          "-DBLOCK=256", "-o", "/w/out.so", "/w/shim.cu"));
  job.flags = {"-std=c++20"};
  EXPECT_THAT(nvcc->command(job), Not(Contains("-std=c++17")));
  EXPECT_THAT(nvcc->command(job), Contains("-std=c++20"));
}

TEST(NvccCompiler, FindsTheRealNvccAndReadsItsRelease) {
  KB_REQUIRE_NVCC(nvcc);
  EXPECT_THAT(nvcc->version(), ::testing::MatchesRegex(R"(release [0-9]+\.[0-9]+, V[0-9.]+)"));
}

}  // namespace
}  // namespace kblaster
