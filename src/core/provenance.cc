#include "core/provenance.h"

#include <ctime>

namespace kblaster {
namespace {

nlohmann::json optional_text(const std::optional<std::string>& s) {
  return s ? nlohmann::json(*s) : nlohmann::json();
}

// The string field `key` of object `j`; `nullable` allows null, read as nullopt.
Result<std::optional<std::string>> text_field(const nlohmann::json& j, const char* key,
                                              bool nullable) {
  if (!j.contains(key)) return Error::usage(std::string("provenance: no \"") + key + "\"");
  const auto& v = j.at(key);
  if (v.is_null() && nullable) return std::optional<std::string>();
  if (!v.is_string())
    return Error::usage(std::string("provenance: \"") + key + "\" is not a string");
  return std::optional<std::string>(v.get<std::string>());
}

}  // namespace

nlohmann::json to_json(const Provenance& p) {
  nlohmann::json gpu;  // null without one
  if (p.gpu) {
    gpu = {{"name", p.gpu->name},
           {"uuid", p.gpu->uuid},
           {"driver_version", p.gpu->driver_version},
           {"arch", p.gpu->arch},
           {"clocks_locked", p.gpu->clocks_locked}};
    if (p.gpu->sm_clock_mhz) gpu["sm_clock_mhz"] = *p.gpu->sm_clock_mhz;
  }
  return {{"kblaster_version", p.kblaster_version},
          {"command_line", p.command_line},
          {"repository", p.repository},
          {"base_sha", optional_text(p.base_sha)},
          {"head_sha", optional_text(p.head_sha)},
          {"gpu", gpu},
          {"nvcc_version", p.nvcc_version},
          {"seeds", p.seeds},
          {"started_at", p.started_at},
          {"finished_at", p.finished_at}};
}

Result<Provenance> provenance_from_json(const nlohmann::json& j) {
  if (!j.is_object()) return Error::usage("provenance: not an object");
  Provenance p;
  for (const auto& [key, into] :
       {std::pair<const char*, std::string*>{"kblaster_version", &p.kblaster_version},
        {"repository", &p.repository},
        {"nvcc_version", &p.nvcc_version},
        {"started_at", &p.started_at},
        {"finished_at", &p.finished_at}}) {
    auto v = text_field(j, key, false);
    if (!v) return v.error();
    *into = **v;
  }
  for (const auto& [key, into] :
       {std::pair<const char*, std::optional<std::string>*>{"base_sha", &p.base_sha},
        {"head_sha", &p.head_sha}}) {
    auto v = text_field(j, key, true);
    if (!v) return v.error();
    *into = *v;
  }
  try {
    p.command_line = j.at("command_line").get<std::vector<std::string>>();
    p.seeds = j.at("seeds").get<std::vector<std::uint64_t>>();
    if (const auto& g = j.at("gpu"); !g.is_null())
      p.gpu = GpuIdentity{
          .name = g.at("name").get<std::string>(),
          .uuid = g.at("uuid").get<std::string>(),
          .driver_version = g.at("driver_version").get<std::string>(),
          .arch = g.at("arch").get<std::string>(),
          .clocks_locked = g.at("clocks_locked").get<std::string>(),
          .sm_clock_mhz = g.contains("sm_clock_mhz")
                              ? std::optional<double>(g.at("sm_clock_mhz").get<double>())
                              : std::nullopt};
  } catch (const nlohmann::json::exception& e) {
    return Error::usage(std::string("provenance: ") + e.what());
  }
  return p;
}

std::optional<std::string> not_comparable(const Provenance& a, const Provenance& b) {
  if (a.gpu.has_value() != b.gpu.has_value())
    return std::string("one result was measured on a GPU and the other was not");
  if (a.gpu && a.gpu->name != b.gpu->name)
    return "different GPU models: " + a.gpu->name + " and " + b.gpu->name;
  if (a.gpu && a.gpu->driver_version != b.gpu->driver_version)
    return "different drivers: " +
           (a.gpu->driver_version.empty() ? "unknown" : a.gpu->driver_version) + " and " +
           (b.gpu->driver_version.empty() ? "unknown" : b.gpu->driver_version);
  if (!a.nvcc_version.empty() && !b.nvcc_version.empty() && a.nvcc_version != b.nvcc_version)
    return "different nvcc: " + a.nvcc_version + " and " + b.nvcc_version;
  return std::nullopt;
}

std::string utc_timestamp(std::chrono::system_clock::time_point t) {
  const std::time_t seconds = std::chrono::system_clock::to_time_t(t);
  std::tm utc{};
  ::gmtime_r(&seconds, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

void stamp_finished(Provenance& p) {
  p.finished_at = utc_timestamp(std::chrono::system_clock::now());
}

}  // namespace kblaster
