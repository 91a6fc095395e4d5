#include "kb/schema.h"

#include <gtest/gtest.h>

#include "kb/store.h"
#include "test_paths.h"

namespace kblaster {
namespace {

// Opens `path` as a bare SQLite database and runs `sql`.
void raw_exec(const std::filesystem::path& path, const char* sql) {
  Result<Database> db = Database::open(path);
  ASSERT_TRUE(db.ok()) << db.error().describe();
  Status s = db->exec(sql);
  ASSERT_TRUE(s.ok()) << s.error().describe();
}

TEST(KbSchemaTest, MigrationsAreNumberedInOrderWithoutGaps) {
  int expected = 1;
  for (const Migration& m : schema_migrations()) EXPECT_EQ(m.version, expected++);
  EXPECT_EQ(latest_schema_version(), expected - 1);
}

TEST(KbSchemaTest, AVersionZeroFileMigratesToTheLatest) {
  testing::TempDir dir;
  const auto path = dir.path() / "kb.sqlite";
  raw_exec(path, "CREATE TABLE unrelated (x INTEGER)");  // a v0 file with content
  Result<Store> store = Store::open(path);
  ASSERT_TRUE(store.ok()) << store.error().describe();
  Result<int> version = schema_version(store->database());
  ASSERT_TRUE(version.ok());
  EXPECT_EQ(*version, latest_schema_version());
  Result<std::int64_t> n = store->trajectory_count();
  ASSERT_TRUE(n.ok()) << n.error().describe();
  EXPECT_EQ(*n, 0);
}

TEST(KbSchemaTest, ReopeningKeepsDataAndDoesNotRerunMigrations) {
  testing::TempDir dir;
  const auto path = dir.path() / "kb.sqlite";
  {
    Result<Store> store = Store::open(path);
    ASSERT_TRUE(store.ok()) << store.error().describe();
    ASSERT_TRUE(store->add_lesson({"", "s", "t", "text", 1}).ok());
  }
  // Re-running v1 would fail ("table already exists") or, if it could, lose the lesson.
  Result<Store> again = Store::open(path);
  ASSERT_TRUE(again.ok()) << again.error().describe();
  Result<std::vector<Lesson>> lessons = again->lessons("s", "t");
  ASSERT_TRUE(lessons.ok());
  EXPECT_EQ(lessons->size(), 1u);
  Result<int> version = schema_version(again->database());
  ASSERT_TRUE(version.ok());
  EXPECT_EQ(*version, latest_schema_version());
}

TEST(KbSchemaTest, AFileFromANewerKblasterIsAClearError) {
  testing::TempDir dir;
  const auto path = dir.path() / "kb.sqlite";
  const int newer = latest_schema_version() + 1;
  raw_exec(path, ("PRAGMA user_version = " + std::to_string(newer)).c_str());
  Result<Store> store = Store::open(path);
  ASSERT_FALSE(store.ok());
  EXPECT_EQ(store.error().kind, ErrorKind::io);
  const std::string& m = store.error().message;
  EXPECT_NE(m.find(path.string()), std::string::npos) << m;
  EXPECT_NE(m.find("version " + std::to_string(newer)), std::string::npos) << m;
  EXPECT_NE(m.find("newer"), std::string::npos) << m;
}

}  // namespace
}  // namespace kblaster
