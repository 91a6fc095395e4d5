// The build-setting techniques produce candidates that real nvcc builds: flags,
// the arch-specific target and a launcher-argument tunable through the shim.
// (The source rewrites compile in tests/transform/.) No GPU needed.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "eval/gpu_evaluator.h"
#include "example_kernels.h"
#include "gpu/real_nvcc.h"
#include "search/technique_appliers.h"
#include "test_paths.h"

namespace kblaster {
namespace {

TEST(ApplierBuilds, EveryBuildSettingTechniqueCompiles) {
  KB_REQUIRE_NVCC(nvcc);
  auto spec = [](const std::string& name) -> const KernelSpec& {
    const KernelSpec* k = testing::example_kernel(name);
    if (!k) throw std::runtime_error(name);
    return *k;
  };
  testing::TempDir cache_dir;
  CompileCache cache(cache_dir.path());
  CandidateBuilder builder(*nvcc, cache, cache_dir.path() / "shims");
  const TargetGpu hopper{"sm_90", true};
  const std::pair<const char*, const char*> cases[] = {{"fast_math", "axpy"},
                                                       {"max_register_cap", "axpy"},
                                                       {"cache_loads_in_l1", "axpy"},
                                                       {"target_native_arch", "axpy"},
                                                       {"occupancy_tuning", "scale_rows"}};
  for (const auto& [technique, kernel] : cases) {
    Candidate base;
    base.source = testing::read_text(testing::examples_dir() / spec(kernel).source);
    const Proposal p = propose(technique, base, spec(kernel), hopper);
    ASSERT_FALSE(p.children.empty()) << technique << ": " << p.why_not;
    const Candidate& child = p.children.front();
    auto built =
        builder.build(spec(kernel), build_request_for(child, "sm_90", testing::examples_dir()));
    ASSERT_TRUE(built.ok()) << built.error().message;
    EXPECT_TRUE(built->ok()) << technique << ": " << built->summary << "\n" << built->log;
  }
}

}  // namespace
}  // namespace kblaster
