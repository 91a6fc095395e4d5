#include "report/sweep_shards.h"

#include <algorithm>
#include <set>

namespace kblaster {
namespace {

using nlohmann::json;

// What must be equal for two runs to be shards of one sweep.
json shard_key(const json& run) {
  const json provenance = run.value("provenance", json::object());
  const json gpu = provenance.value("gpu", json::object());
  const json builds = run.value("builds", json::object());
  return {provenance.value("repository", json()),
          provenance.value("head_sha", json()),
          provenance.value("base_sha", json()),
          gpu.value("name", json()),
          builds.value("arch", json()),
          provenance.value("nvcc_version", json()),
          provenance.value("kblaster_version", json())};
}

std::set<std::string> kernel_names(const json& run) {
  std::set<std::string> names;
  for (const auto& k : run.value("kernels", json::array()))
    if (k.is_object() && k.contains("name") && k["name"].is_string())
      names.insert(k["name"].get<std::string>());
  return names;
}

bool is_run(const json& value) {
  return value.is_object() && value.value("kind", json()) == "run" && value.contains("kernels") &&
         value["kernels"].is_array();
}

// `into` with `shard` added: its kernels and builds, cache counts, and time span.
void absorb(json& into, const json& shard) {
  for (const auto& k : shard["kernels"]) into["kernels"].push_back(k);
  std::sort(into["kernels"].begin(), into["kernels"].end(), [](const json& a, const json& b) {
    return a.value("name", std::string()) < b.value("name", std::string());
  });
  json& builds = into["builds"];
  const json& theirs = shard.value("builds", json::object());
  if (builds.is_object() && theirs.is_object()) {
    if (builds.contains("kernels") && builds["kernels"].is_array() && theirs.contains("kernels"))
      for (const auto& k : theirs["kernels"]) builds["kernels"].push_back(k);
    if (builds.contains("cache") && builds["cache"].is_object() && theirs.contains("cache"))
      for (auto& [name, count] : builds["cache"].items())
        if (count.is_number_integer() && theirs["cache"].contains(name) &&
            theirs["cache"][name].is_number_integer())
          count = count.get<std::int64_t>() + theirs["cache"][name].get<std::int64_t>();
  }
  json& mine = into["provenance"];
  const json& other = shard.value("provenance", json::object());
  if (mine.is_object() && other.is_object()) {
    // ISO 8601 UTC stamps of one format order as text.
    auto widen = [&](const char* field, bool earliest) {
      if (!mine.contains(field) || !other.contains(field) || !mine[field].is_string() ||
          !other[field].is_string())
        return;
      const auto a = mine[field].get<std::string>(), b = other[field].get<std::string>();
      if (earliest ? b < a : b > a) mine[field] = b;
    };
    widen("started_at", true);
    widen("finished_at", false);
  }
}

}  // namespace

std::vector<SavedResult> merge_sweep_shards(std::vector<SavedResult> results) {
  std::vector<SavedResult> out;
  std::vector<std::set<std::string>> names;  // of each run in `out`; empty for other kinds
  for (auto& r : results) {
    if (is_run(r.value)) {
      const json key = shard_key(r.value);
      const auto mine = kernel_names(r.value);
      bool merged = false;
      for (std::size_t i = 0; i < out.size() && !merged; ++i) {
        if (!is_run(out[i].value) || shard_key(out[i].value) != key) continue;
        const bool disjoint = std::none_of(
            mine.begin(), mine.end(), [&](const std::string& n) { return names[i].count(n) > 0; });
        if (!disjoint) continue;
        absorb(out[i].value, r.value);
        out[i].origin += " + " + r.origin;
        names[i].insert(mine.begin(), mine.end());
        merged = true;
      }
      if (merged) continue;
      names.push_back(mine);
    } else {
      names.emplace_back();
    }
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace kblaster
