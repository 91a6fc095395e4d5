// `kblaster plan`, help, --version and usage errors, through the real binary.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <set>

#include "cli_run.h"
#include "result_schema.h"
#include "test_paths.h"

namespace kblaster {
namespace {

using ::testing::HasSubstr;
using testing::run_kblaster;

const std::vector<std::string> kExampleKernels = {
    "axpy",         "axpy_small", "softmax",    "softmax_slow", "layernorm",
    "matmul_naive", "transpose",  "scale_rows", "relu",         "reduce_sum"};

TEST(PlanCli, JsonListsEveryExampleKernelWithBytesAndFlops) {
  auto r = run_kblaster({"plan", "--json", "examples/kernels"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  std::vector<std::string> names;
  for (const auto& k : j["kernels"]) names.push_back(k["name"]);
  EXPECT_EQ(names, kExampleKernels);
  EXPECT_EQ(j["spec_files"].size(), 2u);

  const auto& axpy = j["kernels"][0];
  // x read once, y read and written once: 3 * 4 bytes per element.
  EXPECT_EQ(axpy["sizes"][0]["min_bytes"], 3LL * 4 * 16777216);
  EXPECT_EQ(axpy["sizes"][0]["flops"], nullptr);
  const auto& matmul = j["kernels"][5];
  EXPECT_EQ(matmul["launcher"], "naive::matmul");
  EXPECT_EQ(matmul["sizes"][0]["flops"], 2LL * 2048 * 2048 * 1024);
  EXPECT_EQ(matmul["sizes"][0]["bytes_written"], 4LL * 2048 * 2048);
  const auto& scale_rows = j["kernels"][7];
  EXPECT_EQ(scale_rows["stream"], true);
  EXPECT_EQ(scale_rows["args"][5]["tunable"], nlohmann::json::array({128, 256, 512}));
}

// The measuring kits under bench/ that the device runs use (run_on_device.sh power and
// compile-idle) stay valid configs: a broken one would only show on the GPU machine.
TEST(PlanCli, TheBenchKitsPlan) {
  for (const auto& [kit, kernels] : std::vector<std::pair<std::string, std::vector<std::string>>>{
           {"bench/compare_kernels", {"tiny_base", "tiny_slower_1", "tiny_fma_2", "tiny_fma_24"}},
           {"bench/slow_compile",
            {"layernorm_cub", "softmax_cub", "layernorm_cg", "softmax_cg"}}}) {
    auto r = run_kblaster({"plan", "--json", kit});
    ASSERT_EQ(r.exit_code, 0) << kit << ": " << r.err;
    const auto plan =
        nlohmann::json::parse(r.out);  // kept: a range over a temporary's part dangles
    std::set<std::string> names;
    for (const auto& k : plan["kernels"]) names.insert(k["name"].get<std::string>());
    for (const auto& k : kernels) EXPECT_TRUE(names.contains(k)) << kit << " lacks " << k;
  }
}

TEST(PlanCli, ItsJsonIsAPlanResultThatValidatesAgainstItsSchema) {
  auto r = run_kblaster({"plan", "--json", "examples/kernels"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["kind"], "plan");
  EXPECT_EQ(j["mode"], "kernels");
  EXPECT_EQ(j["provenance"]["command_line"][1], "plan");
  EXPECT_TRUE(j["provenance"]["head_sha"].is_null()) << "the working tree, not a revision";
  EXPECT_EQ(j["repo"], j["provenance"]["repository"]);
  EXPECT_EQ(j["kernels"].size(), kExampleKernels.size());
  testing::TempDir dir;
  EXPECT_TRUE(testing::is_valid_result(j, "plan", dir));

  j["kernels"][0]["args"][0]["type"] = "f128";
  j["kernels"][0]["reference"]["kind"] = "oracle";
  j["hits"] = nlohmann::json::array();
  EXPECT_TRUE(testing::is_rejected_naming(j,
                                          {"kernels/0/args/0/type: 'f128' is not one of",
                                           "kernels/0/reference/kind: 'oracle' is not one of",
                                           "Unevaluated properties are not allowed ('hits'"},
                                          dir));
}

TEST(PlanCli, TextShowsEachKernelItsSizesAndWhichIsTimed) {
  auto r = run_kblaster({"plan", "examples/kernels"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("10 kernels from 2 spec file(s)"));
  EXPECT_THAT(r.out, HasSubstr("axpy  (kblaster.toml:10:1)"));
  EXPECT_THAT(r.out, HasSubstr("reference  cpu kernels/ref/axpy_ref.cpp:axpy_ref"));
  EXPECT_THAT(r.out, HasSubstr("201.3 MB"));
  EXPECT_THAT(r.out, HasSubstr("8.6 GFLOP   timed"));
  EXPECT_THAT(r.out, HasSubstr("rows=8192 cols=2048"));
  EXPECT_THAT(r.out, HasSubstr("-DBLOCK in {32,16}"));
}

TEST(PlanCli, KernelFilterSelectsAndSuggests) {
  auto one = run_kblaster({"plan", "--json", "examples/kernels", "--kernel", "softmax"});
  ASSERT_EQ(one.exit_code, 0) << one.err;
  EXPECT_EQ(nlohmann::json::parse(one.out)["kernels"].size(), 1u);

  auto typo = run_kblaster({"plan", "examples/kernels", "--kernel", "softmx"});
  EXPECT_EQ(typo.exit_code, 2);
  EXPECT_THAT(typo.err, HasSubstr("--kernel softmx: no such kernel; did you mean `softmax`?"));
}

TEST(PlanCli, ConfigErrorsExitTwoAndNameTheFileLineAndField) {
  testing::TempDir repo;
  repo.write("k.cu", "void k(float*, int) {}\n");
  repo.write("kblaster.toml", "[[kernel]]\nname = \"k\"\nsource = \"k.cu\"\nlaunchr = \"k\"\n");
  auto r = run_kblaster({"plan", repo.path().string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(
      r.err,
      HasSubstr(
          "kblaster.toml:4:1: kernel `k`: unknown field `launchr`; did you mean `launcher`?"));

  testing::TempDir empty;
  auto none = run_kblaster({"plan", empty.path().string()});
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_THAT(none.err, HasSubstr("no kblaster.toml here"));
}

TEST(PlanCli, UsageErrorsExitTwo) {
  EXPECT_EQ(run_kblaster({"frobnicate"}).exit_code, 2);
  EXPECT_EQ(run_kblaster({"plan", "--no-such-flag"}).exit_code, 2);
  EXPECT_EQ(run_kblaster({"plan", "/no/such/dir"}).exit_code, 2);
  EXPECT_EQ(run_kblaster({}).exit_code, 2);
}

TEST(PlanCli, CompareNamesItsCandidatesWithAAndBNotKernel) {
  auto help = run_kblaster({"compare", "--help"});
  ASSERT_EQ(help.exit_code, 0);
  EXPECT_THAT(help.out, HasSubstr("--a"));
  EXPECT_THAT(help.out, ::testing::Not(HasSubstr("--kernel")));
  EXPECT_EQ(run_kblaster({"compare", "examples/kernels", "--a", "axpy", "--kernel", "x"}).exit_code,
            2);
}

// Issue 22: every command that benches takes --baseline torch, so a sweep's run results carry
// the PyTorch baselines a report's fast_p is counted over; anything but torch is a usage error.
TEST(PlanCli, EveryCommandThatBenchesTakesATorchBaseline) {
  for (const char* command : {"bench", "run", "sweep"}) {
    auto help = run_kblaster({command, "--help"});
    ASSERT_EQ(help.exit_code, 0) << command;
    EXPECT_THAT(help.out, HasSubstr("--baseline")) << command;
    auto wrong = run_kblaster({command, "examples/kernels", "--baseline", "cuda"});
    EXPECT_EQ(wrong.exit_code, 2) << command << ": " << wrong.err;
    EXPECT_THAT(wrong.err, HasSubstr("--baseline")) << command;
  }
}

// Issue 22, point 3, through the command: compare narrows both kernels to the sizes both accept
// and says which it left out, before any GPU work.
TEST(PlanCli, CompareSaysWhichSizesOneSideRejects) {
  testing::TempDir repo, cache;
  repo.write("k/scale.cu",
             "__global__ void k(float* y, int n) { int i = threadIdx.x; if (i < n) y[i] = 1; }\n"
             "void plain(float* y, int n) { k<<<1, 32>>>(y, n); }\n"
             "void vec(float* y, int n) { k<<<1, 32>>>(y, n); }\n");
  const std::string body =
      "source = \"k/scale.cu\"\n"
      "args = [ { name = \"y\", type = \"f32\", shape = \"n\", role = "
      "\"out\" }, { name = \"n\", type = \"i32\" } ]\n"
      "sizes = [ { n = 1024 }, { n = 1001 } ]\n";
  repo.write("kblaster.toml", "[[kernel]]\nname = \"plain\"\nlauncher = \"plain\"\n" + body +
                                  "\n[[kernel]]\nname = \"vec\"\nlauncher = \"vec\"\n" + body +
                                  "requires = [\"n % 4 == 0\"]\n");
  auto r = run_kblaster({"compare", repo.path().string(), "--a", "plain", "--b", "vec",
                         "--cache-dir", cache.path().string()});
  EXPECT_THAT(r.err, HasSubstr("compare: n=1001 left out: `vec` requires `n % 4 == 0` (n=1001)"))
      << r.err;
}

TEST(PlanCli, HelpIsGeneratedFromTheCommandTable) {
  auto help = run_kblaster({"help"});
  ASSERT_EQ(help.exit_code, 0);
  for (const char* command : {"plan", "build", "run"}) EXPECT_THAT(help.out, HasSubstr(command));
  auto plan_help = run_kblaster({"plan", "--help"});
  EXPECT_EQ(plan_help.exit_code, 0);
  EXPECT_THAT(plan_help.out, HasSubstr("--json"));
  EXPECT_THAT(plan_help.out, HasSubstr("--kernel"));
}

TEST(PlanCli, VersionNamesToolCompilerAndGpu) {
  auto r = run_kblaster({"--version"});
  ASSERT_EQ(r.exit_code, 0);
  EXPECT_THAT(r.out, ::testing::StartsWith("kblaster 0.1.0\n"));
  EXPECT_THAT(r.out, HasSubstr("nvcc: release "));
  EXPECT_THAT(r.out, ::testing::ContainsRegex("\nGPU: (none \\(.+\\)|NVIDIA .+ \\(sm_[0-9]+)"));
}

}  // namespace
}  // namespace kblaster
