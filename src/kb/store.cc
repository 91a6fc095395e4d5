#include "kb/store.h"

#include <cstdio>
#include <system_error>

#include "kb/schema.h"

namespace kblaster {

namespace {

constexpr int kBusyTimeoutMs = 10'000;

// A stable id for a lesson from its content: 64-bit FNV-1a over the fields.
std::string lesson_content_id(const Lesson& l) {
  std::uint64_t h = 1469598103934665603ull;
  auto mix = [&h](std::string_view s) {
    for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
    h = (h ^ 0xffu) * 1099511628211ull;  // field separator
  };
  mix(l.state);
  mix(l.technique);
  mix(l.text);
  mix(std::to_string(l.created_at));
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(h));
  return hex;
}

// Runs a PRAGMA that answers one row and returns its first column.
Result<std::string> pragma_text(const Database& db, const char* sql) {
  Result<Statement> st = db.prepare(sql);
  if (!st) return st.error();
  Result<bool> row = st->step();
  if (!row) return row.error();
  return *row ? st->text(0) : std::string();
}

Status configure(const Database& db, const std::string& name) {
  KB_SQLITE_CALL(db.get(), sqlite3_busy_timeout(db.get(), kBusyTimeoutMs));
  Result<std::string> mode = pragma_text(db, "PRAGMA journal_mode=WAL");
  if (!mode) return mode.error();
  if (*mode != "wal")
    return Error::io(name + ": could not switch the KB to WAL (got " + *mode + ")");
  // FULL: a committed trajectory survives power loss too, not only a killed process.
  KB_TRY(db.exec("PRAGMA synchronous=FULL"));
  KB_TRY(db.exec("PRAGMA foreign_keys=ON"));
  return Ok{};
}

Status add_step_stats(const Database& db, const Trajectory& t, const TrajectoryStep& s) {
  Result<Statement> st = db.prepare(
      "INSERT INTO stats VALUES (?1, ?2, ?3, 1, ?4, ?5, ?6, ?7, ?8, ?9, ?9 * ?9, ?10) "
      "ON CONFLICT (state, technique, arch) DO UPDATE SET attempts = attempts + 1, "
      "compile_failures = compile_failures + excluded.compile_failures, "
      "verify_failures = verify_failures + excluded.verify_failures, "
      "slower = slower + excluded.slower, faster = faster + excluded.faster, "
      "measured = measured + excluded.measured, "
      "sum_log_speedup = sum_log_speedup + excluded.sum_log_speedup, "
      "sum_sq_log_speedup = sum_sq_log_speedup + excluded.sum_sq_log_speedup, "
      "last_seen = max(last_seen, excluded.last_seen)");
  if (!st) return st.error();
  const bool measured = is_measured(s.outcome);
  auto flag = [](bool b) { return std::int64_t{b ? 1 : 0}; };
  KB_TRY(st->bind({s.state, s.action, t.arch, flag(s.outcome == StepOutcome::compile_failure),
                   flag(s.outcome == StepOutcome::verify_failure),
                   flag(s.outcome == StepOutcome::slower), flag(s.outcome == StepOutcome::faster),
                   flag(measured), measured ? s.reward : 0.0, t.created_at}));
  return st->run();
}

}  // namespace

Result<Store> Store::open(const std::filesystem::path& path) {
  const std::string name = path.string();
  std::error_code ec;
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path(), ec);
  if (ec)
    return Error::io(name + ": cannot create the KB's directory " + path.parent_path().string() +
                     ": " + ec.message());
  Result<Database> db = Database::open(path);
  if (!db) return db.error();
  Status configured = configure(*db, name);
  if (!configured) return configured.error();
  Status migrated = migrate(*db, name);
  if (!migrated) return migrated.error();
  return Store(path, std::move(*db));
}

Result<Recorded> Store::record_trajectory(const Trajectory& t) {
  if (t.id.empty()) return Error::internal("record_trajectory: a trajectory needs an id");
  for (size_t i = 0; i < t.steps.size(); ++i)
    if (t.steps[i].step != static_cast<std::int64_t>(i))
      return Error::internal("record_trajectory: steps of " + t.id + " are not numbered 0..n-1");
  Result<Transaction> tx = Transaction::begin(db_);
  if (!tx) return tx.error();
  Result<Statement> head = db_.prepare("INSERT OR IGNORE INTO trajectories VALUES (?, ?, ?, ?, ?)");
  if (!head) return head.error();
  KB_TRY(
      head->bind({t.id, t.task, t.arch, static_cast<std::int64_t>(t.steps.size()), t.created_at}));
  KB_TRY(head->run());
  if (db_.changes() == 0) return Recorded::already_present;  // tx rolls back
  for (const TrajectoryStep& s : t.steps) {
    Result<Statement> step =
        db_.prepare("INSERT INTO trajectory_steps VALUES (?, ?, ?, ?, ?, ?, ?)");
    if (!step) return step.error();
    KB_TRY(
        step->bind({t.id, s.step, s.state, s.action, outcome_name(s.outcome), s.reward, s.tokens}));
    KB_TRY(step->run());
    KB_TRY(add_step_stats(db_, t, s));
  }
  KB_TRY(tx->commit());
  return Recorded::added;
}

Result<TechniqueStats> Store::stats(std::string_view state, std::string_view technique,
                                    std::string_view arch) const {
  Result<Statement> st = db_.prepare(
      "SELECT attempts, compile_failures, verify_failures, slower, faster, measured, "
      "sum_log_speedup, sum_sq_log_speedup, last_seen FROM stats "
      "WHERE state = ? AND technique = ? AND arch = ?");
  if (!st) return st.error();
  KB_TRY(st->bind({state, technique, arch}));
  Result<bool> row = st->step();
  if (!row) return row.error();
  TechniqueStats s;
  if (!*row) return s;
  s.attempts = st->int64(0);
  s.compile_failures = st->int64(1);
  s.verify_failures = st->int64(2);
  s.slower = st->int64(3);
  s.faster = st->int64(4);
  s.measured = st->int64(5);
  s.sum_log_speedup = st->real(6);
  s.sum_sq_log_speedup = st->real(7);
  s.last_seen = st->int64(8);
  return s;
}

Result<std::int64_t> Store::trajectory_count() const {
  Result<Statement> st = db_.prepare("SELECT count(*) FROM trajectories");
  if (!st) return st.error();
  Result<bool> row = st->step();
  if (!row) return row.error();
  return st->int64(0);
}

Result<std::optional<BestKernel>> Store::best_kernel(std::string_view task) const {
  Result<Statement> st =
      db_.prepare("SELECT task, source, result, speedup FROM best_kernels WHERE task = ?");
  if (!st) return st.error();
  KB_TRY(st->bind({task}));
  Result<bool> row = st->step();
  if (!row) return row.error();
  if (!*row) return std::optional<BestKernel>();
  return std::optional<BestKernel>(BestKernel{st->text(0), st->text(1), st->text(2), st->real(3)});
}

Result<Offered> Store::offer_best_kernel(const BestKernel& k) {
  Result<Statement> st = db_.prepare(
      "INSERT INTO best_kernels VALUES (?, ?, ?, ?) ON CONFLICT (task) DO UPDATE SET "
      "source = excluded.source, result = excluded.result, speedup = excluded.speedup "
      "WHERE excluded.speedup > speedup OR (excluded.speedup = speedup AND "
      "excluded.source < source)");
  if (!st) return st.error();
  KB_TRY(st->bind({k.task, k.source, k.result_json, k.speedup}));
  KB_TRY(st->run());
  return db_.changes() > 0 ? Offered::kept_offer : Offered::kept_existing;
}

Status Store::add_lesson(const Lesson& lesson) {
  Result<Statement> st = db_.prepare("INSERT OR IGNORE INTO lessons VALUES (?, ?, ?, ?, ?)");
  if (!st) return st.error();
  const std::string id = lesson.id.empty() ? lesson_content_id(lesson) : lesson.id;
  KB_TRY(st->bind({id, lesson.state, lesson.technique, lesson.text, lesson.created_at}));
  return st->run();
}

Result<std::vector<Lesson>> Store::lessons(std::string_view state,
                                           std::string_view technique) const {
  Result<Statement> st = db_.prepare(
      "SELECT id, state, technique, text, created_at FROM lessons "
      "WHERE state = ? AND technique = ? ORDER BY created_at, id");
  if (!st) return st.error();
  KB_TRY(st->bind({state, technique}));
  std::vector<Lesson> out;
  for (;;) {
    Result<bool> row = st->step();
    if (!row) return row.error();
    if (!*row) return out;
    out.push_back({st->text(0), st->text(1), st->text(2), st->text(3), st->int64(4)});
  }
}

Result<std::string> Store::integrity_check() const {
  Result<Statement> st = db_.prepare("PRAGMA integrity_check");
  if (!st) return st.error();
  std::string answer;
  for (;;) {
    Result<bool> row = st->step();
    if (!row) return row.error();
    if (!*row) return answer;
    if (!answer.empty()) answer += "\n";
    answer += st->text(0);
  }
}

}  // namespace kblaster
