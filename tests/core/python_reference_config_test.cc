// A PyTorch module as a kernel's reference (issue 22, "PyTorch references"): `ref.py:Model`, and
// buffers that declare their tensor dimensions (`shape = ["rows", "cols"]`), which is what the
// module is handed.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>

#include "core/config_loader.h"
#include "core/launch_plan.h"
#include "core/plan_text.h"
#include "core/source_tree.h"
#include "core/spec_json.h"
#include "gpu/harness_client.h"
#include "test_paths.h"

namespace kblaster {
namespace {

using ::testing::HasSubstr;

std::string plan_text(const Config& config) {
  std::ostringstream out;
  for (const auto& spec : config.kernels) print_kernel_plan(out, spec, *plan_kernel(spec));
  return out.str();
}

class PythonReferenceConfig : public ::testing::Test {
 protected:
  // One kernel, its reference and extra kernel fields as given, and `x` of `x_shape`.
  Result<Config> load(const std::string& reference, const std::string& extra = "",
                      const std::string& x_shape = "[\"rows\", \"cols\"]",
                      const std::string& x_init = "") {
    dir.write("k/scale.cu", "void scale(float* o, const float* x, int rows, int cols) {}\n");
    dir.write("k/ref.py",
              "import torch\nclass Model(torch.nn.Module):\n"
              "    def forward(self, x):\n        return x * 2\n");
    dir.write("kblaster.toml",
              "[[kernel]]\nname = \"scale\"\nsource = \"k/scale.cu\"\n"
              "launcher = \"scale\"\nreference = \"" +
                  reference + "\"\n" + extra +
                  "args = [\n"
                  "  { name = \"o\", type = \"f32\", shape = [\"rows\", \"cols\"], "
                  "role = \"out\" },\n"
                  "  { name = \"x\", type = \"f32\", shape = " +
                  x_shape + x_init +
                  " },\n"
                  "  { name = \"rows\", type = \"i32\" },\n"
                  "  { name = \"cols\", type = \"i32\" },\n]\n"
                  "sizes = [ { rows = 4, cols = 5 } ]\n");
    return load_config(DirectoryTree(dir.path()));
  }
  std::string error_of(const Result<Config>& r) {
    EXPECT_FALSE(r.ok());
    return r.ok() ? "" : r.error().describe();
  }
  testing::TempDir dir;
};

TEST_F(PythonReferenceConfig, APyFileNamesAModuleClassThatTheHarnessRuns) {
  auto config = load("k/ref.py:Model");
  ASSERT_TRUE(config.ok()) << config.error().describe();
  const KernelSpec& spec = config->kernels[0];
  EXPECT_EQ(spec.reference.kind, ReferenceSpec::Kind::python);
  EXPECT_EQ(spec.reference.path, "k/ref.py");
  EXPECT_EQ(spec.reference.function, "Model");
  EXPECT_THAT(plan_text(*config), HasSubstr("PyTorch module k/ref.py:Model"));
}

TEST_F(PythonReferenceConfig, DimensionsMultiplyToTheElementCountAndReachTheHarness) {
  auto config = load("k/ref.py:Model");
  ASSERT_TRUE(config.ok()) << config.error().describe();
  const KernelSpec& spec = config->kernels[0];
  ASSERT_EQ(spec.args[0].dims.size(), 2u);
  EXPECT_EQ(spec.args[0].shape->text(), "(rows)*(cols)");
  EXPECT_THAT(plan_text(*config), HasSubstr("o:f32[rows, cols] out"));
  auto plan = plan_kernel(spec);
  ASSERT_TRUE(plan.ok()) << plan.error().message;
  EXPECT_EQ(plan->sizes[0].buffers[0].elements, 20);
  EXPECT_EQ(plan->sizes[0].buffers[0].dims, (std::vector<std::int64_t>{4, 5}));
  const auto args = harness_args(spec, plan->sizes[0]);
  EXPECT_EQ(args[0]["dims"], (nlohmann::json{4, 5}));
  EXPECT_EQ(args[0]["elements"], 20);

  auto flat = load("k/ref.py:Model", "", "\"rows*cols\"");
  ASSERT_TRUE(flat.ok()) << flat.error().describe();
  EXPECT_TRUE(flat->kernels[0].args[1].dims.empty());
  EXPECT_FALSE(
      harness_args(flat->kernels[0], plan_kernel(flat->kernels[0])->sizes[0])[1].contains("dims"))
      << "one dimension: the harness makes it {elements}";
}

TEST_F(PythonReferenceConfig, BadDimensionsAreConfigErrorsAtTheirField) {
  EXPECT_THAT(error_of(load("k/ref.py:Model", "", "[]")),
              HasSubstr("field `shape`: expected at least one dimension, got []"));
  EXPECT_THAT(error_of(load("k/ref.py:Model", "", "[\"rows\", 1.5]")),
              HasSubstr("field `shape`: [1]: expected an integer expression, got a float"));
  EXPECT_THAT(error_of(load("k/ref.py:Model", "", "[\"rows\", \"cols*\"]")),
              HasSubstr("field `shape`: [1]: `cols*`: expression ends"));
  EXPECT_THAT(error_of(load("k/ref.py:Model", "", "[1,1,1,1,1,1,1,1,1]")),
              HasSubstr("9 dimensions; at most 8 are accepted"));
  // Two negative dimensions multiply to a positive count: each dimension is checked too.
  auto negative = load("k/ref.py:Model", "", "[\"0-rows\", \"0-cols\"]");
  EXPECT_THAT(error_of(negative), HasSubstr("dimension `0-rows` is negative: -4"));
  EXPECT_THAT(error_of(load("k/ref.py:Model", "", "[\"rows\", \"depth\"]")),
              HasSubstr("uses `depth`, which is not an argument"));
}

TEST_F(PythonReferenceConfig, WhatAModuleCannotBeIsSaidWithTheFile) {
  EXPECT_THAT(error_of(load("k/ref.py:torch::Model")),
              HasSubstr("`torch::Model` is not a Python class name"));
  EXPECT_THAT(error_of(load("k/ref.py:Model", "reference_on = \"cpu\"\n")),
              HasSubstr("`k/ref.py` is a PyTorch module, which runs where torch puts its tensors"));
  EXPECT_THAT(error_of(load("k/missing.py:Model")),
              HasSubstr("file `k/missing.py` does not exist"));
  EXPECT_THAT(error_of(load("k/ref.txt:Model")), HasSubstr("or a .py file (a PyTorch module)"));
  // A generator is a C function in a CPU reference's file; a module cannot hold one.
  EXPECT_THAT(
      error_of(load("k/ref.py:Model", "", "[\"rows\", \"cols\"]", ", init = \"generator(fill)\"")),
      HasSubstr("needs a CPU reference to hold it"));
}

// A module's own tensor (a weight) filled into an input, by its state_dict name: the harness
// gets its name, and the module's forward is not handed it (to_reference false).
TEST_F(PythonReferenceConfig, AStateInitFillsAnInputWithTheModulesOwnTensor) {
  auto config =
      load("k/ref.py:Model", "", "[\"rows\", \"cols\"]", ", init = \"state(lin.weight)\"");
  ASSERT_TRUE(config.ok()) << config.error().describe();
  const KernelSpec& spec = config->kernels[0];
  EXPECT_EQ(spec.args[1].init.kind, InitDist::Kind::state);
  EXPECT_THAT(plan_text(*config), HasSubstr("x:f32[rows, cols] in from state(lin.weight)"));
  const auto args = harness_args(spec, plan_kernel(spec)->sizes[0]);
  EXPECT_EQ(args[1]["init"], (nlohmann::json{{"kind", "state"}, {"name", "lin.weight"}}));
  EXPECT_EQ(args[1]["to_reference"], false);
  EXPECT_EQ(args[0]["to_reference"], true);

  // Only a PyTorch reference has a state_dict; the module's tensor is read, never written; it is
  // converted to `type` directly.
  dir.write("k/ref.cpp", "void scale_ref(float* o, const float* x, int rows, int cols) {}\n");
  EXPECT_THAT(error_of(load("k/ref.cpp:scale_ref", "", "[\"rows\", \"cols\"]",
                            ", init = \"state(lin.weight)\"")),
              HasSubstr("field `init`: `state(lin.weight)` names a tensor of a PyTorch Model, "
                        "which needs a PyTorch reference"));
  EXPECT_THAT(error_of(load("k/ref.py:Model", "", "[\"rows\", \"cols\"]",
                            ", init = \"state(w)\", role = \"inout\"")),
              HasSubstr("its role must be \"in\""));
  EXPECT_THAT(error_of(load("k/ref.py:Model", "", "[\"rows\", \"cols\"]",
                            ", init = \"state(w)\", reference_type = \"f64\"")),
              HasSubstr("it takes no `reference_type`"));
  // The module is built once: its tensor cannot grow with the size.
  ASSERT_TRUE(load("k/ref.py:Model", "", "[\"rows\", \"cols\"]", ", init = \"state(w)\"").ok());
  std::string toml = testing::read_text(dir.path() / "kblaster.toml");
  toml.replace(toml.find("sizes = [ { rows = 4, cols = 5 } ]"), 34,
               "sizes = [ { rows = 4, cols = 5 }, { rows = 8, cols = 5 } ]");
  dir.write("kblaster.toml", toml);
  const auto grows = load_config(DirectoryTree(dir.path()));
  EXPECT_THAT(error_of(grows), HasSubstr("`x`): field `shape`: `(rows)*(cols)` holds the module's "
                                         "`w`, which is built once, so it must have the same "
                                         "element count at every size; it has 20 at rows=4 "
                                         "cols=5 and 40 at rows=8 cols=5"));
}

TEST_F(PythonReferenceConfig, AModuleRunsInEvalModeUnlessTheKernelSaysTrain) {
  auto eval_mode = load("k/ref.py:Model");
  ASSERT_TRUE(eval_mode.ok()) << eval_mode.error().describe();
  EXPECT_FALSE(eval_mode->kernels[0].reference.train);
  auto train = load("k/ref.py:Model", "reference_mode = \"train\"\n");
  ASSERT_TRUE(train.ok()) << train.error().describe();
  EXPECT_TRUE(train->kernels[0].reference.train);
  // Part of the kernel's definition, so a pull request that flips it hits the kernel.
  EXPECT_EQ(to_json(train->kernels[0])["reference"]["mode"], "train");
  EXPECT_EQ(to_json(eval_mode->kernels[0])["reference"]["mode"], "eval");
  EXPECT_THAT(error_of(load("k/ref.py:Model", "reference_mode = \"training\"\n")),
              HasSubstr("field `reference_mode`: `training`: expected \"eval\" (the default) or "
                        "\"train\""));
  dir.write("k/ref.cpp", "void scale_ref(float* o, const float* x, int rows, int cols) {}\n");
  EXPECT_THAT(error_of(load("k/ref.cpp:scale_ref", "reference_mode = \"train\"\n")),
              HasSubstr("only a PyTorch module (a .py reference) has a training mode"));
}

TEST_F(PythonReferenceConfig, AReferenceTypeConvertsForAModuleAsForACpuReference) {
  dir.write("k/scale.cu", "void scale(float* o, const float* x, int rows, int cols) {}\n");
  auto config = load("k/ref.py:Model", "", "[\"rows\", \"cols\"], reference_type = \"f64\"");
  ASSERT_TRUE(config.ok()) << config.error().describe();
  EXPECT_EQ(config->kernels[0].args[1].reference_type, DType::f64);
}

}  // namespace
}  // namespace kblaster
