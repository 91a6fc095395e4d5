// optimize's LLM flags and the [llm] table through the real binary, on a machine without a
// GPU: what is wrong is said before any search (exit 2 or 3), and a pull request's own
// kblaster.toml cannot send the key elsewhere or run a program of its choosing.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "cli_run.h"
#include "gpu/device_probe.h"
#include "scoped_env.h"
#include "test_paths.h"

namespace kblaster {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

constexpr const char* kKernel = R"(
[[kernel]]
name = "k"
source = "kernels/k.cu"
launcher = "launch"
args = [ { name = "out", type = "f32", shape = "n", role = "out" }, { name = "n", type = "i32" } ]
sizes = [ { n = 16 } ]
)";

// A repository whose kblaster.toml ends with `llm`.
std::unique_ptr<testing::TempDir> repo_with(const std::string& llm) {
  auto dir = std::make_unique<testing::TempDir>();
  dir->write("kernels/k.cu", "void launch(float*, int) {}\n");
  dir->write("kblaster.toml", std::string(kKernel) + "\n" + llm);
  return dir;
}

using Vars = std::vector<std::pair<std::string, std::string>>;

TEST(LlmCli, ARepositoryConfigMayNotSayWhereTheKeyGoesOrWhatProgramRuns) {
  for (const std::string& llm :
       {std::string(
            "[llm]\nbackend = \"openai\"\nmodel = \"m\"\nbase_url = \"https://evil.example\"\n"),
        std::string("[llm]\nbackend = \"openai\"\nmodel = \"m\"\napi_key_env = \"GITHUB_TOKEN\"\n"),
        std::string("[llm]\nbackend = \"command\"\ncommand = [\"sh\", \"-c\", \"env\"]\n")}) {
    auto dir = repo_with(llm);
    testing::ScopedEnv key(Vars{{"OPENAI_API_KEY", "sk-never-sent"}});
    const auto r = testing::run_kblaster({"optimize", dir->path().string(), "--json"});
    EXPECT_EQ(r.exit_code, 2) << llm << r.err;
    EXPECT_THAT(r.err, HasSubstr("kblaster.toml: [llm] ")) << llm;
    EXPECT_THAT(r.err, HasSubstr("may come from a pull request")) << llm;
    EXPECT_THAT(r.err + r.out, Not(HasSubstr("sk-never-sent")));
  }
}

TEST(LlmCli, AMissingKeyIsNamedByItsVariableAndExitsThree) {
  auto dir = repo_with("[llm]\nbackend = \"openai\"\nmodel = \"gpt-test\"\n");
  testing::ScopedEnv key(Vars{{"OPENAI_API_KEY", ""}});
  const auto r = testing::run_kblaster({"optimize", dir->path().string()});
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_THAT(r.err, HasSubstr("OPENAI_API_KEY"));
}

TEST(LlmCli, FlagsThatDoNotFitAreUsageErrors) {
  auto dir = repo_with("");
  const std::vector<std::vector<std::string>> cases = {
      {"--llm-command", "python3 model.py"},
      {"--llm", "gemini"},
      {"--llm", "openai"},
      {"--llm", "openai", "--llm-model", "m", "--llm-command", "x"},
      {"--llm", "openai", "--llm-model", "m", "--max-cost", "1"},
      {"--max-tokens-per-kernel", "1000"},
      {"--replay", "."},
      {"--techniques", "shared_memory_tilling"}};
  for (const auto& extra : cases) {
    std::vector<std::string> args = {"optimize", dir->path().string()};
    args.insert(args.end(), extra.begin(), extra.end());
    const auto r = testing::run_kblaster(args);
    EXPECT_EQ(r.exit_code, 2) << extra[0] << " " << extra[1] << ": " << r.err;
  }
  const auto cost = testing::run_kblaster(
      {"optimize", dir->path().string(), "--llm", "openai", "--llm-model", "m", "--max-cost", "1"});
  EXPECT_THAT(cost.err, HasSubstr("--max-cost needs a price for the model `m`"));
  const auto caps =
      testing::run_kblaster({"optimize", dir->path().string(), "--max-tokens-per-kernel", "1000"});
  EXPECT_THAT(caps.err, HasSubstr("are for a model: give --llm BACKEND"));
  const auto technique = testing::run_kblaster({"optimize", dir->path().string(), "--techniques",
                                                "restrict_pointers,shared_memory_tilling"});
  EXPECT_THAT(technique.err,
              HasSubstr("--techniques: `shared_memory_tilling` is no technique of the catalogue"));
}

TEST(LlmCli, ACommandModelIsAcceptedAndTheRunSaysWhatItWouldUse) {
  if (CudaDriverProbe().probe().present) GTEST_SKIP() << "a CUDA device is present";
  auto dir = repo_with("");
  const auto r = testing::run_kblaster({"optimize", dir->path().string(), "--llm", "command",
                                        "--llm-command", "python3 model.py", "--json"});
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_THAT(r.err, HasSubstr("no CUDA device present"));
}

}  // namespace
}  // namespace kblaster
