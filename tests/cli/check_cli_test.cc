// `kblaster check` through the real binary and real nvcc, on a real git
// repository built with libgit2. This machine may have no GPU: the tests then
// see the build half and the skipped line.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "cli_run.h"
#include "git/repo_builder.h"
#include "gpu/device_probe.h"
#include "gpu/subprocess.h"
#include "result_schema.h"
#include "test_paths.h"

namespace kblaster {
namespace {

using ::testing::HasSubstr;
using testing::run_kblaster;

const char* kConfig = R"TOML([project]
include_dirs = ["include"]

[check]
fail_on = "error"
min_effect = 0.05

[[kernel]]
name = "uses_header"
source = "k/a.cu"
launcher = "a"
args = [ { name = "o", type = "f32", shape = "4", role = "out" } ]

[[kernel]]
name = "standalone"
source = "k/b.cu"
launcher = "b"
args = [ { name = "o", type = "f32", shape = "4", role = "out" } ]
)TOML";

std::string kernel(const std::string& launcher, const std::string& body) {
  return "#include \"common.cuh\"\n__global__ void k(float* o) { " + body + " }\nvoid " + launcher +
         "(float* o) { k<<<1, 4>>>(o); }\n";
}

// Its second commit edits the header only `uses_header` includes.
struct ChangedRepo {
  testing::TempDir dir;
  testing::RepoBuilder git{dir.path()};
  std::string base, head;
  explicit ChangedRepo(const std::string& head_body = "o[threadIdx.x] = SCALE;",
                       const std::string& head_config = kConfig) {
    git.write("kblaster.toml", kConfig);
    git.write("include/common.cuh", "#pragma once\n#define SCALE 2\n");
    git.write("k/a.cu", kernel("a", "o[threadIdx.x] = SCALE;"));
    git.write("k/b.cu",
              "__global__ void k(float* o) { o[0] = 1; }\nvoid b(float* o) { k<<<1, 1>>>(o); }\n");
    base = git.commit("base");
    git.write("include/common.cuh", "#pragma once\n#define SCALE 3\n");
    git.write("k/a.cu", kernel("a", head_body));
    git.write("kblaster.toml", head_config);
    head = git.commit("head");
  }
};

// `check --json` of the range `repo` holds, with its compile cache in `cache`.
testing::CliResult check_json(const ChangedRepo& repo, const testing::TempDir& cache) {
  return run_kblaster({"check", "--json", repo.dir.path().string(), "--base", repo.base, "--head",
                       repo.head, "--cache-dir", cache.path().string()});
}

TEST(CheckCli, AHeadThatPlantsFilesInKblastersStateFolderIsRefused) {
  ChangedRepo repo;
  // The base tree check would build, marked complete, from the pull request's own files.
  repo.git.write(".kblaster/trees/" + repo.base + ".complete", repo.base + "\n");
  repo.git.write(".kblaster/trees/" + repo.base + "/k/a.cu", "#error planted\n");
  repo.head = repo.git.commit("plant the base tree");
  testing::TempDir cache;
  auto r = check_json(repo, cache);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_THAT(r.err, HasSubstr("tracks `.kblaster/trees`"));
  EXPECT_THAT(r.err, HasSubstr("cannot come from git or the change under check"));
  EXPECT_TRUE(r.out.empty()) << "nothing was checked";
}

TEST(CheckCli, WithoutARangeIsAUsageError) {
  ChangedRepo repo;
  auto r = run_kblaster({"check", repo.dir.path().string()});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_THAT(r.err, HasSubstr("revision range"));
}

TEST(CheckCli, BuildsBothRevisionsOfTheHitKernelOnlyFromGit) {
  if (CudaDriverProbe().probe().present)
    GTEST_SKIP() << "a CUDA device is present: covered by the gpu tests";
  ChangedRepo repo;
  testing::TempDir cache;
  auto r = check_json(repo, cache);
  EXPECT_EQ(r.exit_code, 3) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["fail_on"], "error");
  EXPECT_EQ(j["min_effect"], 0.05);
  ASSERT_EQ(j["kernels"].size(), 1u) << j.dump(2);
  EXPECT_EQ(j["kernels"][0]["kernel"], "uses_header");
  EXPECT_EQ(j["kernels"][0]["base"], "built");
  EXPECT_EQ(j["kernels"][0]["head"], "built");
  EXPECT_EQ(j["kernels"][0]["verdict"], "SKIPPED");
  for (const char* side : {"head", "base"}) {
    const auto& built = j["builds"][side]["kernels"];
    ASSERT_EQ(built.size(), 1u) << side;
    EXPECT_EQ(built[0]["name"], "uses_header") << side;
  }
  EXPECT_NE(j["builds"]["head"]["kernels"][0]["cache_key"],
            j["builds"]["base"]["kernels"][0]["cache_key"]);
  // Built from the trees of both commits, which a second check reuses.
  const auto trees = repo.dir.path() / ".kblaster" / "trees";
  EXPECT_TRUE(std::filesystem::exists(trees / (repo.head + ".complete")));
  EXPECT_TRUE(std::filesystem::exists(trees / (repo.base + ".complete")));
  EXPECT_THAT(r.err, HasSubstr("verification and measurement skipped: no CUDA device present ("));

  auto again = run_kblaster({"check", repo.dir.path().string(), "--base", repo.base, "--head",
                             repo.head, "--cache-dir", cache.path().string()});
  EXPECT_EQ(again.exit_code, 3) << again.err;
  EXPECT_THAT(again.out, HasSubstr("uses_header"));
  EXPECT_THAT(again.out, HasSubstr("cache_hit"));
  EXPECT_THAT(again.out, ::testing::Not(HasSubstr("standalone")));
}

// A pull request could pass its own regression by loosening the [check] it is judged by (it
// edits kblaster.toml like any file): base's policy holds where head's is looser.
TEST(CheckCli, APullRequestCannotLoosenTheCheckItIsJudgedBy) {
  if (CudaDriverProbe().probe().present)
    GTEST_SKIP() << "a CUDA device is present: covered by the gpu tests";
  std::string loose = kConfig;
  for (const auto& [from, to] :
       {std::pair<std::string, std::string>{"\"error\"", "\"never\""}, {"0.05", "0.5"}})
    loose.replace(loose.find(from), from.size(), to);
  ChangedRepo repo("o[threadIdx.x] = SCALE;", loose);
  testing::TempDir cache;
  auto r = check_json(repo, cache);
  ASSERT_EQ(r.exit_code, 3) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["fail_on"], "error");
  EXPECT_EQ(j["min_effect"], 0.05);
  EXPECT_EQ(j["policy_kept_from_base"],
            (nlohmann::json{"[check] fail_on: head's \"never\" is looser than base's \"error\"; "
                            "base's holds",
                            "[check] min_effect: head's 0.5 is looser than base's 0.05; base's "
                            "holds"}));
  EXPECT_THAT(r.err,
              HasSubstr("check: [check] min_effect: head's 0.5 is looser than base's 0.05; "
                        "base's holds (a looser [check] applies once a base revision carries it)"));
  testing::TempDir out;
  const auto [code, said] = testing::validate_result(j, out);
  EXPECT_EQ(code, 0) << said;
}

TEST(CheckCli, ItsJsonIsACheckResultThatValidatesAgainstItsSchema) {
  if (CudaDriverProbe().probe().present)
    GTEST_SKIP() << "a CUDA device is present: covered by the gpu tests";
  ChangedRepo repo;
  testing::TempDir cache;
  auto r = check_json(repo, cache);
  EXPECT_EQ(r.exit_code, 3) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["kind"], "check");
  EXPECT_EQ(j["schema_version"], 1);
  EXPECT_EQ(j["summary"], (nlohmann::json{{"SKIPPED", 1}}));
  const auto& p = j["provenance"];
  EXPECT_EQ(p["command_line"][1], "check");
  EXPECT_EQ(p["base_sha"], repo.base);
  EXPECT_EQ(p["head_sha"], repo.head);
  EXPECT_TRUE(p["gpu"].is_null()) << "nothing ran on a GPU";
  EXPECT_EQ(j["kernels"][0]["source"], (nlohmann::json{{"path", "k/a.cu"}, {"line", 3}}))
      << "where annotations go: the launcher's definition in head's source";
  EXPECT_THAT(p["nvcc_version"].get<std::string>(), HasSubstr("release"));
  EXPECT_EQ(p["repository"],
            std::filesystem::absolute(repo.dir.path()).lexically_normal().string());

  testing::TempDir out;
  const auto [code, said] = testing::validate_result(j, out);
  EXPECT_EQ(code, 0) << said;
  EXPECT_THAT(said, HasSubstr("ok (check, schema_version 1)"));

  // The validator is real: a verdict the schema does not know, and a missing
  // provenance field, are each named with their path.
  j["kernels"][0]["verdict"] = "MAYBE";
  j["provenance"].erase("seeds");
  const auto [bad, why] = testing::validate_result(j, out);
  EXPECT_EQ(bad, 1) << why;
  EXPECT_THAT(why, HasSubstr("kernels/0/verdict: 'MAYBE' is not one of"));
  EXPECT_THAT(why, HasSubstr("provenance: 'seeds' is a required property"));
}

TEST(CheckCli, AHeadThatDoesNotCompileExitsOne) {
  ChangedRepo repo("o[threadIdx.x] = undefined_thing;");
  testing::TempDir cache;
  auto r = run_kblaster({"check", "--json", repo.dir.path().string(), "--base", repo.base, "--head",
                         repo.head, "--cache-dir", cache.path().string()});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["kernels"].size(), 1u);
  EXPECT_EQ(j["kernels"][0]["head"], "compile_error");
  EXPECT_EQ(j["kernels"][0]["verdict"], "BUILD_FAILED");
}

TEST(CheckCli, ReportWritesTheResultAsMarkdownHtmlAndJsonIntoTheFolder) {
  ChangedRepo repo("o[threadIdx.x] = undefined_thing;");
  testing::TempDir cache, out;
  const auto dir = out.path() / "reports" / "pr-7";
  auto r =
      run_kblaster({"check", repo.dir.path().string(), "--base", repo.base, "--head", repo.head,
                    "--cache-dir", cache.path().string(), "--report", dir.string()});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_THAT(testing::read_text(dir / "report.md"),
              ::testing::StartsWith("## kblaster: 1 kernel failing to build\n"));
  EXPECT_THAT(testing::read_text(dir / "report.html"), HasSubstr("BUILD_FAILED"));
  const auto report = nlohmann::json::parse(testing::read_text(dir / "report.json"));
  EXPECT_EQ(report["results"][0]["kernels"][0]["head"], "compile_error");
  const auto [code, said] = testing::validate_result(report, out);
  EXPECT_EQ(code, 0) << said;
}

TEST(CheckCli, KernelChecksOnlyTheNamedKernelsOfTheRange) {
  if (CudaDriverProbe().probe().present)
    GTEST_SKIP() << "a CUDA device is present: covered by the gpu tests";
  ChangedRepo repo;
  // A third commit edits standalone's source too: the range hits both kernels.
  repo.git.write(
      "k/b.cu",
      "__global__ void k(float* o) { o[0] = 2; }\nvoid b(float* o) { k<<<1, 1>>>(o); }\n");
  const auto head = repo.git.commit("standalone too");
  testing::TempDir cache;
  auto r = run_kblaster({"check", "--json", repo.dir.path().string(), "--base", repo.base, "--head",
                         head, "--cache-dir", cache.path().string(), "--kernel", "standalone"});
  EXPECT_EQ(r.exit_code, 3) << r.err;
  auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["kernels"].size(), 1u) << j.dump(2);
  EXPECT_EQ(j["kernels"][0]["kernel"], "standalone");
  for (const char* side : {"head", "base"}) {
    const auto& built = j["builds"][side]["kernels"];
    ASSERT_EQ(built.size(), 1u) << side;
    EXPECT_EQ(built[0]["name"], "standalone") << side;
  }
}

// `check --json` without a device (exit 3) that checked uses_header alone and said `note` about
// it, in progress and beside its verdict ("no CUDA device; NOTE").
void expect_said_beside_the_verdict(const testing::CliResult& r, const std::string& note) {
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_THAT(r.err, HasSubstr("check: uses_header: " + note));
  const auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["kernels"].size(), 1u) << j.dump(2);
  EXPECT_EQ(j["kernels"][0]["kernel"], "uses_header");
  EXPECT_THAT(j["kernels"][0]["reason"].get<std::string>(), HasSubstr("no CUDA device; " + note));
}

// A pull request may loosen how its own kernel is checked: said in progress and beside the
// verdict (here SKIPPED, without a device), so a reviewer sees it.
TEST(CheckCli, AHeadThatLoosensItsOwnToleranceIsSaidBesideItsVerdict) {
  if (CudaDriverProbe().probe().present)
    GTEST_SKIP() << "a CUDA device is present: covered by the gpu tests";
  ChangedRepo repo;
  std::string config = kConfig;
  config.replace(config.find("name = \"uses_header\""), 20,
                 "name = \"uses_header\"\ntolerance = { rtol = 0.5, atol = 0.5 }");
  repo.git.write("kblaster.toml", config);
  const auto head = repo.git.commit("loosen");
  testing::TempDir cache;
  auto r = run_kblaster({"check", "--json", repo.dir.path().string(), "--base", repo.base, "--head",
                         head, "--cache-dir", cache.path().string(), "--kernel", "uses_header"});
  expect_said_beside_the_verdict(r,
                                 "head loosens its tolerance (rtol 0.0001 -> 0.5, atol 1e-05 -> "
                                 "0.5); base's holds");
}

// An edit to the reference file head is judged against is said beside the verdict too.
TEST(CheckCli, AnEditToTheReferenceFileIsSaidBesideItsVerdict) {
  if (CudaDriverProbe().probe().present)
    GTEST_SKIP() << "a CUDA device is present: covered by the gpu tests";
  std::string config = kConfig;
  config.replace(config.find("name = \"uses_header\""), 20,
                 "name = \"uses_header\"\nreference = \"k/a_ref.cpp:a_ref\"");
  testing::TempDir dir;
  testing::RepoBuilder git{dir.path()};
  git.write("kblaster.toml", config);
  git.write("include/common.cuh", "#pragma once\n#define SCALE 2\n");
  git.write("k/a.cu", kernel("a", "o[threadIdx.x] = SCALE;"));
  git.write("k/b.cu", "void b(float* o) {}\n");
  git.write("k/a_ref.cpp", "void a_ref(float* o) { for (int i = 0; i < 4; ++i) o[i] = 2; }\n");
  const std::string base = git.commit("base");
  git.write("k/a_ref.cpp", "void a_ref(float* o) { for (int i = 0; i < 4; ++i) o[i] = 3; }\n");
  const std::string head = git.commit("edit the reference");
  testing::TempDir cache;
  auto r = run_kblaster({"check", "--json", dir.path().string(), "--base", base, "--head", head,
                         "--cache-dir", cache.path().string()});
  expect_said_beside_the_verdict(r, "head edits its reference file `k/a_ref.cpp`");
}

// A kernel renamed and rewritten in another file reads as a new kernel and a deleted one; the new
// one says what the change deleted, since it is compared with nothing.
TEST(CheckCli, ANewKernelSaysWhatTheChangeDeletedBesideIt) {
  if (CudaDriverProbe().probe().present)
    GTEST_SKIP() << "a CUDA device is present: covered by the gpu tests";
  ChangedRepo repo;
  std::string config = kConfig;
  for (const auto& [from, to] :
       {std::pair<std::string, std::string>{"\"standalone\"", "\"renamed\""},
        {"\"k/b.cu\"", "\"k/c.cu\""}})
    config.replace(config.find(from), from.size(), to);
  repo.git.remove("k/b.cu");
  // Rewritten, so that git's rename detection does not pair it with k/b.cu.
  std::string rewritten = "#include <cuda_runtime.h>\n// A kernel written afresh.\n";
  for (int i = 0; i < 40; ++i)
    rewritten += "static const int unused_" + std::to_string(i) + " = 0;\n";
  repo.git.write("k/c.cu", rewritten +
                               "__global__ void k2(float* o) { o[1] = 1; }\n"
                               "void b(float* o) { k2<<<1, 1>>>(o); }\n");
  repo.git.write("kblaster.toml", config);
  repo.head = repo.git.commit("rename and rewrite");
  testing::TempDir cache;
  auto r = run_kblaster({"check", "--json", repo.dir.path().string(), "--base", repo.base, "--head",
                         repo.head, "--cache-dir", cache.path().string()});
  ASSERT_EQ(r.exit_code, 3) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  std::map<std::string, std::string> reasons;
  for (const auto& k : j["kernels"]) reasons[k["kernel"]] = k["reason"];
  ASSERT_EQ(reasons.size(), 3u) << j.dump(2);  // and uses_header, hit by its header
  EXPECT_THAT(reasons["renamed"], HasSubstr("the change also deletes `standalone`: if this "
                                            "kernel replaces one, it is not compared with it"));
  EXPECT_THAT(reasons["standalone"], ::testing::Not(HasSubstr("also deletes")));
  EXPECT_THAT(reasons["uses_header"], ::testing::Not(HasSubstr("also deletes")));
}

TEST(CheckCli, AKernelNamedButNotHitIsNotChecked) {
  ChangedRepo repo;
  testing::TempDir cache;
  auto r =
      run_kblaster({"check", "--json", repo.dir.path().string(), "--base", repo.base, "--head",
                    repo.head, "--cache-dir", cache.path().string(), "--kernel", "standalone"});
  EXPECT_EQ(r.exit_code, 0) << "nothing to check needs no GPU: " << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_TRUE(j["kernels"].empty()) << j.dump(2);
  EXPECT_TRUE(j["builds"]["head"]["kernels"].empty());
  EXPECT_TRUE(j["builds"]["base"]["kernels"].empty());
}

TEST(CheckCli, AKernelThatIsNoKernelAtHeadIsAUsageErrorBeforeBuilding) {
  ChangedRepo repo;
  testing::TempDir cache;
  auto r = run_kblaster({"check", "--json", repo.dir.path().string(), "--base", repo.base, "--head",
                         repo.head, "--cache-dir", cache.path().string(), "--kernel", "nosuch"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
  EXPECT_THAT(r.err,
              HasSubstr("--kernel nosuch: no such kernel (kernels: uses_header, standalone)"));
  EXPECT_FALSE(std::filesystem::exists(repo.dir.path() / ".kblaster" / "trees"));
}

// A GitHub push event whose `before` is all zeros: the push created its branch.
class NewBranchPush : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto event = events.write(
        "push.json",
        R"({"before":"0000000000000000000000000000000000000000","after":")" + repo.head + R"("})");
    setenv("GITHUB_EVENT_PATH", event.c_str(), 1);
    setenv("GITHUB_EVENT_NAME", "push", 1);
  }
  void TearDown() override {
    unsetenv("GITHUB_EVENT_PATH");
    unsetenv("GITHUB_EVENT_NAME");
  }
  ChangedRepo repo;
  testing::TempDir events, cache;
};

TEST_F(NewBranchPush, PlanListsEveryKernelAsNew) {
  auto r = run_kblaster({"plan", repo.dir.path().string(), "--event"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("the push created its branch, so all 2 kernel(s)"));
  EXPECT_THAT(r.out, ::testing::ContainsRegex("uses_header +new_kernel"));
  EXPECT_THAT(r.out, ::testing::ContainsRegex("standalone +new_kernel"));

  auto json = run_kblaster({"plan", "--json", repo.dir.path().string(), "--event"});
  EXPECT_EQ(json.exit_code, 0) << json.err;
  const auto j = nlohmann::json::parse(json.out);
  EXPECT_TRUE(j["base"].is_null());
  EXPECT_TRUE(j["provenance"]["base_sha"].is_null()) << "a new branch has no base";
  EXPECT_EQ(j["provenance"]["head_sha"], repo.head);
  testing::TempDir out;
  EXPECT_TRUE(testing::is_valid_result(j, "plan", out));
}

TEST_F(NewBranchPush, CheckBuildsEveryKernelAtHeadAndNothingAtBase) {
  if (CudaDriverProbe().probe().present)
    GTEST_SKIP() << "a CUDA device is present: covered by the gpu tests";
  auto r = run_kblaster({"check", "--json", repo.dir.path().string(), "--event", "--cache-dir",
                         cache.path().string()});
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_THAT(r.err, HasSubstr("no base revision (push event"));
  auto j = nlohmann::json::parse(r.out);
  EXPECT_TRUE(j["base"].is_null());
  EXPECT_EQ(j["head"], repo.head);
  ASSERT_EQ(j["kernels"].size(), 2u) << j.dump(2);
  for (const auto& k : j["kernels"]) {
    EXPECT_EQ(k["base"], "-");
    EXPECT_EQ(k["head"], "built");
  }
  EXPECT_EQ(j["builds"]["head"]["kernels"].size(), 2u);
  EXPECT_TRUE(j["builds"]["base"]["kernels"].empty());
}

}  // namespace
}  // namespace kblaster
