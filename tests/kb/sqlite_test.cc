#include "kb/sqlite.h"

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace kblaster
