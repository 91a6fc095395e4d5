// Where a reference in a .cu file runs (issue 22, point 1): read from the function's own
// definition, or from `reference_on`, and never a host function handed device pointers.
#include "core/reference_placement.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>

#include "core/config_loader.h"
#include "core/source_tree.h"
#include "test_paths.h"

namespace kblaster {
namespace {

using ::testing::HasSubstr;

constexpr const char* kSource = R"CU(
// layernorm_cpu(out, inp) in a comment is no definition
__global__ void scale_kernel(float* o, const float* i, int n) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < n) o[k] = 2.0f * i[k];
}
void scale(float* o, const float* i, int n);  // a declaration
void scale(float* o, const float* i, int n) { scale_kernel<<<(n + 255) / 256, 256>>>(o, i, n); }
namespace ref {
void scale_cpu(float* o, const float* i, int n) noexcept {
  const char* why = "cudaMemcpy is only named here";
  for (int k = 0; k < n; ++k) o[k] = 2.0f * i[k];
}
}  // namespace ref
void scale_blas(float* o, const float* i, int n) { cublasSscal(nullptr, n, nullptr, o, 1); }
)CU";

TEST(ReferencePlacement, FindsTheDefinitionNotACallADeclarationOrAComment) {
  const auto launcher = function_body(kSource, "scale");
  ASSERT_TRUE(launcher.has_value());
  EXPECT_THAT(*launcher, HasSubstr("scale_kernel<<<"));
  const auto cpu = function_body(kSource, "ref::scale_cpu");
  ASSERT_TRUE(cpu.has_value());
  EXPECT_THAT(*cpu, HasSubstr("for (int k = 0"));
  EXPECT_FALSE(function_body(kSource, "layernorm_cpu").has_value());
  EXPECT_FALSE(function_body(kSource, "missing").has_value());
}

TEST(ReferencePlacement, GpuWorkIsALaunchOrACudaCallOutsideComments) {
  EXPECT_EQ(gpu_work_in(*function_body(kSource, "scale")), "it launches a kernel (<<<)");
  EXPECT_EQ(gpu_work_in(*function_body(kSource, "scale_blas")), "it calls cublasSscal");
  EXPECT_EQ(gpu_work_in(*function_body(kSource, "scale_cpu")), "")
      << "a CUDA name inside a string literal is no call";
}

// A pull request's .cu file written to make the search quadratic: nested calls closed only at
// the end, and trailing arrows without a body. Bounded, it ends at once.
TEST(ReferencePlacement, AHostileFileCannotMakeTheSearchQuadratic) {
  std::string nested;
  for (int i = 0; i < 100'000; ++i) nested += "f(";
  nested += std::string(100'000, ')');
  std::string arrows;
  for (int i = 0; i < 100'000; ++i) arrows += "f() -> ";
  const auto start = std::chrono::steady_clock::now();
  EXPECT_FALSE(function_body(nested, "f").has_value());
  EXPECT_FALSE(function_body(arrows, "f").has_value());
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
}

// A repository whose kernel file holds its own CPU reference, as real ones do.
class ReferenceOnConfig : public ::testing::Test {
 protected:
  Result<Config> load(const std::string& reference, const std::string& on = "") {
    dir.write("k/scale.cu", kSource);
    dir.write("kblaster.toml",
              "[[kernel]]\nname = \"scale\"\nsource = \"k/scale.cu\"\n"
              "launcher = \"scale\"\nreference = \"" +
                  reference + "\"\n" + (on.empty() ? "" : "reference_on = \"" + on + "\"\n") +
                  "args = [\n"
                  "  { name = \"o\", type = \"f32\", shape = \"n\", role = \"out\" },\n"
                  "  { name = \"i\", type = \"f32\", shape = \"n\" },\n"
                  "  { name = \"n\", type = \"i32\" },\n]\n"
                  "sizes = [ { n = 1024 } ]\n");
    return load_config(DirectoryTree(dir.path()));
  }
  testing::TempDir dir;
};

TEST_F(ReferenceOnConfig, AHostFunctionInACuFileIsACpuReferenceOnlyWhenSaidSo) {
  auto silent = load("k/scale.cu:ref::scale_cpu");
  ASSERT_FALSE(silent.ok()) << "never taken as a GPU reference";
  EXPECT_EQ(silent.error().kind, ErrorKind::config);
  EXPECT_THAT(silent.error().message,
              HasSubstr("`k/scale.cu:ref::scale_cpu` launches no kernel and calls no CUDA API"));
  EXPECT_THAT(silent.error().message, HasSubstr("reference_on = \"cpu\""));
  EXPECT_THAT(silent.error().describe(), HasSubstr("kblaster.toml"));

  auto said = load("k/scale.cu:ref::scale_cpu", "cpu");
  ASSERT_TRUE(said.ok()) << said.error().describe();
  EXPECT_EQ(said->kernels[0].reference.kind, ReferenceSpec::Kind::cpu);
}

TEST_F(ReferenceOnConfig, ALauncherInACuFileIsAGpuReference) {
  auto launcher = load("k/scale.cu:scale");
  ASSERT_TRUE(launcher.ok()) << launcher.error().describe();
  EXPECT_EQ(launcher->kernels[0].reference.kind, ReferenceSpec::Kind::gpu);
  auto library = load("k/scale.cu:scale_blas");
  ASSERT_TRUE(library.ok()) << library.error().describe();
  EXPECT_EQ(library->kernels[0].reference.kind, ReferenceSpec::Kind::gpu);
}

TEST_F(ReferenceOnConfig, AMismatchOrAnUnknownPlacementIsAConfigErrorNamingTheFunction) {
  auto launcher_as_cpu = load("k/scale.cu:scale", "cpu");
  ASSERT_FALSE(launcher_as_cpu.ok());
  EXPECT_THAT(launcher_as_cpu.error().message,
              HasSubstr("`k/scale.cu:scale` is declared to run on the CPU, but it launches a "
                        "kernel (<<<): it would be handed host pointers"));
  auto missing = load("k/scale.cu:nowhere");
  ASSERT_FALSE(missing.ok());
  EXPECT_THAT(missing.error().message, HasSubstr("no definition of `nowhere` found"));
  auto neither = load("k/scale.cu:scale", "tpu");
  ASSERT_FALSE(neither.ok());
  EXPECT_THAT(neither.error().message, HasSubstr("field `reference_on`: expected \"cpu\" or"));
  dir.write("k/ref.cpp", "void scale_ref(float* o, const float* i, int n) {}\n");
  auto host_as_gpu = load("k/ref.cpp:scale_ref", "gpu");
  ASSERT_FALSE(host_as_gpu.ok());
  EXPECT_THAT(host_as_gpu.error().message, HasSubstr("is host code"));
}

}  // namespace
}  // namespace kblaster
