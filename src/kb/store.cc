#include "kb/store.h"

#include <algorithm>
#include <set>
#include <system_error>

#include "core/stable_hash.h"
#include "kb/schema.h"

namespace kblaster {

namespace {

constexpr int kBusyTimeoutMs = 10'000;

// FNV-1a's offset basis a digit short. KB files key lessons by ids made with it,
// so it stays.
constexpr std::uint64_t kLessonIdOffsetBasis = 1469598103934665603ull;

// A stable id for a lesson from its content: 64-bit FNV-1a over the fields, each
// followed by a 0xff byte.
std::string lesson_content_id(const Lesson& l) {
  Fnv1a h(kLessonIdOffsetBasis);
  auto mix = [&h](std::string_view field) {
    h.add(field);
    h.add("\xff");  // field separator
  };
  mix(l.state);
  mix(l.technique);
  mix(l.text);
  mix(std::to_string(l.created_at));
  return h.hex();
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

// Rebuilds the statistics row of (state, technique, arch) from every recorded
// step with that key, folded in trajectory-id then step order: the same fold as
// merge.cc's derive_stats, so a KB's statistics do not depend on the order its
// trajectories arrived in, and merging is exactly idempotent.
Status rebuild_stats(const Database& db, const std::string& state, const std::string& technique,
                     const std::string& arch) {
  Result<Statement> steps = db.prepare(
      "SELECT s.outcome, s.reward, t.created_at FROM trajectory_steps s "
      "JOIN trajectories t ON t.id = s.trajectory_id "
      "WHERE s.state = ?1 AND s.action = ?2 AND t.arch = ?3 ORDER BY s.trajectory_id, s.step");
  if (!steps) return steps.error();
  KB_TRY(steps->bind({state, technique, arch}));
  TechniqueStats st;
  bool first = true;
  for (;;) {
    Result<bool> row = steps->step();
    if (!row) return row.error();
    if (!*row) break;
    const std::optional<StepOutcome> outcome = parse_outcome(steps->text(0));
    if (!outcome) return Error::io("KB step with an unknown outcome `" + steps->text(0) + "`");
    const bool measured = is_measured(*outcome);
    const double x = measured ? steps->real(1) : 0.0;
    st.attempts += 1;
    st.compile_failures += *outcome == StepOutcome::compile_failure;
    st.verify_failures += *outcome == StepOutcome::verify_failure;
    st.slower += *outcome == StepOutcome::slower;
    st.faster += *outcome == StepOutcome::faster;
    st.measured += measured;
    if (first) {
      st.sum_log_speedup = x;
      st.sum_sq_log_speedup = x * x;
      st.last_seen = steps->int64(2);
      first = false;
    } else {
      st.sum_log_speedup = st.sum_log_speedup + x;
      st.sum_sq_log_speedup = st.sum_sq_log_speedup + x * x;
      st.last_seen = std::max(st.last_seen, steps->int64(2));
    }
  }
  Result<Statement> upsert =
      db.prepare("INSERT OR REPLACE INTO stats VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
  if (!upsert) return upsert.error();
  KB_TRY(upsert->bind({state, technique, arch, st.attempts, st.compile_failures, st.verify_failures,
                       st.slower, st.faster, st.measured, st.sum_log_speedup, st.sum_sq_log_speedup,
                       st.last_seen}));
  return upsert->run();
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
  }
  std::set<std::pair<std::string, std::string>> keys;
  for (const TrajectoryStep& s : t.steps) keys.emplace(s.state, s.action);
  for (const auto& [state, technique] : keys) KB_TRY(rebuild_stats(db_, state, technique, t.arch));
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

Status Store::record_cost(const KernelCost& c) {
  Result<Statement> st = db_.prepare(
      "INSERT INTO kernel_costs VALUES (?, ?, ?, ?) ON CONFLICT (task, arch) DO UPDATE SET "
      "seconds = excluded.seconds, recorded_at = excluded.recorded_at "
      "WHERE excluded.recorded_at >= recorded_at");
  if (!st) return st.error();
  KB_TRY(st->bind({c.task, c.arch, c.seconds, c.recorded_at}));
  return st->run();
}

Result<std::map<std::string, double>> Store::costs(std::string_view arch) const {
  Result<Statement> st = db_.prepare(
      "SELECT task, seconds FROM kernel_costs WHERE ?1 = '' OR arch = ?1 "
      "ORDER BY task, recorded_at, seconds");
  if (!st) return st.error();
  KB_TRY(st->bind({arch}));
  std::map<std::string, double> out;
  for (;;) {
    Result<bool> row = st->step();
    if (!row) return row.error();
    if (!*row) return out;
    out[st->text(0)] = st->real(1);  // ordered by time: the newest of a task comes last
  }
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
