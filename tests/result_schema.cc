#include "result_schema.h"

#include <fstream>

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

}  // namespace kblaster::testing
