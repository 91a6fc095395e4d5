// `kblaster classify`'s result: a profile read from saved ncu output, with no GPU,
// and with an earlier run's output, the delta from it (kind "classify",
// reports/schema/classify.schema.json).
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "core/provenance.h"
#include "eval/profile_report.h"
#include "profile/profile_delta.h"

namespace kblaster {

// A profile classified from saved files, and the earlier run it is compared with.
struct ClassifyResult {
  Provenance provenance;                // no GPU, nvcc or seeds: classify reads saved files
  std::string source;                   // the --source file, for the code signature; "" when none
  ProfileReport profile;                // read from --ncu-csv (profile.csv_origin)
  std::optional<ProfileReport> before;  // read from --before-csv, when given
  std::string before_source;            // the earlier run's source; "" when none
};

// The profile delta from the earlier run to this one; nullopt without an earlier run.
std::optional<ProfileDelta> delta_of(const ClassifyResult& result);

// The version of the classify result's JSON; reports/schema/classify.schema.json.
inline constexpr int kClassifySchemaVersion = 1;

// {"kind": "classify", "schema_version", "provenance", the profile's fields ("csv",
// "kernels", "total", "state", "roofline" when known), "source" (null without one), and
// with an earlier run "before" ({"csv", "source"}) and "delta"}.
nlohmann::json to_json(const ClassifyResult& result);

}  // namespace kblaster
