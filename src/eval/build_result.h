// `kblaster build`'s result value: what building the selected kernels gave, with its
// provenance (reports/schema/build.schema.json).
#pragma once

#include <nlohmann/json.hpp>

#include "core/provenance.h"
#include "eval/build_step.h"

namespace kblaster {

// The version of the build result's JSON.
inline constexpr int kBuildSchemaVersion = 1;

// {"kind": "build", "schema_version", "provenance" (`provenance` with nvcc's version
// and the finish time filled in), "builds": the build report}.
nlohmann::json build_result(const BuildReport& report, Provenance provenance);

}  // namespace kblaster
