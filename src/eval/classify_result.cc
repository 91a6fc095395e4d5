#include "eval/classify_result.h"

#include "core/result_envelope.h"

namespace kblaster {
namespace {

nlohmann::json path_or_null(const std::string& path) {
  return path.empty() ? nlohmann::json() : nlohmann::json(path);
}

}  // namespace

std::optional<ProfileDelta> delta_of(const ClassifyResult& r) {
  if (!r.before) return std::nullopt;
  return profile_delta(r.before->total, r.before->state, r.profile.total, r.profile.state);
}

nlohmann::json to_json(const ClassifyResult& r) {
  nlohmann::json j = result_envelope("classify", kClassifySchemaVersion, r.provenance);
  j.update(to_json(r.profile));
  j["source"] = path_or_null(r.source);
  if (r.before) {
    j["before"] = {{"csv", r.before->csv_origin}, {"source", path_or_null(r.before_source)}};
    j["delta"] = to_json(*delta_of(r));
  }
  return j;
}

}  // namespace kblaster
