// The thin layer over SQLite's C API: RAII owners for a connection and a prepared
// statement, a Transaction guard, and KB_SQLITE_CALL, which checks a call where it
// is made and turns a failure into an Error naming the call, file, line and KB file.
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <filesystem>
#include <initializer_list>
#include <string>
#include <string_view>
#include <variant>

#include "core/status.h"

namespace kblaster {

// An Error naming `call` (its source text), where it was made, SQLite's result
// code, sqlite3_errmsg of `db` (if any) and the database file: Error::environment
// for a full disk (SQLITE_FULL, ENOSPC) or a read-only file, else Error::io.
Error sqlite_call_error(const char* call, int code, sqlite3* db, const char* file, int line);

// A value bound to a statement parameter.
using SqlValue = std::variant<std::nullptr_t, std::int64_t, double, std::string_view>;

// A prepared statement. Copy deleted: two owners would finalize it twice.
class Statement {
 public:
  Statement(sqlite3* db, sqlite3_stmt* stmt) : db_(db), stmt_(stmt) {}
  Statement(Statement&& other) noexcept;
  Statement& operator=(Statement&&) = delete;
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;
  ~Statement();

  // Binds `values` to parameters 1..n (text is copied).
  Status bind(std::initializer_list<SqlValue> values);
  // True when a row is ready to read, false when the statement is done.
  Result<bool> step();
  // Steps until done, ignoring rows.
  Status run();
  // Column readers for the current row; NULL reads as 0, 0.0 or "".
  std::int64_t int64(int column) const;
  double real(int column) const;
  std::string text(int column) const;

 private:
  sqlite3* db_;
  sqlite3_stmt* stmt_;
};

// An open connection. Copy deleted: two owners would close it twice.
class Database {
 public:
  // Opens `path` read-write, creating the file if absent (not its directories).
  static Result<Database> open(const std::filesystem::path& path);
  // Opens the existing database at `path` without creating it, read-write where
  // the file allows it (SQLite opens a write-protected file read-only), so that
  // closing the last connection removes the -wal and -shm files a WAL-mode reader
  // makes and folds a leftover -wal into the file. Opening changes no data.
  static Result<Database> open_existing(const std::filesystem::path& path);
  Database(Database&& other) noexcept : db_(other.db_) { other.db_ = nullptr; }
  Database& operator=(Database&&) = delete;
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;
  ~Database();

  sqlite3* get() const { return db_; }
  // Runs one or more statements that return nothing we read.
  Status exec(const char* sql) const;
  Result<Statement> prepare(std::string_view sql) const;
  // Rows changed by the last INSERT/UPDATE/DELETE on this connection.
  std::int64_t changes() const { return sqlite3_changes64(db_); }
  // Replaces `copy`'s content with this database's, by SQLite's online backup: one
  // consistent snapshot, even while another process writes this database.
  Status backup_to(const Database& copy) const;

 private:
  explicit Database(sqlite3* db) : db_(db) {}
  // Opens `path` with the sqlite3_open_v2 `flags`.
  static Result<Database> open_with(const std::filesystem::path& path, int flags);
  sqlite3* db_;
};

// BEGIN IMMEDIATE now; ROLLBACK when destroyed unless commit() succeeded.
// Copy deleted: one transaction, one owner of its end.
class Transaction {
 public:
  static Result<Transaction> begin(const Database& db);
  Transaction(Transaction&& other) noexcept : db_(other.db_) { other.db_ = nullptr; }
  Transaction& operator=(Transaction&&) = delete;
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;
  ~Transaction();
  Status commit();

 private:
  explicit Transaction(const Database* db) : db_(db) {}
  const Database* db_;  // null once committed, rolled back or moved from
};

}  // namespace kblaster

// Makes the SQLite call `expr` on connection `db`; unless it returns SQLITE_OK,
// returns sqlite_call_error's Error naming it from the enclosing function.
#define KB_SQLITE_CALL(db, expr)                                                          \
  do {                                                                                    \
    if (const int kb_sqlite_rc_ = (expr); kb_sqlite_rc_ != SQLITE_OK)                     \
      return ::kblaster::sqlite_call_error(#expr, kb_sqlite_rc_, db, __FILE__, __LINE__); \
  } while (0)
