#include "transform/register_cap.h"

#include <gtest/gtest.h>

#include "example_kernels.h"

namespace kblaster {
namespace {

TEST(CapRegistersInSource, PutsMaxnregOnEveryKernelDeclaration) {
  const auto r = cap_registers_in_source(
      "__global__ void k(float* y);\n__global__ void k(float* y) { y[0] = 1; }\n"
      "__global__ void j() {}\n",
      64);
  ASSERT_TRUE(r.changed);
  EXPECT_EQ(r.source,
            "__global__ __maxnreg__(64) void k(float* y);\n"
            "__global__ __maxnreg__(64) void k(float* y) { y[0] = 1; }\n"
            "__global__ __maxnreg__(64) void j() {}\n");
  EXPECT_EQ(r.description, "__maxnreg__(64) on j, k in the source");
  EXPECT_NVCC_COMPILES("capped.cu", r.source);
}

TEST(CapRegistersInSource, RefusesKernelsWithLaunchBoundsOrACapAlready) {
  const auto bounded =
      cap_registers_in_source("__global__ void __launch_bounds__(128) k() {}\n", 32);
  EXPECT_FALSE(bounded.changed);
  EXPECT_NE(bounded.description.find("__launch_bounds__"), std::string::npos);
  const auto capped = cap_registers_in_source("__global__ __maxnreg__(32) void k() {}\n", 64);
  EXPECT_FALSE(capped.changed);
  const auto none = cap_registers_in_source("__device__ float f() { return 1; }\n", 64);
  EXPECT_FALSE(none.changed);
  EXPECT_EQ(none.description, "the source defines no kernel");
}

}  // namespace
}  // namespace kblaster
