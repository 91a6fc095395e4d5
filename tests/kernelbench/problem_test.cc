// A problem's description as the import reads it: what python said is checked before any of it
// reaches the generated kblaster.toml or C++ (a problem file is the user's, but may be anyone's).
#include "kernelbench/problem.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "kernelbench/spec_text.h"

namespace kblaster {
namespace {

using nlohmann::json;
using ::testing::HasSubstr;

json described(json inputs, json outputs = json::array(
                                {{{"name", "out"}, {"dtype", "float32"}, {"shape", {4}}}})) {
  return {{"ok", true}, {"forward", json::array()}, {"inputs", inputs}, {"outputs", outputs}};
}

json tensor(const std::string& name, json shape = {4}, const std::string& dtype = "float32") {
  return {{"name", name}, {"dtype", dtype}, {"shape", shape}};
}

std::string refusal(const json& j, const std::string& file = "1_P.py") {
  auto p = problem_from_description(j, file);
  EXPECT_FALSE(p.ok());
  return p.ok() ? "" : p.error().message;
}

TEST(KernelBenchProblem, WhatCannotBeACppOrTomlNameIsRefused) {
  EXPECT_THAT(refusal(described({tensor("x\"]\nlauncher = \"evil")})),
              HasSubstr("cannot be a launcher parameter"));
  EXPECT_THAT(refusal(described({tensor("x", {4}, "complex64")})),
              HasSubstr("is complex64, which kblaster has no type for"));
  EXPECT_THAT(refusal(described({tensor("x", {2, -2})})), HasSubstr("has a negative dimension"));
  EXPECT_THAT(refusal(described({tensor("x", {1, 1, 1, 1, 1, 1, 1, 1, 1})})),
              HasSubstr("more than 8 dimensions"));
  EXPECT_THAT(refusal(described({tensor("x")}), "a\"b.py"),
              HasSubstr("its name cannot be a kernel's"));
  EXPECT_THAT(refusal({{"ok", false}, {"error", std::string(5000, 'e')}}).size(),
              ::testing::Le(1000u));
  EXPECT_THAT(refusal({{"ok", true}, {"inputs", 3}}), HasSubstr("its description is malformed"));
  EXPECT_EQ(refusal({{"ok", false}, {"error", "one\n::error::two"}}), "one ::error::two");
}

TEST(KernelBenchProblem, ParametersGetCppNamesOfTheirOwn) {
  auto p = problem_from_description(described({tensor("float"), tensor("out"), tensor("out_in")}),
                                    "7_Names.py");
  ASSERT_TRUE(p.ok()) << p.error().message;
  EXPECT_EQ(p->inputs[0].name, "float_in") << "a C++ keyword";
  EXPECT_EQ(p->inputs[1].name, "out_in") << "`out` is the output's";
  EXPECT_EQ(p->inputs[2].name, "out_in_in") << "`out_in` is now the second input's";
  EXPECT_EQ(p->launcher, "run_7_Names");
  EXPECT_THAT(launcher_skeleton(*p),
              HasSubstr("void run_7_Names(const float* float_in, const float* out_in, "
                        "const float* out_in_in, float* out)"));
}

// The module's own tensors (its weights) by state_dict name: a C++ name from the dotted one, kept
// apart from forward's names, and the toml's init names the tensor the harness asks for.
TEST(KernelBenchProblem, TheModulesOwnTensorsBecomeInputsFilledFromItsState) {
  json j = described({tensor("x"), tensor("conv_weight")});
  j["state"] = {tensor("conv.weight", {2, 2}), tensor("0.bias", {2}), tensor("float", {1})};
  auto p = problem_from_description(j, "8_Conv.py");
  ASSERT_TRUE(p.ok()) << p.error().message;
  ASSERT_EQ(p->state.size(), 3u);
  EXPECT_EQ(p->state[0].name, "conv_weight_w") << "forward's `conv_weight` came first";
  EXPECT_EQ(p->state[0].state, "conv.weight");
  EXPECT_EQ(p->state[1].name, "w0_bias") << "an identifier cannot start with a digit";
  EXPECT_EQ(p->state[2].name, "float_w") << "a C++ keyword";
  const std::string toml = kernels_toml({*p}, std::nullopt);
  EXPECT_THAT(toml, HasSubstr("{ name = \"conv_weight_w\", type = \"f32\", shape = [2, 2], init = "
                              "\"state(conv.weight)\" },\n  { name = \"w0_bias\""));
  EXPECT_THAT(launcher_skeleton(*p),
              HasSubstr("(const float* x, const float* conv_weight, const float* conv_weight_w, "
                        "const float* w0_bias, const float* float_w, float* out)"));

  json deep = described({tensor("x")});
  const std::string long_name =
      "encoder.layers.11.attention.output.dense.projection.weight.of.a.deep.model";
  deep["state"] = {tensor(long_name, {2}), tensor(long_name + "2", {2})};
  auto d = problem_from_description(deep, "9_Deep.py");
  ASSERT_TRUE(d.ok()) << d.error().message;
  EXPECT_EQ(d->state[0].name.size(), 64u) << d->state[0].name;
  EXPECT_EQ(d->state[1].name.size(), 64u) << d->state[1].name;
  EXPECT_EQ(d->state[0].state, long_name);
  EXPECT_NE(d->state[0].name, d->state[1].name) << "a hash of the whole name keeps them apart";
  EXPECT_THAT(d->state[0].name, ::testing::EndsWith("dense_projection_weight_of_a_deep_model"));

  json bad = described({tensor("x")});
  bad["state"] = {tensor("conv.weight\"]\nlauncher = \"evil", {2})};
  EXPECT_THAT(refusal(bad), HasSubstr("has a name kblaster cannot declare"));
}

}  // namespace
}  // namespace kblaster
