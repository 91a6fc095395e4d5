#include "kb/sqlite.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "test_paths.h"

namespace kblaster {
namespace {

TEST(KbSqliteTest, AFailedCallNamesTheCallAndSqlitesMessage) {
  testing::TempDir dir;
  Result<Database> db = Database::open(dir.path() / "x.sqlite");
  ASSERT_TRUE(db.ok());
  Result<Statement> st = db->prepare("SELECT * FROM no_such_table");
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.error().kind, ErrorKind::io);
  EXPECT_NE(st.error().message.find("sqlite3_prepare_v2"), std::string::npos);
  EXPECT_NE(st.error().message.find("no such table"), std::string::npos);
  EXPECT_NE(st.error().message.find("x.sqlite"), std::string::npos);
}

// SQLITE_FULL is the machine's condition (exit 3), with what to do; max_page_count
// makes SQLite answer it exactly as a full disk does.
TEST(KbSqliteTest, AFullDatabaseIsAnEnvironmentErrorThatSaysTheDiskIsFull) {
  testing::TempDir dir;
  Result<Database> db = Database::open(dir.path() / "x.sqlite");
  ASSERT_TRUE(db.ok());
  ASSERT_TRUE(db->exec("CREATE TABLE t (v BLOB); PRAGMA max_page_count = 4").ok());
  Status full = db->exec("INSERT INTO t VALUES (zeroblob(1000000))");
  ASSERT_FALSE(full.ok());
  EXPECT_EQ(full.error().kind, ErrorKind::environment);
  EXPECT_NE(full.error().message.find("the disk is full"), std::string::npos)
      << full.error().message;
  EXPECT_NE(full.error().message.find("x.sqlite"), std::string::npos);
}

TEST(KbSqliteTest, ATransactionRollsBackUnlessCommitted) {
  testing::TempDir dir;
  Result<Database> db = Database::open(dir.path() / "x.sqlite");
  ASSERT_TRUE(db.ok());
  ASSERT_TRUE(db->exec("CREATE TABLE t (x INTEGER)").ok());
  {
    Result<Transaction> tx = Transaction::begin(*db);
    ASSERT_TRUE(tx.ok());
    ASSERT_TRUE(db->exec("INSERT INTO t VALUES (1)").ok());
  }  // dropped: rolled back
  {
    Result<Transaction> tx = Transaction::begin(*db);
    ASSERT_TRUE(tx.ok());
    ASSERT_TRUE(db->exec("INSERT INTO t VALUES (2)").ok());
    ASSERT_TRUE(tx->commit().ok());
  }
  Result<Statement> st = db->prepare("SELECT group_concat(x) FROM t");
  ASSERT_TRUE(st.ok());
  ASSERT_TRUE(*st->step());
  EXPECT_EQ(st->text(0), "2");
}

TEST(KbSqliteTest, BindsEachKindOfValue) {
  testing::TempDir dir;
  Result<Database> db = Database::open(dir.path() / "x.sqlite");
  ASSERT_TRUE(db.ok());
  Result<Statement> st = db->prepare("SELECT ?, ?, ?, ? IS NULL");
  ASSERT_TRUE(st.ok());
  ASSERT_TRUE(st->bind({std::int64_t{7}, 2.5, "text", nullptr}).ok());
  ASSERT_TRUE(*st->step());
  EXPECT_EQ(st->int64(0), 7);
  EXPECT_DOUBLE_EQ(st->real(1), 2.5);
  EXPECT_EQ(st->text(2), "text");
  EXPECT_EQ(st->int64(3), 1);
}

// The number in `db`'s table t, or -1.
std::int64_t rows_in_t(const Database& db) {
  Result<Statement> st = db.prepare("SELECT count(*) FROM t");
  if (!st.ok() || !st->step().ok()) return -1;
  return st->int64(0);
}

TEST(KbSqliteTest, OpeningAnExistingDatabaseCreatesNoFile) {
  testing::TempDir dir;
  const auto missing = dir.path() / "missing.sqlite";
  Result<Database> db = Database::open_existing(missing);
  ASSERT_FALSE(db.ok());
  EXPECT_EQ(db.error().kind, ErrorKind::io);
  EXPECT_NE(db.error().message.find(missing.string()), std::string::npos);
  EXPECT_FALSE(std::filesystem::exists(missing));
}

// A writer in WAL mode that never checkpoints keeps its commits in the -wal file
// and has one more row in an open transaction: the copy holds exactly the
// committed rows, which a copy of the main file alone would miss.
TEST(KbSqliteTest, ABackupCopiesTheCommittedRowsStillInTheWalAndNoUncommittedOne) {
  testing::TempDir dir;
  const auto path = dir.path() / "kb.sqlite";
  Result<Database> writer = Database::open(path);
  ASSERT_TRUE(writer.ok());
  ASSERT_TRUE(writer
                  ->exec("PRAGMA journal_mode=WAL; PRAGMA wal_autocheckpoint=0;"
                         "CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1), (2), (3)")
                  .ok());
  ASSERT_GT(std::filesystem::file_size(dir.path() / "kb.sqlite-wal"), 0u);
  Result<Transaction> open_write = Transaction::begin(*writer);
  ASSERT_TRUE(open_write.ok());
  ASSERT_TRUE(writer->exec("INSERT INTO t VALUES (4)").ok());

  Result<Database> source = Database::open_existing(path);
  ASSERT_TRUE(source.ok());
  Result<Database> copy = Database::open(dir.path() / "copy.sqlite");
  ASSERT_TRUE(copy.ok());
  ASSERT_TRUE(source->backup_to(*copy).ok());
  EXPECT_EQ(rows_in_t(*copy), 3);
  EXPECT_EQ(rows_in_t(*writer), 4);  // the writer's transaction is untouched
}

// A copy that cannot be written (here another connection holds its write lock)
// fails with the copy's error and names the copy, not the database it reads.
TEST(KbSqliteTest, ABackupThatCannotWriteItsCopyNamesTheCopy) {
  testing::TempDir dir;
  Result<Database> source = Database::open(dir.path() / "kb.sqlite");
  ASSERT_TRUE(source.ok());
  ASSERT_TRUE(source->exec("CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1)").ok());
  Result<Database> copy = Database::open(dir.path() / "copy.sqlite");
  ASSERT_TRUE(copy.ok());
  Result<Database> other = Database::open(dir.path() / "copy.sqlite");
  ASSERT_TRUE(other.ok());
  Result<Transaction> holding = Transaction::begin(*other);
  ASSERT_TRUE(holding.ok());
  Status copied = source->backup_to(*copy);
  ASSERT_FALSE(copied.ok());
  EXPECT_NE(copied.error().message.find("sqlite3_backup_step"), std::string::npos)
      << copied.error().message;
  EXPECT_NE(copied.error().message.find("kb.sqlite to " + (dir.path() / "copy.sqlite").string()),
            std::string::npos)
      << copied.error().message;
  EXPECT_EQ(copied.error().message.find("not an error"), std::string::npos)
      << copied.error().message;
}

}  // namespace
}  // namespace kblaster
