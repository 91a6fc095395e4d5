#include "kb/dump.h"

#include <array>
#include <functional>
#include <map>

namespace kblaster {

namespace {

constexpr std::array<const char*, 8> kTables = {"techniques",   "states",           "stats",
                                                "trajectories", "trajectory_steps", "lessons",
                                                "best_kernels", "kernel_costs"};

// Runs `sql` and calls `row` for each result row.
Status for_each_row(const Database& db, const char* sql,
                    const std::function<Status(const Statement&)>& row) {
  Result<Statement> st = db.prepare(sql);
  if (!st) return st.error();
  for (;;) {
    Result<bool> more = st->step();
    if (!more) return more.error();
    if (!*more) return Ok{};
    KB_TRY(row(*st));
  }
}

// Prepares `sql`, binds `values` and runs it; a failure names `table` and `row`.
Status insert(const Database& db, const char* sql, const char* table, const std::string& row,
              std::initializer_list<SqlValue> values) {
  Result<Statement> st = db.prepare(sql);
  if (!st) return st.error();
  KB_TRY(st->bind(values));
  Status ran = st->run();
  if (!ran) {
    Error e = ran.error();
    e.message = std::string("table ") + table + ", row " + row + ": " + e.message;
    return e;
  }
  return Ok{};
}

}  // namespace

Result<KbContents> read_kb(const Database& db) {
  KbContents kb;
  KB_TRY(for_each_row(db, "SELECT id, category, description, applier FROM techniques ORDER BY id",
                      [&](const Statement& s) -> Status {
                        kb.techniques.push_back({s.text(0), s.text(1), s.text(2), s.text(3)});
                        return Ok{};
                      }));
  KB_TRY(for_each_row(db, "SELECT key, class, description FROM states ORDER BY key",
                      [&](const Statement& s) -> Status {
                        kb.states.push_back({s.text(0), s.text(1), s.text(2)});
                        return Ok{};
                      }));
  KB_TRY(for_each_row(
      db,
      "SELECT state, technique, arch, attempts, compile_failures, verify_failures, slower, "
      "faster, measured, sum_log_speedup, sum_sq_log_speedup, last_seen FROM stats "
      "ORDER BY state, technique, arch",
      [&](const Statement& s) -> Status {
        kb.stats.push_back(
            {s.text(0), s.text(1), s.text(2),
             TechniqueStats{s.int64(3), s.int64(4), s.int64(5), s.int64(6), s.int64(7), s.int64(8),
                            s.real(9), s.real(10), s.int64(11)}});
        return Ok{};
      }));
  std::map<std::string, size_t> index;  // trajectory id -> position in kb.trajectories
  KB_TRY(
      for_each_row(db, "SELECT id, task, arch, created_at FROM trajectories ORDER BY id",
                   [&](const Statement& s) -> Status {
                     index[s.text(0)] = kb.trajectories.size();
                     kb.trajectories.push_back({s.text(0), s.text(1), s.text(2), s.int64(3), {}});
                     return Ok{};
                   }));
  KB_TRY(for_each_row(
      db,
      "SELECT trajectory_id, step, state, action, outcome, reward, tokens FROM trajectory_steps "
      "ORDER BY trajectory_id, step",
      [&](const Statement& s) -> Status {
        const std::string id = s.text(0);
        auto it = index.find(id);
        if (it == index.end())
          return Error::io("trajectory_steps: step of unknown trajectory " + id);
        const std::string outcome = s.text(4);
        std::optional<StepOutcome> parsed = parse_outcome(outcome);
        if (!parsed)
          return Error::io("trajectory_steps: trajectory " + id + " step " +
                           std::to_string(s.int64(1)) + " has unknown outcome " + outcome);
        kb.trajectories[it->second].steps.push_back(
            {s.int64(1), s.text(2), s.text(3), *parsed, s.real(5), s.int64(6)});
        return Ok{};
      }));
  KB_TRY(
      for_each_row(db, "SELECT id, state, technique, text, created_at FROM lessons ORDER BY id",
                   [&](const Statement& s) -> Status {
                     kb.lessons.push_back({s.text(0), s.text(1), s.text(2), s.text(3), s.int64(4)});
                     return Ok{};
                   }));
  KB_TRY(for_each_row(db, "SELECT task, source, result, speedup FROM best_kernels ORDER BY task",
                      [&](const Statement& s) -> Status {
                        kb.best_kernels.push_back({s.text(0), s.text(1), s.text(2), s.real(3)});
                        return Ok{};
                      }));
  KB_TRY(for_each_row(
      db, "SELECT task, arch, seconds, recorded_at FROM kernel_costs ORDER BY task, arch",
      [&](const Statement& s) -> Status {
        kb.kernel_costs.push_back({s.text(0), s.text(1), s.real(2), s.int64(3)});
        return Ok{};
      }));
  return kb;
}

Result<bool> kb_is_empty(const Database& db) {
  for (const char* table : kTables) {
    Result<Statement> st = db.prepare(std::string("SELECT EXISTS (SELECT 1 FROM ") + table + ")");
    if (!st) return st.error();
    Result<bool> row = st->step();
    if (!row) return row.error();
    if (*row && st->int64(0) != 0) return false;
  }
  return true;
}

Status write_kb(const Database& db, const KbContents& kb) {
  for (const TechniqueRow& t : kb.techniques)
    KB_TRY(insert(db, "INSERT INTO techniques VALUES (?, ?, ?, ?)", "techniques", t.id,
                  {t.id, t.category, t.description, t.applier}));
  for (const StateRow& s : kb.states)
    KB_TRY(insert(db, "INSERT INTO states VALUES (?, ?, ?)", "states", s.key,
                  {s.key, s.bottleneck, s.description}));
  for (const StatsRow& r : kb.stats) {
    const TechniqueStats& s = r.stats;
    KB_TRY(insert(
        db, "INSERT INTO stats VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", "stats",
        r.state + "/" + r.technique + "/" + r.arch,
        {r.state, r.technique, r.arch, s.attempts, s.compile_failures, s.verify_failures, s.slower,
         s.faster, s.measured, s.sum_log_speedup, s.sum_sq_log_speedup, s.last_seen}));
  }
  for (const Trajectory& t : kb.trajectories) {
    KB_TRY(insert(db, "INSERT INTO trajectories VALUES (?, ?, ?, ?, ?)", "trajectories", t.id,
                  {t.id, t.task, t.arch, static_cast<std::int64_t>(t.steps.size()), t.created_at}));
    for (const TrajectoryStep& s : t.steps)
      KB_TRY(
          insert(db, "INSERT INTO trajectory_steps VALUES (?, ?, ?, ?, ?, ?, ?)",
                 "trajectory_steps", t.id + " step " + std::to_string(s.step),
                 {t.id, s.step, s.state, s.action, outcome_name(s.outcome), s.reward, s.tokens}));
  }
  for (const Lesson& l : kb.lessons)
    KB_TRY(insert(db, "INSERT INTO lessons VALUES (?, ?, ?, ?, ?)", "lessons", l.id,
                  {l.id, l.state, l.technique, l.text, l.created_at}));
  for (const BestKernel& k : kb.best_kernels)
    KB_TRY(insert(db, "INSERT INTO best_kernels VALUES (?, ?, ?, ?)", "best_kernels", k.task,
                  {k.task, k.source, k.result_json, k.speedup}));
  for (const KernelCost& c : kb.kernel_costs)
    KB_TRY(insert(db, "INSERT INTO kernel_costs VALUES (?, ?, ?, ?)", "kernel_costs",
                  c.task + "/" + c.arch, {c.task, c.arch, c.seconds, c.recorded_at}));
  return Ok{};
}

Status clear_kb(const Database& db) {
  // Steps first: they reference trajectories.
  for (const char* table : {"trajectory_steps", "trajectories", "stats", "lessons", "best_kernels",
                            "kernel_costs", "techniques", "states"})
    KB_TRY(db.exec((std::string("DELETE FROM ") + table).c_str()));
  return Ok{};
}

}  // namespace kblaster
