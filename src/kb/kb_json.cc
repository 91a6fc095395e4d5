#include "kb/kb_json.h"

#include <cmath>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <tuple>
#include <type_traits>

#include "kb/schema.h"

namespace kblaster {

namespace {

using nlohmann::json;  // std::map objects: keys come out sorted

// A finite double, or an Error naming where it was found.
Result<json> finite(double v, const std::string& table, const std::string& row, const char* field) {
  if (!std::isfinite(v))
    return Error::io("KB export: table " + table + ", row " + row + ", field " + field +
                     ": not a finite number");
  return json(v);
}

json stats_json(const StatsRow& r) {
  const TechniqueStats& s = r.stats;
  return {{"state", r.state},
          {"technique", r.technique},
          {"arch", r.arch},
          {"attempts", s.attempts},
          {"compile_failures", s.compile_failures},
          {"verify_failures", s.verify_failures},
          {"slower", s.slower},
          {"faster", s.faster},
          {"measured", s.measured},
          {"sum_log_speedup", s.sum_log_speedup},
          {"sum_sq_log_speedup", s.sum_sq_log_speedup},
          {"last_seen", s.last_seen}};
}

// Reads one JSON row and names the table, row and field of whatever is wrong with it.
class RowReader {
 public:
  RowReader(const json& row, std::string table, size_t index)
      : row_(row), table_(std::move(table)), where_(std::to_string(index)) {
    where_.insert(where_.begin(), '#');  // not "#" + ...: GCC 12 warns falsely (-Wrestrict)
  }

  // Names the row by its key once known, e.g. "#3 (softmax)".
  void name(const std::string& key) { where_ += " (" + key + ")"; }
  // Checks the row is an object holding exactly `fields`.
  Status shape(std::initializer_list<const char*> fields) const {
    if (!row_.is_object()) return fail("", "expected an object");
    std::set<std::string> known(fields.begin(), fields.end());
    for (const char* f : fields)
      if (!row_.contains(f)) return fail(f, "missing");
    for (const auto& [key, value] : row_.items())
      if (!known.count(key)) return fail(key, "unknown field");
    return Ok{};
  }
  Result<std::string> text(const char* field) const {
    const json& v = row_.at(field);
    if (!v.is_string()) return fail(field, "expected a string");
    return v.get<std::string>();
  }
  Result<std::int64_t> integer(const char* field) const {
    const json& v = row_.at(field);
    if (v.is_number_unsigned() &&
        v.get<std::uint64_t>() >
            static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
      return fail(field, "integer out of range");
    if (!v.is_number_integer()) return fail(field, "expected an integer");
    return v.get<std::int64_t>();
  }
  Result<double> real(const char* field) const {
    const json& v = row_.at(field);
    if (!v.is_number()) return fail(field, "expected a number");
    return v.get<double>();
  }
  Error fail(const std::string& field, const std::string& what) const {
    return Error::config("KB JSON", "table " + table_ + ", row " + where_ +
                                        (field.empty() ? "" : ", field " + field) + ": " + what);
  }

 private:
  const json& row_;
  std::string table_;
  std::string where_;
};

// Assigns the value of `expr` (a Result) to `lhs`, or returns its error.
#define KB_JSON_READ(lhs, expr) \
  do {                          \
    auto r_ = (expr);           \
    if (!r_) return r_.error(); \
    lhs = std::move(*r_);       \
  } while (0)

Status read_trajectory(RowReader& r, const json& row, Trajectory& t) {
  KB_TRY(r.shape({"id", "task", "arch", "created_at", "steps"}));
  KB_JSON_READ(t.id, r.text("id"));
  r.name(t.id);
  KB_JSON_READ(t.task, r.text("task"));
  KB_JSON_READ(t.arch, r.text("arch"));
  KB_JSON_READ(t.created_at, r.integer("created_at"));
  const json& steps = row.at("steps");
  if (!steps.is_array()) return r.fail("steps", "expected an array");
  for (size_t i = 0; i < steps.size(); ++i) {
    RowReader sr(steps[i], "trajectories, trajectory " + t.id + ", steps", i);
    TrajectoryStep s;
    KB_TRY(sr.shape({"step", "state", "action", "outcome", "reward", "tokens"}));
    KB_JSON_READ(s.step, sr.integer("step"));
    if (s.step != static_cast<std::int64_t>(i)) return sr.fail("step", "steps must be 0..n-1");
    KB_JSON_READ(s.state, sr.text("state"));
    KB_JSON_READ(s.action, sr.text("action"));
    std::string outcome;
    KB_JSON_READ(outcome, sr.text("outcome"));
    std::optional<StepOutcome> parsed = parse_outcome(outcome);
    if (!parsed) return sr.fail("outcome", "unknown outcome \"" + outcome + "\"");
    s.outcome = *parsed;
    KB_JSON_READ(s.reward, sr.real("reward"));
    KB_JSON_READ(s.tokens, sr.integer("tokens"));
    t.steps.push_back(std::move(s));
  }
  return Ok{};
}

Status read_row(RowReader& r, const json&, TechniqueRow& t) {
  KB_TRY(r.shape({"id", "category", "description", "applier"}));
  KB_JSON_READ(t.id, r.text("id"));
  r.name(t.id);
  KB_JSON_READ(t.category, r.text("category"));
  KB_JSON_READ(t.description, r.text("description"));
  KB_JSON_READ(t.applier, r.text("applier"));
  return Ok{};
}

Status read_row(RowReader& r, const json&, StateRow& s) {
  KB_TRY(r.shape({"key", "class", "description"}));
  KB_JSON_READ(s.key, r.text("key"));
  r.name(s.key);
  KB_JSON_READ(s.bottleneck, r.text("class"));
  KB_JSON_READ(s.description, r.text("description"));
  return Ok{};
}

Status read_row(RowReader& r, const json&, StatsRow& row) {
  KB_TRY(r.shape({"state", "technique", "arch", "attempts", "compile_failures", "verify_failures",
                  "slower", "faster", "measured", "sum_log_speedup", "sum_sq_log_speedup",
                  "last_seen"}));
  KB_JSON_READ(row.state, r.text("state"));
  KB_JSON_READ(row.technique, r.text("technique"));
  KB_JSON_READ(row.arch, r.text("arch"));
  r.name(row.state + "/" + row.technique + "/" + row.arch);
  TechniqueStats& s = row.stats;
  KB_JSON_READ(s.attempts, r.integer("attempts"));
  KB_JSON_READ(s.compile_failures, r.integer("compile_failures"));
  KB_JSON_READ(s.verify_failures, r.integer("verify_failures"));
  KB_JSON_READ(s.slower, r.integer("slower"));
  KB_JSON_READ(s.faster, r.integer("faster"));
  KB_JSON_READ(s.measured, r.integer("measured"));
  KB_JSON_READ(s.sum_log_speedup, r.real("sum_log_speedup"));
  KB_JSON_READ(s.sum_sq_log_speedup, r.real("sum_sq_log_speedup"));
  KB_JSON_READ(s.last_seen, r.integer("last_seen"));
  return Ok{};
}

Status read_row(RowReader& r, const json& row, Trajectory& t) { return read_trajectory(r, row, t); }

Status read_row(RowReader& r, const json&, Lesson& l) {
  KB_TRY(r.shape({"id", "state", "technique", "text", "created_at"}));
  KB_JSON_READ(l.id, r.text("id"));
  r.name(l.id);
  KB_JSON_READ(l.state, r.text("state"));
  KB_JSON_READ(l.technique, r.text("technique"));
  KB_JSON_READ(l.text, r.text("text"));
  KB_JSON_READ(l.created_at, r.integer("created_at"));
  return Ok{};
}

Status read_row(RowReader& r, const json&, BestKernel& k) {
  KB_TRY(r.shape({"task", "source", "result", "speedup"}));
  KB_JSON_READ(k.task, r.text("task"));
  r.name(k.task);
  KB_JSON_READ(k.source, r.text("source"));
  KB_JSON_READ(k.result_json, r.text("result"));
  KB_JSON_READ(k.speedup, r.real("speedup"));
  return Ok{};
}

Status read_row(RowReader& r, const json&, KernelCost& c) {
  KB_TRY(r.shape({"task", "arch", "seconds", "recorded_at"}));
  KB_JSON_READ(c.task, r.text("task"));
  KB_JSON_READ(c.arch, r.text("arch"));
  r.name(c.task + "/" + c.arch);
  KB_JSON_READ(c.seconds, r.real("seconds"));
  KB_JSON_READ(c.recorded_at, r.integer("recorded_at"));
  return Ok{};
}

// Reads `table` into `out`. Each row's `key` (its primary key) must be new: a
// repeated one is a config error naming both rows, not a failed insert later.
template <class Row, class Key>
Status read_table(const json& doc, const char* table, std::vector<Row>& out, Key key) {
  const json& rows = doc.at(table);
  if (!rows.is_array())
    return Error::config("KB JSON", std::string("table ") + table + ": expected an array");
  std::map<std::invoke_result_t<Key, const Row&>, size_t> seen;  // key -> the row that has it
  for (size_t i = 0; i < rows.size(); ++i) {
    RowReader r(rows[i], table, i);  // named by its key once read
    Row row;
    KB_TRY(read_row(r, rows[i], row));
    if (auto [first, added] = seen.emplace(key(row), i); !added)
      return r.fail("", "the same key as row #" + std::to_string(first->second) +
                            "; each key may appear once in a table");
    out.push_back(std::move(row));
  }
  return Ok{};
}

}  // namespace

Result<std::string> kb_to_json(const KbContents& kb) {
  json doc = json::object();
  doc["kblaster_kb"] = kKbJsonFormat;
  doc["schema_version"] = latest_schema_version();
  json& techniques = doc["techniques"] = json::array();
  for (const TechniqueRow& t : kb.techniques)
    techniques.push_back({{"id", t.id},
                          {"category", t.category},
                          {"description", t.description},
                          {"applier", t.applier}});
  json& states = doc["states"] = json::array();
  for (const StateRow& s : kb.states)
    states.push_back({{"key", s.key}, {"class", s.bottleneck}, {"description", s.description}});
  json& stats = doc["stats"] = json::array();
  for (const StatsRow& r : kb.stats) {
    const std::string row = r.state + "/" + r.technique + "/" + r.arch;
    KB_TRY(finite(r.stats.sum_log_speedup, "stats", row, "sum_log_speedup"));
    KB_TRY(finite(r.stats.sum_sq_log_speedup, "stats", row, "sum_sq_log_speedup"));
    stats.push_back(stats_json(r));
  }
  json& trajectories = doc["trajectories"] = json::array();
  for (const Trajectory& t : kb.trajectories) {
    json steps = json::array();
    for (const TrajectoryStep& s : t.steps) {
      Result<json> reward = finite(s.reward, "trajectories", t.id, "reward");
      if (!reward) return reward.error();
      steps.push_back({{"step", s.step},
                       {"state", s.state},
                       {"action", s.action},
                       {"outcome", outcome_name(s.outcome)},
                       {"reward", *reward},
                       {"tokens", s.tokens}});
    }
    trajectories.push_back({{"id", t.id},
                            {"task", t.task},
                            {"arch", t.arch},
                            {"created_at", t.created_at},
                            {"steps", std::move(steps)}});
  }
  json& lessons = doc["lessons"] = json::array();
  for (const Lesson& l : kb.lessons)
    lessons.push_back({{"id", l.id},
                       {"state", l.state},
                       {"technique", l.technique},
                       {"text", l.text},
                       {"created_at", l.created_at}});
  json& best = doc["best_kernels"] = json::array();
  for (const BestKernel& k : kb.best_kernels) {
    Result<json> speedup = finite(k.speedup, "best_kernels", k.task, "speedup");
    if (!speedup) return speedup.error();
    best.push_back(
        {{"task", k.task}, {"source", k.source}, {"result", k.result_json}, {"speedup", *speedup}});
  }
  json& costs = doc["kernel_costs"] = json::array();
  for (const KernelCost& c : kb.kernel_costs) {
    Result<json> seconds = finite(c.seconds, "kernel_costs", c.task + "/" + c.arch, "seconds");
    if (!seconds) return seconds.error();
    costs.push_back({{"task", c.task},
                     {"arch", c.arch},
                     {"seconds", *seconds},
                     {"recorded_at", c.recorded_at}});
  }
  try {
    return doc.dump(2, ' ', false, json::error_handler_t::strict) + "\n";
  } catch (const json::exception& e) {  // text that is not valid UTF-8
    return Error::io(std::string("KB export: ") + e.what());
  }
}

Result<std::string> export_json(const Store& store) {
  Result<Transaction> tx = Transaction::begin(store.database());  // one consistent view
  if (!tx) return tx.error();
  Result<KbContents> kb = read_kb(store.database());
  if (!kb) return kb.error();
  return kb_to_json(*kb);
}

Result<KbContents> kb_from_json(std::string_view text) {
  json doc = json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) return Error::config("KB JSON", "not valid JSON");
  if (!doc.is_object()) return Error::config("KB JSON", "expected an object at the top");
  const std::set<std::string> tables = {"techniques", "states",       "stats",       "trajectories",
                                        "lessons",    "best_kernels", "kernel_costs"};
  for (const auto& [key, value] : doc.items())
    if (key != "kblaster_kb" && key != "schema_version" && !tables.count(key))
      return Error::config("KB JSON", "unknown top-level field " + key);
  for (const char* key : {"kblaster_kb", "schema_version"})
    if (!doc.contains(key) || !doc[key].is_number_integer())
      return Error::config("KB JSON", std::string("field ") + key + ": expected an integer");
  if (doc["kblaster_kb"].get<std::int64_t>() != kKbJsonFormat)
    return Error::config("KB JSON", "field kblaster_kb: format " + doc["kblaster_kb"].dump() +
                                        " is not " + std::to_string(kKbJsonFormat));
  if (doc["schema_version"].get<std::int64_t>() != latest_schema_version())
    return Error::config("KB JSON", "field schema_version: " + doc["schema_version"].dump() +
                                        " is not this kblaster's " +
                                        std::to_string(latest_schema_version()));
  for (const std::string& t : tables)
    if (!doc.contains(t)) return Error::config("KB JSON", "table " + t + ": missing");
  KbContents kb;
  KB_TRY(read_table(doc, "techniques", kb.techniques, [](const TechniqueRow& t) { return t.id; }));
  KB_TRY(read_table(doc, "states", kb.states, [](const StateRow& s) { return s.key; }));
  KB_TRY(read_table(doc, "stats", kb.stats, [](const StatsRow& r) {
    return std::make_tuple(r.state, r.technique, r.arch);
  }));
  KB_TRY(
      read_table(doc, "trajectories", kb.trajectories, [](const Trajectory& t) { return t.id; }));
  KB_TRY(read_table(doc, "lessons", kb.lessons, [](const Lesson& l) { return l.id; }));
  KB_TRY(
      read_table(doc, "best_kernels", kb.best_kernels, [](const BestKernel& k) { return k.task; }));
  KB_TRY(read_table(doc, "kernel_costs", kb.kernel_costs,
                    [](const KernelCost& c) { return std::make_pair(c.task, c.arch); }));
  return kb;
}

Status import_json(Store& store, std::string_view text) {
  Result<KbContents> kb = kb_from_json(text);
  if (!kb) return kb.error();
  const Database& db = store.database();
  Result<Transaction> tx = Transaction::begin(db);
  if (!tx) return tx.error();
  Result<bool> empty = kb_is_empty(db);
  if (!empty) return empty.error();
  if (!*empty)
    return Error::usage(store.path().string() + ": KB import needs an empty KB; use merge");
  KB_TRY(write_kb(db, *kb));
  return tx->commit();
}

}  // namespace kblaster
