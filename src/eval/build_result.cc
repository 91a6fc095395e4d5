#include "eval/build_result.h"

#include "core/result_envelope.h"

namespace kblaster {

nlohmann::json build_result(const BuildReport& report, Provenance provenance) {
  provenance.nvcc_version = report.compiler_version;
  stamp_finished(provenance);
  nlohmann::json j = result_envelope("build", kBuildSchemaVersion, provenance);
  j["builds"] = to_json(report);
  return j;
}

}  // namespace kblaster
