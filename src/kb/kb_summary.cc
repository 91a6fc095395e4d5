#include "kb/kb_summary.h"

#include <utility>
#include <vector>

#include "core/result_envelope.h"
#include "core/suggest.h"
#include "kb/prediction.h"

namespace kblaster {
namespace {

// One number from a query that returns one row of one column.
Result<std::int64_t> count(const Store& store, const char* sql) {
  auto st = store.database().prepare(sql);
  if (!st) return st.error();
  auto row = st->step();
  if (!row) return row.error();
  return *row ? st->int64(0) : 0;
}

// Runs `sql`, whose one parameter is a row limit, and makes each row JSON with `to_json_row`.
template <class RowToJson>
Result<nlohmann::json> rows_of(const Store& store, const char* sql, int limit,
                               RowToJson to_json_row) {
  auto st = store.database().prepare(sql);
  if (!st) return st.error();
  KB_TRY(st->bind({std::int64_t{limit}}));
  nlohmann::json rows = nlohmann::json::array();
  for (;;) {
    auto row = st->step();
    if (!row) return row.error();
    if (!*row) return rows;
    rows.push_back(to_json_row(*st));
  }
}

// The (state, technique, arch) rows with the most measured steps: what the KB knows best.
Result<nlohmann::json> most_evidence(const Store& store, int limit = 10) {
  return rows_of(
      store,
      "SELECT state, technique, arch, attempts, measured, faster, slower, sum_log_speedup "
      "FROM stats ORDER BY measured DESC, state, technique, arch LIMIT ?",
      limit, [](const Statement& st) {
        const std::int64_t measured = st.int64(4);
        return nlohmann::json{{"state", st.text(0)},
                              {"technique", st.text(1)},
                              {"arch", st.text(2)},
                              {"attempts", st.int64(3)},
                              {"measured", measured},
                              {"faster", st.int64(5)},
                              {"slower", st.int64(6)},
                              {"mean_log_speedup", measured > 0 ? st.real(7) / measured : 0.0}};
      });
}

// The newest lessons, newest first.
Result<nlohmann::json> recent_lessons(const Store& store, int limit = 5) {
  return rows_of(store,
                 "SELECT state, technique, text, created_at FROM lessons "
                 "ORDER BY created_at DESC, id LIMIT ?",
                 limit, [](const Statement& st) {
                   return nlohmann::json{{"state", st.text(0)},
                                         {"technique", st.text(1)},
                                         {"text", st.text(2)},
                                         {"created_at", st.int64(3)}};
                 });
}

Result<nlohmann::json> counts(const Store& store, const std::filesystem::path& path) {
  nlohmann::json j = {{"kb", path.string()}};
  for (const auto& [key, sql] : std::vector<std::pair<const char*, const char*>>{
           {"techniques", "SELECT count(*) FROM techniques"},
           {"states", "SELECT count(*) FROM states"},
           {"trajectories", "SELECT count(*) FROM trajectories"},
           {"steps", "SELECT count(*) FROM trajectory_steps"},
           {"measured_steps", "SELECT coalesce(sum(measured), 0) FROM stats"},
           {"lessons", "SELECT count(*) FROM lessons"},
           {"best_kernels", "SELECT count(*) FROM best_kernels"},
           {"kernel_costs", "SELECT count(*) FROM kernel_costs"},
           {"kb_schema_version", "PRAGMA user_version"}}) {
    auto n = count(store, sql);
    if (!n) return n.error();
    j[key] = *n;
  }
  return j;
}

}  // namespace

Result<nlohmann::json> kb_show(const Store& store, const Catalogue& catalogue,
                               const ShowQuery& query, const std::filesystem::path& path,
                               Provenance provenance) {
  nlohmann::json states = nlohmann::json::array();
  for (const auto& info : catalogue.states) {
    if (!query.state.empty() && info.key != query.state) continue;
    auto predictions = predict(store, catalogue, info.key, query.arch);
    if (!predictions) return predictions.error();
    nlohmann::json best = nlohmann::json::array();
    for (int i = 0; i < query.top && i < static_cast<int>(predictions->size()); ++i) {
      const Prediction& p = (*predictions)[static_cast<std::size_t>(i)];
      best.push_back({{"technique", p.technique},
                      {"expected_log_speedup", p.expected_log_speedup},
                      {"uncertainty", p.uncertainty},
                      {"source", prediction_source_name(p.source)},
                      {"evidence", p.evidence},
                      {"attempts", p.attempts},
                      {"attempts_here", p.attempts_here}});
    }
    nlohmann::json recent = nlohmann::json::array();
    for (const auto& b : best) {
      auto lessons = store.lessons(info.key, b["technique"].get<std::string>());
      if (!lessons) return lessons.error();
      for (const auto& l : *lessons)
        recent.push_back(
            {{"technique", l.technique}, {"text", l.text}, {"created_at", l.created_at}});
    }
    states.push_back({{"state", info.key},
                      {"description", info.description},
                      {"best", best},
                      {"lessons", recent}});
  }
  if (!query.state.empty() && states.empty()) {
    std::vector<std::string> keys;
    for (const auto& info : catalogue.states) keys.push_back(info.key);
    std::string known;
    for (const auto& key : keys) known += (known.empty() ? "" : ", ") + key;
    return Error::usage("--state " + query.state + ": not a state of the catalogue" +
                        did_you_mean(query.state, keys) + " (the states: " + known + ")");
  }
  stamp_finished(provenance);
  nlohmann::json j = result_envelope("kb_show", kKbShowSchemaVersion, provenance);
  j["kb"] = path.string();
  j["arch"] = query.arch;
  j["top"] = query.top;
  if (!query.state.empty()) j["state"] = query.state;
  j["states"] = std::move(states);
  return j;
}

Result<nlohmann::json> kb_stats(const Store& store, const std::filesystem::path& path,
                                Provenance provenance) {
  auto counted = counts(store, path);
  if (!counted) return counted.error();
  auto evidence = most_evidence(store);
  if (!evidence) return evidence.error();
  auto recent = recent_lessons(store);
  if (!recent) return recent.error();
  stamp_finished(provenance);
  nlohmann::json j = result_envelope("kb_stats", kKbStatsSchemaVersion, provenance);
  j.update(*counted);
  j["most_evidence"] = *evidence;
  j["recent_lessons"] = *recent;
  return j;
}

}  // namespace kblaster
