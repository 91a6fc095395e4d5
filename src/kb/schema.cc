#include "kb/schema.h"

#include <array>
#include <string>

namespace kblaster {

namespace {

// Version 1: the records of DESIGN.md's Knowledge Base. Statistics keep the sum and
// the sum of squares of log speedup (see TechniqueStats).
constexpr std::string_view kV1 = R"sql(
CREATE TABLE techniques (
  id TEXT PRIMARY KEY, category TEXT NOT NULL, description TEXT NOT NULL, applier TEXT NOT NULL);
CREATE TABLE states (
  key TEXT PRIMARY KEY, class TEXT NOT NULL, description TEXT NOT NULL);
CREATE TABLE stats (
  state TEXT NOT NULL, technique TEXT NOT NULL, arch TEXT NOT NULL,
  attempts INTEGER NOT NULL, compile_failures INTEGER NOT NULL, verify_failures INTEGER NOT NULL,
  slower INTEGER NOT NULL, faster INTEGER NOT NULL, measured INTEGER NOT NULL,
  sum_log_speedup REAL NOT NULL, sum_sq_log_speedup REAL NOT NULL, last_seen INTEGER NOT NULL,
  PRIMARY KEY (state, technique, arch)) WITHOUT ROWID;
CREATE TABLE trajectories (
  id TEXT PRIMARY KEY, task TEXT NOT NULL, arch TEXT NOT NULL,
  step_count INTEGER NOT NULL, created_at INTEGER NOT NULL);
CREATE TABLE trajectory_steps (
  trajectory_id TEXT NOT NULL REFERENCES trajectories(id) ON DELETE CASCADE,
  step INTEGER NOT NULL, state TEXT NOT NULL, action TEXT NOT NULL, outcome TEXT NOT NULL,
  reward REAL NOT NULL, tokens INTEGER NOT NULL,
  PRIMARY KEY (trajectory_id, step)) WITHOUT ROWID;
CREATE TABLE lessons (
  id TEXT PRIMARY KEY, state TEXT NOT NULL, technique TEXT NOT NULL, text TEXT NOT NULL,
  created_at INTEGER NOT NULL);
CREATE INDEX lessons_by_key ON lessons(state, technique, created_at);
CREATE TABLE best_kernels (
  task TEXT PRIMARY KEY, source TEXT NOT NULL, result TEXT NOT NULL, speedup REAL NOT NULL);
)sql";

// Version 2: statistics are rebuilt per (state, technique, arch) from the steps
// in a canonical order (store.cc), which needs the steps findable by key.
constexpr std::string_view kV2 = R"sql(
CREATE INDEX trajectory_steps_by_key ON trajectory_steps (state, action);
)sql";

// Version 3: what each kernel last cost a sweep, per arch, for balancing shards.
constexpr std::string_view kV3 = R"sql(
CREATE TABLE kernel_costs (
  task TEXT NOT NULL, arch TEXT NOT NULL, seconds REAL NOT NULL, recorded_at INTEGER NOT NULL,
  PRIMARY KEY (task, arch)) WITHOUT ROWID;
)sql";

constexpr std::array<Migration, 3> kMigrations = {{{1, kV1}, {2, kV2}, {3, kV3}}};

}  // namespace

std::span<const Migration> schema_migrations() { return kMigrations; }
int latest_schema_version() { return kMigrations.back().version; }

Result<int> schema_version(const Database& db) {
  Result<Statement> st = db.prepare("PRAGMA user_version");
  if (!st) return st.error();
  Result<bool> row = st->step();
  if (!row) return row.error();
  return *row ? static_cast<int>(st->int64(0)) : 0;
}

Status migrate(const Database& db, std::string_view name) {
  Result<int> current = schema_version(db);  // the common case: up to date, no write lock
  if (!current) return current.error();
  if (*current == latest_schema_version()) return Ok{};
  for (const Migration& m : schema_migrations()) {
    Result<Transaction> tx = Transaction::begin(db);
    if (!tx) return tx.error();
    Result<int> version = schema_version(db);  // read under the write lock
    if (!version) return version.error();
    if (*version > latest_schema_version())
      return Error::io(std::string(name) + ": KB schema version " + std::to_string(*version) +
                       " is newer than this kblaster knows (" +
                       std::to_string(latest_schema_version()) + "); upgrade kblaster");
    if (*version >= m.version) continue;  // tx rolls back: nothing was written
    KB_TRY(db.exec(std::string(m.sql).c_str()));
    KB_TRY(db.exec(("PRAGMA user_version = " + std::to_string(m.version)).c_str()));
    KB_TRY(tx->commit());
  }
  return Ok{};
}

}  // namespace kblaster
