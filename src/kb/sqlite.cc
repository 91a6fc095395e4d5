#include "kb/sqlite.h"

#include <cerrno>
#include <cstdio>

namespace kblaster {

Error sqlite_call_error(const char* call, int code, sqlite3* db, const char* file, int line) {
  std::string message = std::string("sqlite: ") + call + " failed (" + sqlite3_errstr(code) + ")";
  if (db) {
    message += ": ";
    message += sqlite3_errmsg(db);
    const char* name = sqlite3_db_filename(db, "main");
    if (name && *name) message += std::string(" [") + name + "]";
  }
  message += " at " + std::string(file) + ":" + std::to_string(line);
  // The machine's conditions, not kblaster's bugs: exit 3 with what to do.
  // sqlite3_system_errno is the errno of the last failed system call, so it is
  // read only for an I/O error (a failed fsync of a full disk is SQLITE_IOERR_FSYNC).
  const int primary = code & 0xff;
  const int system_error = db && primary == SQLITE_IOERR ? sqlite3_system_errno(db) : 0;
  if (primary == SQLITE_FULL || system_error == ENOSPC || system_error == EDQUOT)
    return Error::environment(message + " (the disk is full; free space on it and run again)");
  if (primary == SQLITE_READONLY)
    return Error::environment(message + " (the KB file or its directory is read-only)");
  return Error::io(std::move(message));
}

Statement::Statement(Statement&& other) noexcept : db_(other.db_), stmt_(other.stmt_) {
  other.stmt_ = nullptr;
}

Statement::~Statement() { sqlite3_finalize(stmt_); }  // no-op on null

Status Statement::bind(std::initializer_list<SqlValue> values) {
  int index = 1;
  for (const SqlValue& value : values) {
    if (std::holds_alternative<std::nullptr_t>(value)) {
      KB_SQLITE_CALL(db_, sqlite3_bind_null(stmt_, index));
    } else if (const auto* i = std::get_if<std::int64_t>(&value)) {
      KB_SQLITE_CALL(db_, sqlite3_bind_int64(stmt_, index, *i));
    } else if (const auto* d = std::get_if<double>(&value)) {
      KB_SQLITE_CALL(db_, sqlite3_bind_double(stmt_, index, *d));
    } else {
      const auto& s = std::get<std::string_view>(value);
      KB_SQLITE_CALL(db_, sqlite3_bind_text64(stmt_, index, s.data(), s.size(), SQLITE_TRANSIENT,
                                              SQLITE_UTF8));
    }
    ++index;
  }
  return Ok{};
}

Result<bool> Statement::step() {
  const int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  return sqlite_call_error("sqlite3_step(stmt_)", rc, db_, __FILE__, __LINE__);
}

Status Statement::run() {
  for (;;) {
    Result<bool> row = step();
    if (!row) return row.error();
    if (!*row) return Ok{};
  }
}

std::int64_t Statement::int64(int column) const { return sqlite3_column_int64(stmt_, column); }
double Statement::real(int column) const { return sqlite3_column_double(stmt_, column); }
std::string Statement::text(int column) const {
  const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(stmt_, column));
  return p ? std::string(p, static_cast<size_t>(sqlite3_column_bytes(stmt_, column))) : "";
}

Result<Database> Database::open_with(const std::filesystem::path& path, int flags) {
  sqlite3* raw = nullptr;
  const int rc = sqlite3_open_v2(path.c_str(), &raw, flags, nullptr);
  Database db(raw);  // owns the handle even when open failed
  if (rc != SQLITE_OK) {
    Error e = sqlite_call_error("sqlite3_open_v2(path, ...)", rc, raw, __FILE__, __LINE__);
    e.message += " opening " + path.string();
    return e;
  }
  KB_SQLITE_CALL(raw, sqlite3_extended_result_codes(raw, 1));
  return db;
}

Result<Database> Database::open(const std::filesystem::path& path) {
  return open_with(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
}

Result<Database> Database::open_existing(const std::filesystem::path& path) {
  return open_with(path, SQLITE_OPEN_READWRITE);
}

Status Database::backup_to(const Database& copy) const {
  sqlite3_backup* backup = sqlite3_backup_init(copy.db_, "main", db_, "main");
  if (!backup)  // the error is on the destination's connection
    return sqlite_call_error("sqlite3_backup_init(copy.db_, \"main\", db_, \"main\")",
                             sqlite3_errcode(copy.db_), copy.db_, __FILE__, __LINE__);
  const int step = sqlite3_backup_step(backup, -1);
  // Finishing stores a failed step's error on the copy's connection, whichever
  // side it came from; the message names both files.
  const int finish = sqlite3_backup_finish(backup);
  if (step != SQLITE_DONE) {
    Error e =
        sqlite_call_error("sqlite3_backup_step(backup, -1)", step, copy.db_, __FILE__, __LINE__);
    const char* from = sqlite3_db_filename(db_, "main");
    const char* to = sqlite3_db_filename(copy.db_, "main");
    e.message += std::string(" (copying ") + (from ? from : "?") + " to " + (to ? to : "?") + ")";
    return e;
  }
  KB_SQLITE_CALL(copy.db_, finish);
  return Ok{};
}

Database::~Database() { sqlite3_close_v2(db_); }  // no-op on null

Status Database::exec(const char* sql) const {
  char* err = nullptr;
  const int rc = sqlite3_exec(db_, sql, nullptr, nullptr, &err);
  if (rc == SQLITE_OK) return Ok{};
  Error e = sqlite_call_error("sqlite3_exec", rc, db_, __FILE__, __LINE__);
  e.message += std::string(" running: ") + sql;
  sqlite3_free(err);
  return e;
}

Result<Statement> Database::prepare(std::string_view sql) const {
  sqlite3_stmt* stmt = nullptr;
  const int rc = sqlite3_prepare_v2(db_, sql.data(), static_cast<int>(sql.size()), &stmt, nullptr);
  Statement owner(db_, stmt);
  if (rc != SQLITE_OK) {
    Error e = sqlite_call_error("sqlite3_prepare_v2", rc, db_, __FILE__, __LINE__);
    e.message += " preparing: " + std::string(sql);
    return e;
  }
  return owner;
}

Result<Transaction> Transaction::begin(const Database& db) {
  KB_TRY(db.exec("BEGIN IMMEDIATE"));
  return Transaction(&db);
}

Status Transaction::commit() {
  KB_TRY(db_->exec("COMMIT"));
  db_ = nullptr;
  return Ok{};
}

Transaction::~Transaction() {
  // A failed ROLLBACK leaves nothing more to do: SQLite rolls back on close.
  if (db_) sqlite3_exec(db_->get(), "ROLLBACK", nullptr, nullptr, nullptr);
}

}  // namespace kblaster
