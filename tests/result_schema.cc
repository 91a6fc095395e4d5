#include "result_schema.h"

#include <cstdlib>
#include <fstream>
#include <iostream>

#include "gpu/subprocess.h"

namespace kblaster::testing {

SchemaCheck validate_result(const nlohmann::json& result, const TempDir& dir) {
  const auto file = dir.path() / "result.json";
  std::ofstream(file) << result.dump(2);
  auto run = run_process(
      {"python3", (source_dir() / "scripts/validate_result.py").string(), file.string()});
  if (!run) return {-1, run.error().message};
  return {run->exit_code, run->output};
}

::testing::AssertionResult is_valid_result(const nlohmann::json& result, const std::string& kind,
                                           const TempDir& dir) {
  const auto [code, said] = validate_result(result, dir);
  if (code == 0 && said.find("ok (" + kind + ", schema_version ") != std::string::npos)
    return ::testing::AssertionSuccess();
  // The GPU machine has no python3-jsonschema: there the gpu tests keep their JSON
  // (KBLASTER_DEVICE_LOG_DIR), and it is validated where the validator is.
  if (code == kNoValidator && std::getenv("KBLASTER_DEVICE_LOG_DIR")) {
    std::cerr << "note: the " << kind << " result's schema is not checked on this machine (" << said
              << "); validate the kept JSON with scripts/validate_result.py\n";
    return ::testing::AssertionSuccess();
  }
  return ::testing::AssertionFailure()
         << "not a valid " << kind << " result (exit " << code << "): " << said;
}

::testing::AssertionResult is_rejected_naming(const nlohmann::json& result,
                                              const std::vector<std::string>& errors,
                                              const TempDir& dir) {
  const auto [code, said] = validate_result(result, dir);
  if (code != 1)
    return ::testing::AssertionFailure() << "not rejected (exit " << code << "): " << said;
  for (const auto& e : errors)
    if (said.find(e) == std::string::npos)
      return ::testing::AssertionFailure() << "rejected without naming \"" << e << "\": " << said;
  return ::testing::AssertionSuccess();
}

Provenance sample_provenance(const std::string& command, std::vector<std::uint64_t> seeds) {
  return Provenance{.kblaster_version = "0.1.0",
                    .command_line = {"kblaster", command, "--json"},
                    .repository = "/repo",
                    .base_sha = std::nullopt,
                    .head_sha = std::nullopt,
                    .gpu = GpuIdentity{.name = "NVIDIA H200",
                                       .uuid = "GPU-00112233-4455-6677-8899-aabbccddeeff",
                                       .driver_version = "580.159.04",
                                       .arch = "sm_90",
                                       .clocks_locked = "unknown",
                                       .sm_clock_mhz = 1980.0},
                    .nvcc_version = "release 13.0, V13.0.88",
                    .seeds = std::move(seeds),
                    .started_at = "2026-12-02T03:12:39Z",
                    .finished_at = "2026-12-02T03:13:01Z"};
}

}  // namespace kblaster::testing
