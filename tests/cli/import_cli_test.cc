// `kblaster import kernelbench DIR` through the real binary and python3, with the stand-in torch
// (tests/fixtures/torch_stand_in: CI has no torch; the H200 run uses the real one).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli_run.h"
#include "gpu/landlock_rules.h"
#include "result_schema.h"
#include "scoped_env.h"
#include "test_paths.h"

namespace kblaster {
namespace {

using ::testing::HasSubstr;
using testing::run_kblaster;

constexpr const char* kRelu = R"PY(import torch
import torch.nn as nn

class Model(nn.Module):
    def __init__(self):
        super(Model, self).__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        print("forward ran")  # a problem's chatter stays off the describer's answer
        return torch.relu(x)

batch_size = 4
dim = 8

def get_inputs():
    return [torch.frombuffer(bytearray(4 * batch_size * dim), dtype=torch.float32).reshape([batch_size, dim])]

def get_init_inputs():
    return []
)PY";

constexpr const char* kTwoOut = R"PY(import torch
class Model(torch.nn.Module):
    def forward(self, a, out0):
        return a + out0, (a * 2.0).sum(-1)
def get_inputs():
    return [torch.frombuffer(bytearray(24), dtype=torch.float32).reshape([2, 3]),
            torch.frombuffer(bytearray(24), dtype=torch.float32).reshape([2, 3])]
)PY";

constexpr const char* kWeights = R"PY(import torch
class Inner(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.weight = torch.nn.Parameter(torch.full([5], 0.5))
class Model(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = Inner()
        self.bias = torch.nn.Parameter(torch.full([5], 1.0))
    def forward(self, x):
        return x * self.lin.weight + self.bias
def get_inputs():
    return [torch.empty(5, torch.float32)]
)PY";

constexpr const char* kScalarInput = R"PY(import torch
class Model(torch.nn.Module):
    def forward(self, x, dim):
        return x
def get_inputs():
    return [torch.empty(5, torch.float32), 1]
)PY";

class ImportKernelBench : public ::testing::Test {
 protected:
  void SetUp() override {
    dir.write("19_ReLU.py", kRelu);
    dir.write("2_TwoOutputs.py", kTwoOut);
    dir.write("3_Weights.py", kWeights);
    dir.write("4_ScalarInput.py", kScalarInput);
    dir.write("5_NoModel.py", "def get_inputs():\n    return []\n");
    dir.write("2_TwoOutputs.cu", "// a solution the user wrote: kept\n");
  }
  testing::TempDir dir;
  testing::ScopedEnv env{
      {{"PYTHONPATH", (testing::source_dir() / "tests/fixtures/torch_stand_in").string()}}};
};

TEST_F(ImportKernelBench, ProblemsBecomeKernelsWithTheirModelsAsReferences) {
  auto r = run_kblaster({"import", "kernelbench", dir.path().string(), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("[1/5] 19_ReLU.py -> kernel 19_ReLU (1 in, 1 out)"));
  // The module's own tensors are the launcher's too, filled from the module (state(NAME)).
  EXPECT_THAT(r.err, HasSubstr("3_Weights.py -> kernel 3_Weights (1 in, 2 of the module's own, "
                               "1 out)"));
  EXPECT_THAT(r.err, HasSubstr("4_ScalarInput.py skipped: get_inputs()[1] (`dim`) is a int, not "
                               "a tensor"));
  EXPECT_THAT(r.err, HasSubstr("5_NoModel.py skipped: it defines no `Model`"));
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["kernels"].size(), 3u);
  EXPECT_EQ(j["skipped"].size(), 2u);
  EXPECT_EQ(j["skeletons"], (nlohmann::json{"19_ReLU.cu", "3_Weights.cu"}))
      << "2_TwoOutputs.cu was kept";
  testing::TempDir schema_dir;
  EXPECT_TRUE(testing::is_valid_result(j, "import", schema_dir));
  EXPECT_EQ(testing::read_text(dir.path() / "2_TwoOutputs.cu"),
            "// a solution the user wrote: kept\n");

  const std::string toml = testing::read_text(dir.path() / "kblaster.toml");
  EXPECT_THAT(toml, HasSubstr("launcher = \"run_19_ReLU\"\nreference = \"19_ReLU.py:Model\"\n"
                              "reference_mode = \"train\"\n"));
  EXPECT_THAT(toml,
              HasSubstr("{ name = \"x\", type = \"f32\", shape = [4, 8] },\n"
                        "  { name = \"out\", type = \"f32\", shape = [4, 8], role = \"out\" }"));
  // Two outputs; forward's parameter `out0` renamed, as the first output takes that name.
  EXPECT_THAT(toml, HasSubstr("{ name = \"out0_in\", type = \"f32\", shape = [2, 3] }"));
  EXPECT_THAT(toml, HasSubstr("{ name = \"out1\", type = \"f32\", shape = [2], role = \"out\" }"));
  // As torch lists them: the module's own parameters, then its sub-modules'.
  EXPECT_THAT(toml, HasSubstr("{ name = \"x\", type = \"f32\", shape = [5] },\n"
                              "  { name = \"bias\", type = \"f32\", shape = [5], init = "
                              "\"state(bias)\" },\n"
                              "  { name = \"lin_weight\", type = \"f32\", shape = [5], init = "
                              "\"state(lin.weight)\" },\n"));
  EXPECT_THAT(testing::read_text(dir.path() / "3_Weights.cu"),
              HasSubstr("void run_3_Weights(const float* x, const float* bias, const float* "
                        "lin_weight, float* out)"));

  // What it wrote is a kernel repository: plan reads it, and the skeleton compiles.
  auto plan = run_kblaster({"plan", dir.path().string()});
  ASSERT_EQ(plan.exit_code, 0) << plan.err;
  EXPECT_THAT(plan.out, HasSubstr("reference  PyTorch module 19_ReLU.py:Model"));
  EXPECT_THAT(plan.out, HasSubstr("lin_weight:f32[5] in from state(lin.weight)"));
  testing::TempDir cache;
  auto build = run_kblaster({"build", dir.path().string(), "--kernel", "19_ReLU", "--kernel",
                             "3_Weights", "--cache-dir", cache.path().string()});
  EXPECT_EQ(build.exit_code, 0) << build.err;

  auto again = run_kblaster({"import", "kernelbench", dir.path().string()});
  EXPECT_EQ(again.exit_code, 2) << again.err;
  EXPECT_THAT(again.err, HasSubstr("kblaster.toml exists already; pass --force to replace it"));
  EXPECT_EQ(run_kblaster({"import", "kernelbench", dir.path().string(), "--force"}).exit_code, 0);

  // --rtol/--atol declare every kernel's tolerance; one without the other is a usage error.
  ASSERT_EQ(run_kblaster({"import", "kernelbench", dir.path().string(), "--force", "--rtol", "0.01",
                          "--atol", "0.001"})
                .exit_code,
            0);
  EXPECT_THAT(testing::read_text(dir.path() / "kblaster.toml"),
              HasSubstr("tolerance = { rtol = 0.01, atol = 0.001 }"));
  auto tolerant = run_kblaster({"plan", dir.path().string(), "--kernel", "19_ReLU"});
  EXPECT_THAT(tolerant.out, HasSubstr("tolerance  rtol 0.01, atol 0.001"));
  EXPECT_EQ(
      run_kblaster({"import", "kernelbench", dir.path().string(), "--force", "--rtol", "0.01"})
          .exit_code,
      2);
}

// A problem file runs in a sandbox whose writes go to a directory of its own (with Landlock),
// and the import's own writes replace a planted link instead of writing through it.
TEST_F(ImportKernelBench, AProblemCannotWriteBesideItselfNorRedirectTheImportsWrites) {
  testing::TempDir elsewhere;
  dir.write("6_Writes.py",
            "import os\nopen(os.path.join(os.path.dirname(__file__), 'planted'), "
            "'w').write('x')\n" +
                std::string(kRelu));
  std::filesystem::create_symlink(elsewhere.path() / "target.toml", dir.path() / "kblaster.toml");
  auto r = run_kblaster({"import", "kernelbench", dir.path().string(), "--force"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  if (landlock_abi() > 0) {
    EXPECT_THAT(r.err, HasSubstr("6_Writes.py skipped: PermissionError"));
    EXPECT_FALSE(std::filesystem::exists(dir.path() / "planted"));
  }
  EXPECT_FALSE(std::filesystem::is_symlink(dir.path() / "kblaster.toml"))
      << "replaced, not followed";
  EXPECT_FALSE(std::filesystem::exists(elsewhere.path() / "target.toml"));
}

TEST_F(ImportKernelBench, NothingImportableIsAnErrorThatSaysWhyForEachFile) {
  testing::TempDir only_bad;
  only_bad.write("4_ScalarInput.py", kScalarInput);
  auto r = run_kblaster({"import", "kernelbench", only_bad.path().string()});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_THAT(r.err, HasSubstr("no problem in"));
  EXPECT_THAT(r.err, HasSubstr("4_ScalarInput.py: get_inputs()[1] (`dim`) is a int"));
  EXPECT_FALSE(std::filesystem::exists(only_bad.path() / "kblaster.toml"));

  auto no_python = [&] {
    testing::ScopedEnv bad{{{"KBLASTER_PYTHON", "/nonexistent/python3"}}};
    return run_kblaster({"import", "kernelbench", dir.path().string()});
  }();
  EXPECT_EQ(no_python.exit_code, 3) << no_python.err;
  EXPECT_THAT(no_python.err, HasSubstr("`/nonexistent/python3` could not be started"));
  EXPECT_EQ(run_kblaster({"import", "pytorch", dir.path().string()}).exit_code, 2);
}

}  // namespace
}  // namespace kblaster
