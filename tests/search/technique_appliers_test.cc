// The embedded techniques on the real example kernels: what each proposes, and
// why not when it does not apply.
#include "search/technique_appliers.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>

#include "example_kernels.h"
#include "gpu/shim.h"
#include "test_paths.h"

namespace kblaster {
namespace {

using ::testing::HasSubstr;

class TechniqueAppliers : public ::testing::Test {
 protected:
  const KernelSpec& spec(const std::string& name) {
    const KernelSpec* k = testing::example_kernel(name);
    if (!k) throw std::runtime_error("no kernel " + name);
    return *k;
  }
  Candidate baseline(const std::string& name) {
    Candidate c;
    c.source = testing::read_text(testing::examples_dir() / spec(name).source);
    return c;
  }
  TargetGpu hopper{"sm_90", true};
};

TEST_F(TechniqueAppliers, SourceRewritesAndLaunchGeometryOnSoftmaxSlow) {
  const Candidate base = baseline("softmax_slow");
  auto restrict = propose("restrict_pointers", base, spec("softmax_slow"), hopper);
  ASSERT_EQ(restrict.children.size(), 1u) << restrict.why_not;
  EXPECT_THAT(restrict.children[0].source, HasSubstr("float* __restrict__ out"));
  EXPECT_EQ(restrict.children[0].path, std::vector<std::string>{"restrict_pointers"});
  auto again = propose("restrict_pointers", restrict.children[0], spec("softmax_slow"), hopper);
  EXPECT_TRUE(again.children.empty());
  EXPECT_EQ(again.why_not, "already applied on this path");

  auto geometry = propose("launch_geometry_tuning", base, spec("softmax_slow"), hopper);
  ASSERT_EQ(geometry.children.size(), 5u) << "32, 64, 256, 512, 1024 besides 128";
  EXPECT_THAT(geometry.children[0].source, HasSubstr("constexpr int kThreads = 32;"));
}

TEST_F(TechniqueAppliers, AnUndersizedGridPrefersTheLargestBlockThatFillsEverySm) {
  const Candidate base = baseline("softmax_slow");  // kThreads = 128
  // 64 blocks on 132 SMs: 64 threads give 128 blocks (short), 32 give 256.
  auto short_grid = propose("launch_geometry_tuning", base, spec("softmax_slow"), hopper,
                            LaunchShape{64.0, 132.0});
  ASSERT_EQ(short_grid.preferred.size(), 1u);
  const auto preferred =
      std::find_if(short_grid.children.begin(), short_grid.children.end(),
                   [&](const Candidate& c) { return c.fingerprint() == short_grid.preferred[0]; });
  ASSERT_NE(preferred, short_grid.children.end());
  EXPECT_THAT(preferred->source, HasSubstr("constexpr int kThreads = 32;"));
  EXPECT_EQ(short_grid.because, "the grid has 64 blocks for 132 SMs; this gives about 256");

  // 100 blocks: 64 threads already give 200, so the smaller change wins.
  auto nearly = propose("launch_geometry_tuning", base, spec("softmax_slow"), hopper,
                        LaunchShape{100.0, 132.0});
  ASSERT_EQ(nearly.preferred.size(), 1u);
  const auto nearest =
      std::find_if(nearly.children.begin(), nearly.children.end(),
                   [&](const Candidate& c) { return c.fingerprint() == nearly.preferred[0]; });
  ASSERT_NE(nearest, nearly.children.end());
  EXPECT_THAT(nearest->source, HasSubstr("constexpr int kThreads = 64;"));

  // A full grid, or no profile, argues for the neighbours of 128: 64 and 256.
  for (const LaunchShape& shape : {LaunchShape{8192.0, 132.0}, LaunchShape{}}) {
    auto full = propose("launch_geometry_tuning", base, spec("softmax_slow"), hopper, shape);
    std::vector<std::string> argued;
    for (const auto& c : full.children)
      if (std::find(full.preferred.begin(), full.preferred.end(), c.fingerprint()) !=
          full.preferred.end())
        argued.push_back(c.changes.back());
    EXPECT_THAT(argued, ::testing::UnorderedElementsAre("set kThreads from 128 to 64",
                                                        "set kThreads from 128 to 256"));
    EXPECT_EQ(full.because, "a neighbouring size, half or twice the current one");
  }
}

// A larger block makes fewer blocks; where that leaves SMs without one, it is not
// proposed (on the H200 no such child was faster).
TEST_F(TechniqueAppliers, AnUndersizedGridIsNeverOfferedALargerBlockThatEmptiesSms) {
  const Candidate base = baseline("softmax_slow");  // kThreads = 128, 64 blocks
  auto from_128 = propose("launch_geometry_tuning", base, spec("softmax_slow"), hopper,
                          LaunchShape{64.0, 132.0});
  std::vector<std::string> changes;
  for (const auto& c : from_128.children) changes.push_back(c.changes.back());
  EXPECT_THAT(changes, ::testing::UnorderedElementsAre("set kThreads from 128 to 32",
                                                       "set kThreads from 128 to 64"));

  // At 32 threads the grid has 256 blocks: 64 threads would give 128 < 132 SMs, and
  // nothing is smaller, so the technique has nothing to offer and says why.
  Candidate at_32 = base;
  at_32.source.replace(at_32.source.find("kThreads = 128"), 14, "kThreads = 32");
  auto from_32 = propose("launch_geometry_tuning", at_32, spec("softmax_slow"), hopper,
                         LaunchShape{256.0, 132.0});
  EXPECT_TRUE(from_32.children.empty());
  EXPECT_EQ(from_32.why_not,
            "the grid has 256 blocks for 132 SMs: a larger block would leave SMs without a "
            "block, and no smaller size is left");

  // A grid with blocks to spare keeps every size; so does a launch not profiled.
  for (const LaunchShape& shape : {LaunchShape{8192.0, 132.0}, LaunchShape{}})
    EXPECT_EQ(propose("launch_geometry_tuning", at_32, spec("softmax_slow"), hopper, shape)
                  .children.size(),
              5u);
}

TEST_F(TechniqueAppliers, FlagsArchAndRegisterCaps) {
  const Candidate base = baseline("axpy");
  auto fast = propose("fast_math", base, spec("axpy"), hopper);
  ASSERT_EQ(fast.children.size(), 1u);
  EXPECT_EQ(fast.children[0].extra_flags, std::vector<std::string>{"-use_fast_math"});
  auto caps = propose("max_register_cap", base, spec("axpy"), hopper);
  ASSERT_EQ(caps.children.size(), 3u);
  auto recap = propose("max_register_cap", caps.children[0], spec("axpy"), hopper);
  for (const auto& c : recap.children) EXPECT_EQ(c.extra_flags.size(), 1u) << "one cap at a time";
  auto native = propose("target_native_arch", base, spec("axpy"), hopper);
  ASSERT_EQ(native.children.size(), 1u);
  EXPECT_EQ(native.children[0].arch, "sm_90a");
  EXPECT_TRUE(has_arch_specific_variant("sm_90"));
  EXPECT_TRUE(has_arch_specific_variant("sm_100"));
  EXPECT_FALSE(has_arch_specific_variant("sm_90a")) << "already the a variant: no sm_90aa";
  EXPECT_FALSE(has_arch_specific_variant("sm_80"));
  auto older = propose("target_native_arch", base, spec("axpy"), TargetGpu{"sm_80", false});
  EXPECT_EQ(older.why_not, "sm_80 has no arch-specific (a) variant");
  EXPECT_THAT(propose("tensor_cores", base, spec("axpy"), hopper).why_not,
              HasSubstr("no embedded applier"));
}

// Issue 22, point 3: a warp-per-row kernel needs cols >= block_size; the search does not build
// a child whose tunable breaks that at a size it runs, and says why when none is left.
TEST_F(TechniqueAppliers, AChildWhoseTunableBreaksRequiresIsRefused) {
  KernelSpec rows = spec("scale_rows");
  rows.preconditions = {*Precondition::parse("cols >= block_size")};
  rows.sizes = {{{"rows", 16384}, {"cols", 300}}};
  auto p = propose("occupancy_tuning", baseline("scale_rows"), rows, hopper);
  ASSERT_EQ(p.children.size(), 1u) << p.why_not;
  EXPECT_EQ(p.children[0].launcher_args.at("block_size"), 256);
  rows.sizes = {{{"rows", 16384}, {"cols", 200}}};
  Candidate at_128 = baseline("scale_rows");
  at_128.launcher_args["block_size"] = 128;
  p = propose("occupancy_tuning", at_128, rows, hopper);
  EXPECT_TRUE(p.children.empty());
  EXPECT_EQ(p.why_not,
            "every other value breaks `requires`: block_size = 256 breaks `cols >= block_size` "
            "(cols=200, block_size=256) at rows=16384 cols=200");
}

TEST_F(TechniqueAppliers, TunablesOfBothKinds) {
  auto tile = propose("tile_size_tuning", baseline("transpose"), spec("transpose"), hopper);
  ASSERT_EQ(tile.children.size(), 1u) << tile.why_not;
  EXPECT_EQ(tile.children[0].macros.at("BLOCK"), "16");
  auto occupancy = propose("occupancy_tuning", baseline("scale_rows"), spec("scale_rows"), hopper);
  ASSERT_EQ(occupancy.children.size(), 2u) << occupancy.why_not;
  EXPECT_EQ(occupancy.children[0].launcher_args.at("block_size"), 256);
  EXPECT_EQ(occupancy.children[1].launcher_args.at("block_size"), 512);
  EXPECT_EQ(propose("occupancy_tuning", baseline("axpy"), spec("axpy"), hopper).why_not,
            "the spec declares no launcher-argument tunable");
  // The shim reads a launcher-argument tunable through a macro a build can fix.
  const std::string shim = generate_shim(spec("scale_rows"), "kernels/scale_rows.cu");
  EXPECT_THAT(shim, HasSubstr("#ifdef KBLASTER_TUNE_block_size"));
  EXPECT_THAT(shim, HasSubstr("KBLASTER_ARG_block_size(*static_cast<int32_t*>"));
}

}  // namespace
}  // namespace kblaster
