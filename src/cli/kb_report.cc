#include "cli/kb_report.h"

#include <nlohmann/json.hpp>

#include "stats/speedup_text.h"

namespace kblaster {

Result<ExitCode> show_kb(const Store& store, const Catalogue& catalogue, const ShowQuery& query,
                         const std::filesystem::path& path, bool json, Provenance provenance,
                         Session& session) {
  auto shown = kb_show(store, catalogue, query, path, std::move(provenance));
  if (!shown) return shown.error();
  if (json) {
    session.out << shown->dump(2) << "\n";
    return ExitCode::ok;
  }
  for (const auto& state : (*shown)["states"]) {
    session.out << state["state"].get<std::string>() << "  "
                << state["description"].get<std::string>() << "\n";
    for (const auto& p : state["best"])
      session.out << "  " << p["technique"].get<std::string>() << "  "
                  << percent_gain(p["expected_log_speedup"].get<double>()) << " ± "
                  << percent_gain(p["uncertainty"].get<double>()).substr(1) << "  from "
                  << p["source"].get<std::string>() << " (" << p["evidence"] << " measured of "
                  << p["attempts"] << " attempts, " << p["attempts_here"] << " in this state on "
                  << query.arch << ")\n";
    for (const auto& l : state["lessons"])
      session.out << "    lesson (" << l["technique"].get<std::string>()
                  << "): " << l["text"].get<std::string>() << "\n";
  }
  return ExitCode::ok;
}

Result<ExitCode> stats_kb(const Store& store, const std::filesystem::path& path, bool json,
                          Provenance provenance, Session& session) {
  auto j = kb_stats(store, path, std::move(provenance));
  if (!j) return j.error();
  if (json) {
    session.out << j->dump(2) << "\n";
    return ExitCode::ok;
  }
  session.out << "KB " << path.string() << " (schema v" << (*j)["kb_schema_version"]
              << "): " << (*j)["techniques"] << " techniques, " << (*j)["states"] << " states, "
              << (*j)["trajectories"] << " trajectories (" << (*j)["steps"] << " steps, "
              << (*j)["measured_steps"] << " measured), " << (*j)["lessons"] << " lessons, "
              << (*j)["best_kernels"] << " best kernels\n";
  if (!(*j)["most_evidence"].empty())
    session.out << "most evidence (state, technique, arch: measured of attempts, mean speedup):\n";
  for (const auto& r : (*j)["most_evidence"])
    session.out << "  " << r["state"].get<std::string>() << "  "
                << r["technique"].get<std::string>() << "  " << r["arch"].get<std::string>() << ": "
                << r["measured"] << " of " << r["attempts"] << ", "
                << percent_gain(r["mean_log_speedup"].get<double>()) << " (" << r["faster"]
                << " faster, " << r["slower"] << " slower)\n";
  if (!(*j)["recent_lessons"].empty()) session.out << "recent lessons:\n";
  for (const auto& l : (*j)["recent_lessons"])
    session.out << "  " << l["state"].get<std::string>() << " / "
                << l["technique"].get<std::string>() << ": " << l["text"].get<std::string>()
                << "\n";
  return ExitCode::ok;
}

}  // namespace kblaster
