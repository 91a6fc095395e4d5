#include "eval/profile_report.h"

#include <algorithm>
#include <cstdio>

#include "core/include_scan.h"
#include "core/include_search.h"
#include "core/source_tree.h"
#include "profile/ncu_csv.h"

namespace kblaster {
namespace {

std::string fmt(const std::optional<double>& v, const char* format, double scale = 1.0) {
  if (!v) return "n/a";
  char buf[48];
  std::snprintf(buf, sizeof buf, format, *v * scale);
  return buf;
}

nlohmann::json opt(const std::optional<double>& v) {
  return v ? nlohmann::json(*v) : nlohmann::json();
}

// The largest stall shares, "long_scoreboard 62%, barrier 20%".
std::string top_stalls(const KernelProfile& p, std::size_t n) {
  std::vector<std::pair<std::string, double>> s(p.stall_share.begin(), p.stall_share.end());
  std::sort(s.begin(), s.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  std::string out;
  for (std::size_t i = 0; i < std::min(n, s.size()); ++i)
    out += (out.empty() ? "" : ", ") + s[i].first + " " + fmt(s[i].second, "%.0f%%", 100.0);
  return out.empty() ? "n/a" : out;
}

nlohmann::json profile_json(const KernelProfile& p) {
  return {{"name", p.name},
          {"launches", p.launches},
          {"duration_s", opt(p.duration_s)},
          {"sm_throughput_pct", opt(p.sm_throughput_pct)},
          {"memory_throughput_pct", opt(p.memory_throughput_pct)},
          {"dram_throughput_pct", opt(p.dram_throughput_pct)},
          {"l2_throughput_pct", opt(p.l2_throughput_pct)},
          {"l1_throughput_pct", opt(p.l1_throughput_pct)},
          {"dram_bytes_read", opt(p.dram_bytes_read)},
          {"dram_bytes_written", opt(p.dram_bytes_written)},
          {"achieved_occupancy_pct", opt(p.achieved_occupancy_pct)},
          {"registers_per_thread", opt(p.registers_per_thread)},
          {"block_size", opt(p.block_size)},
          {"grid_size", opt(p.grid_size)},
          {"global_load_sectors_per_request", opt(p.global_load_sectors_per_request)},
          {"stall_share", p.stall_share}};
}

}  // namespace

CodeSignature signature_of(const KernelSpec& spec, const std::filesystem::path& root) {
  DirectoryTree tree(root);
  SourceReader read = [&tree](const std::string& p) { return tree.read(p); };
  std::string text = read(spec.source).value_or("");
  const SourceLister list = [&tree] { return tree.list_files(); };
  for (const auto& path : scan_includes(spec.source, include_search_dirs(spec), read, list))
    text.append("\n").append(read(path).value_or(""));
  return read_signature(text);
}

Result<ProfileReport> read_profile(std::string_view csv, const std::string& origin,
                                   const std::optional<CodeSignature>& signature,
                                   const std::optional<RooflineInputs>& roofline) {
  auto records = parse_ncu_csv(csv, origin);
  if (!records) return records.error();
  if (records->empty()) return Error::config(origin, "ncu's CSV holds no profiled kernel");
  ProfileReport r;
  r.csv_origin = origin;
  for (const auto& k : *records) {
    auto p = profile_from_ncu(k, origin);
    if (!p) return p.error();
    r.kernels.push_back(std::move(*p));
  }
  r.total = r.kernels.size() == 1 ? r.kernels.front() : sum_profiles(r.kernels);
  if (signature) r.signature = *signature, r.has_source = true;
  if (roofline && r.total.duration_s)
    r.roofline = roofline_position(roofline->min_bytes, roofline->flops, *r.total.duration_s,
                                   roofline->ceilings);
  r.state = classify({r.kernels, r.total, r.signature, r.roofline});
  r.state.profile = r.total;
  if (r.has_source) r.state.features = r.signature.features();
  return r;
}

void print_profile(std::ostream& out, const ProfileReport& r) {
  const KernelProfile& t = r.total;
  out << "  " << r.kernels.size() << " kernel(s), " << fmt(t.duration_s, "%.2f us", 1e6)
      << " (ncu, clocks not locked)\n";
  if (r.kernels.size() > 1)
    for (const auto& k : r.kernels)
      out << "    " << k.name << "  " << fmt(k.duration_s, "%.2f us", 1e6) << "\n";
  else
    out << "  kernel " << t.name << ": grid " << fmt(t.grid_size, "%.0f") << " x block "
        << fmt(t.block_size, "%.0f") << ", " << fmt(t.registers_per_thread, "%.0f")
        << " registers/thread\n";
  out << "  speed of light: SM " << fmt(t.sm_throughput_pct, "%.1f%%") << ", memory "
      << fmt(t.memory_throughput_pct, "%.1f%%") << " (DRAM " << fmt(t.dram_throughput_pct, "%.1f%%")
      << ", L2 " << fmt(t.l2_throughput_pct, "%.1f%%") << ", L1 "
      << fmt(t.l1_throughput_pct, "%.1f%%") << ")\n";
  out << "  DRAM traffic: " << fmt(t.dram_bytes_read, "%.1f MB", 1e-6) << " read, "
      << fmt(t.dram_bytes_written, "%.1f MB", 1e-6) << " written; global load sectors/request "
      << fmt(t.global_load_sectors_per_request, "%.1f") << "\n";
  out << "  occupancy: achieved " << fmt(t.achieved_occupancy_pct, "%.1f%%") << " of theoretical "
      << fmt(t.theoretical_occupancy_pct, "%.1f%%") << "; waves/SM " << fmt(t.waves_per_sm, "%.2f")
      << "\n";
  out << "  pipes: FMA " << fmt(t.fma_pipe_pct, "%.1f%%") << ", ALU "
      << fmt(t.alu_pipe_pct, "%.1f%%") << ", XU " << fmt(t.xu_pipe_pct, "%.1f%%") << ", tensor "
      << fmt(t.tensor_pipe_pct, "%.1f%%") << ", FP64 " << fmt(t.fp64_pipe_pct, "%.1f%%")
      << "; issue active " << fmt(t.issue_active_pct, "%.1f%%") << "\n";
  out << "  stalls: " << top_stalls(t, 3) << "\n";
  if (r.roofline) {
    const auto& f = *r.roofline;
    char buf[160];
    std::snprintf(buf, sizeof buf,
                  "  roofline: floor %.2f us (%s; %.2f FLOP/byte), reached %.1f%% of the limit\n",
                  f.floor_s * 1e6, f.limit.c_str(), f.arithmetic_intensity,
                  f.share_of_limit * 100.0);
    out << buf;
  }
  if (r.has_source) {
    std::string features;
    for (const auto& f : r.state.features) features += (features.empty() ? "" : ", ") + f;
    out << "  code: " << (features.empty() ? "none of the tracked features" : features) << "\n";
  }
  out << "  state: " << r.state.key << "\n    " << r.state.explanation << "\n";
}

nlohmann::json to_json(const ProfileReport& r) {
  nlohmann::json kernels = nlohmann::json::array();
  for (const auto& k : r.kernels) kernels.push_back(profile_json(k));
  nlohmann::json j = {{"csv", r.csv_origin},
                      {"kernels", kernels},
                      {"total", profile_json(r.total)},
                      {"state",
                       {{"key", r.state.key},
                        {"bottleneck", r.state.bottleneck},
                        {"explanation", r.state.explanation},
                        {"features", r.state.features}}}};
  if (r.roofline)
    j["roofline"] = {{"floor_s", r.roofline->floor_s},
                     {"limit", r.roofline->limit},
                     {"share_of_limit", r.roofline->share_of_limit},
                     {"arithmetic_intensity", r.roofline->arithmetic_intensity}};
  return j;
}

}  // namespace kblaster
