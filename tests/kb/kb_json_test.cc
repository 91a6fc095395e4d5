#include "kb/kb_json.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <random>

#include "kb/schema.h"
#include "test_paths.h"

namespace kblaster {
namespace {

// A store in a fresh temp dir; synchronous=OFF only to keep the tests fast.
class KbJsonTest : public ::testing::Test {
 protected:
  Store open(const std::string& name) {
    Result<Store> s = Store::open(dir_.path() / name);
    EXPECT_TRUE(s.ok()) << s.error().describe();
    EXPECT_TRUE(s->database().exec("PRAGMA synchronous=OFF").ok());
    return std::move(*s);
  }
  testing::TempDir dir_;
};

void add_catalogue_rows(const Store& s) {
  ASSERT_TRUE(s.database()
                  .exec("INSERT INTO techniques VALUES ('vectorize', 'memory', 'wide \"loads\"\n', "
                        "'embedded'), ('fuse', 'algorithmic', 'one kernel', 'llm');"
                        "INSERT INTO states VALUES ('memory.dram', 'memory', 'DRAM bound')")
                  .ok());
}

// Doubles whose shortest text is awkward: they must read back bit for bit.
// (Their squares stay finite: stats keep the sum of squares.)
const double kAwkward[] = {0.1, 1.0 / 3.0, -0.0,          5e-324,        1e150,
                           1.0, -2.5e-7,   std::log(1.1), 123456789.125, std::nextafter(1.0, 2.0)};

void fill(Store& s, std::mt19937_64& rng, int trajectories) {
  add_catalogue_rows(s);
  const char* states[] = {"memory.dram", "compute.fma", "latency.sync \xc3\xa9"};
  const char* actions[] = {"vectorize", "fuse", "tile"};
  std::uniform_int_distribution<int> pick(0, 2), outcome(0, 4), steps(0, 4);
  std::uniform_int_distribution<std::uint64_t> bits;
  for (int i = 0; i < trajectories; ++i) {
    Trajectory t{"traj-" + std::to_string(rng() % 1000),
                 "task" + std::to_string(pick(rng)),
                 pick(rng) ? "sm_90" : "sm_80",
                 static_cast<std::int64_t>(rng() % 100000),
                 {}};
    const int n = steps(rng);
    for (int k = 0; k < n; ++k) {
      double reward = kAwkward[rng() % std::size(kAwkward)];
      if (rng() % 2) {  // any finite double
        do reward = std::bit_cast<double>(bits(rng));
        while (!std::isfinite(reward) || std::fabs(reward) > 1e150);
      }
      t.steps.push_back({k, states[pick(rng)], actions[pick(rng)],
                         static_cast<StepOutcome>(outcome(rng)), reward,
                         static_cast<std::int64_t>(rng() % 5000)});
    }
    ASSERT_TRUE(s.record_trajectory(t).ok());
  }
  for (int i = 0; i < 5; ++i)
    ASSERT_TRUE(s.add_lesson({"", states[pick(rng)], actions[pick(rng)],
                              "lesson \"" + std::to_string(i) + "\"\n\ttabbed \xe2\x9c\x93",
                              static_cast<std::int64_t>(rng() % 100)})
                    .ok());
  for (int i = 0; i < 4; ++i)
    ASSERT_TRUE(s.offer_best_kernel({"task" + std::to_string(pick(rng)),
                                     "__global__ void k() {}\n// " + std::to_string(rng() % 3),
                                     R"({"ok": true})", kAwkward[rng() % std::size(kAwkward)]})
                    .ok());
}

TEST_F(KbJsonTest, ExportIsSortedPrettyAndEndsInNewline) {
  Store s = open("a.sqlite");
  std::mt19937_64 rng(7);
  fill(s, rng, 6);
  Result<std::string> text = export_json(s);
  ASSERT_TRUE(text.ok()) << text.error().describe();
  ASSERT_FALSE(text->empty());
  EXPECT_EQ(text->back(), '\n');
  EXPECT_EQ(text->substr(0, 20), "{\n  \"best_kernels\": ");
  EXPECT_NE(text->find("\n  \"kblaster_kb\": 1,\n"), std::string::npos);
  EXPECT_NE(text->find("\n  \"schema_version\": " + std::to_string(latest_schema_version())),
            std::string::npos);
  // Rows by primary key: "fuse" before "vectorize".
  EXPECT_LT(text->find("\"id\": \"fuse\""), text->find("\"id\": \"vectorize\""));
}

TEST_F(KbJsonTest, RoundTripIsByteIdenticalAndAnswersTheSame) {
  for (std::uint64_t seed = 1; seed <= 8; ++seed) {
    SCOPED_TRACE(seed);
    Store a = open("a" + std::to_string(seed) + ".sqlite");
    std::mt19937_64 rng(seed);
    fill(a, rng, 12);
    Result<std::string> first = export_json(a);
    ASSERT_TRUE(first.ok()) << first.error().describe();
    Store b = open("b" + std::to_string(seed) + ".sqlite");
    Status imported = import_json(b, *first);
    ASSERT_TRUE(imported.ok()) << imported.error().describe();
    Result<std::string> second = export_json(b);
    ASSERT_TRUE(second.ok());
    EXPECT_EQ(*first, *second);

    Result<KbContents> kb = read_kb(a.database());
    ASSERT_TRUE(kb.ok());
    for (const StatsRow& r : kb->stats) {
      Result<TechniqueStats> x = a.stats(r.state, r.technique, r.arch);
      Result<TechniqueStats> y = b.stats(r.state, r.technique, r.arch);
      ASSERT_TRUE(x.ok() && y.ok());
      EXPECT_EQ(std::bit_cast<std::uint64_t>(x->sum_log_speedup),
                std::bit_cast<std::uint64_t>(y->sum_log_speedup));
      EXPECT_EQ(std::bit_cast<std::uint64_t>(x->sum_sq_log_speedup),
                std::bit_cast<std::uint64_t>(y->sum_sq_log_speedup));
      EXPECT_EQ(x->attempts, y->attempts);
      EXPECT_EQ(x->last_seen, y->last_seen);
      Result<std::vector<Lesson>> la = a.lessons(r.state, r.technique);
      Result<std::vector<Lesson>> lb = b.lessons(r.state, r.technique);
      ASSERT_TRUE(la.ok() && lb.ok());
      ASSERT_EQ(la->size(), lb->size());
      for (size_t i = 0; i < la->size(); ++i) EXPECT_EQ((*la)[i].text, (*lb)[i].text);
    }
    for (const char* task : {"task0", "task1", "task2"}) {
      Result<std::optional<BestKernel>> x = a.best_kernel(task), y = b.best_kernel(task);
      ASSERT_TRUE(x.ok() && y.ok());
      ASSERT_EQ(x->has_value(), y->has_value());
      if (!x->has_value()) continue;
      EXPECT_EQ((*x)->source, (*y)->source);
      EXPECT_EQ(std::bit_cast<std::uint64_t>((*x)->speedup),
                std::bit_cast<std::uint64_t>((*y)->speedup));
    }
  }
}

TEST_F(KbJsonTest, ImportNeedsAnEmptyStore) {
  Store a = open("a.sqlite");
  std::mt19937_64 rng(3);
  fill(a, rng, 2);
  Result<std::string> text = export_json(a);
  ASSERT_TRUE(text.ok());
  Status again = import_json(a, *text);
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(again.error().kind, ErrorKind::usage);
  EXPECT_NE(again.error().message.find("empty"), std::string::npos);
}

TEST_F(KbJsonTest, MalformedRowsNameTableRowAndFieldAndWriteNothing) {
  const std::string head =
      "{\"kblaster_kb\": 1, \"schema_version\": " + std::to_string(latest_schema_version()) +
      ", \"techniques\": [], \"states\": [], \"stats\": [], \"lessons\": [], "
      "\"kernel_costs\": [], "
      "\"best_kernels\": [{\"task\": \"t\", \"source\": \"s\", \"result\": "
      "\"{}\", \"speedup\": 2.0}], ";
  const struct {
    std::string trajectories;
    std::string expected;
  } cases[] = {
      {R"([{"id": "x", "task": "t", "arch": "sm_90", "created_at": 1, "steps": [
           {"step": 0, "state": "s", "action": "a", "outcome": "faster", "reward": "big",
            "tokens": 1}]}])",
       "table trajectories, trajectory x, steps, row #0, field reward: expected a number"},
      {R"([{"id": "x", "task": "t", "arch": "sm_90", "created_at": 1, "steps": [
           {"step": 0, "state": "s", "action": "a", "outcome": "great", "reward": 1,
            "tokens": 1}]}])",
       "field outcome: unknown outcome \"great\""},
      {R"([{"id": "x", "task": "t", "created_at": 1, "steps": []}])",
       "table trajectories, row #0, field arch: missing"},
      {R"([{"id": "x", "task": "t", "arch": "a", "created_at": 1.5, "steps": []}])",
       "table trajectories, row #0 (x), field created_at: expected an integer"},
      {R"([{"id": "x", "task": "t", "arch": "a", "created_at": 1, "steps": [], "extra": 0}])",
       "field extra: unknown field"},
      {R"([{"id": "x", "task": "t", "arch": "a", "created_at": 1, "steps": []},
           {"id": "x", "task": "t", "arch": "a", "created_at": 1, "steps": []}])",
       "table trajectories, row #1 (x): the same key as row #0; each key may appear once in a "
       "table"},
      {R"({})", "table trajectories: expected an array"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.trajectories);
    Store s = open("s.sqlite");
    Status st = import_json(s, head + "\"trajectories\": " + c.trajectories + "}");
    ASSERT_FALSE(st.ok());
    EXPECT_NE(st.error().describe().find(c.expected), std::string::npos) << st.error().describe();
    Result<bool> empty = kb_is_empty(s.database());
    ASSERT_TRUE(empty.ok());
    EXPECT_TRUE(*empty);
  }
}

// A repeated primary key is the file's fault (exit 2), found before anything is
// written, in every table; rows that only share a prefix of their key are distinct.
TEST_F(KbJsonTest, ARepeatedKeyInAnyTableIsAConfigErrorNamingBothRows) {
  const std::string version = std::to_string(latest_schema_version());
  const std::string stats_row =
      R"("attempts": 1, "compile_failures": 0, "verify_failures": 0, "slower": 0, "faster": 1,
         "measured": 1, "sum_log_speedup": 0.1, "sum_sq_log_speedup": 0.01, "last_seen": 1)";
  const struct {
    const char* table;
    std::string rows;
  } cases[] = {
      {"techniques", R"([{"id": "v", "category": "c", "description": "d", "applier": "a"},
                         {"id": "v", "category": "c2", "description": "d", "applier": "a"}])"},
      {"states", R"([{"key": "k", "class": "c", "description": "d"},
                     {"key": "k", "class": "c", "description": "d"}])"},
      {"stats", R"([{"state": "s", "technique": "t", "arch": "a", )" + stats_row +
                    R"(}, {"state": "s", "technique": "t", "arch": "a", )" + stats_row + "}]"},
      {"lessons", R"([{"id": "l", "state": "s", "technique": "t", "text": "x", "created_at": 1},
                      {"id": "l", "state": "s", "technique": "t", "text": "y", "created_at": 2}])"},
      {"best_kernels", R"([{"task": "t", "source": "s", "result": "{}", "speedup": 1.5},
                           {"task": "t", "source": "s2", "result": "{}", "speedup": 2.5}])"},
      {"kernel_costs", R"([{"task": "t", "arch": "sm_90", "seconds": 10, "recorded_at": 1},
                           {"task": "t", "arch": "sm_90", "seconds": 20, "recorded_at": 2}])"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.table);
    std::string doc = R"({"kblaster_kb": 1, "schema_version": )" + version;
    for (const char* table : {"techniques", "states", "stats", "trajectories", "lessons",
                              "best_kernels", "kernel_costs"})
      doc += std::string(", \"") + table + "\": " + (table == std::string(c.table) ? c.rows : "[]");
    doc += "}";
    Result<KbContents> kb = kb_from_json(doc);
    ASSERT_FALSE(kb.ok());
    EXPECT_EQ(kb.error().kind, ErrorKind::config);
    EXPECT_NE(kb.error().message.find(std::string("table ") + c.table + ", row #1 ("),
              std::string::npos)
        << kb.error().message;
    EXPECT_NE(kb.error().message.find("the same key as row #0"), std::string::npos);
  }
  // ("a/b", "c") and ("a", "b/c") print alike but are two keys.
  std::string two = R"({"kblaster_kb": 1, "schema_version": )" + version +
                    R"(, "techniques": [], "states": [], "trajectories": [], "lessons": [],
                    "best_kernels": [], "kernel_costs": [], "stats": [
                    {"state": "a/b", "technique": "c", "arch": "x", )" +
                    stats_row + R"(}, {"state": "a", "technique": "b/c", "arch": "x", )" +
                    stats_row + "}]}";
  EXPECT_TRUE(kb_from_json(two).ok()) << kb_from_json(two).error().message;
}

TEST_F(KbJsonTest, RejectsWrongHeaderAndBadJson) {
  Store s = open("s.sqlite");
  EXPECT_FALSE(import_json(s, "{not json").ok());
  EXPECT_FALSE(import_json(s, "[]").ok());
  Status future = import_json(s, R"({"kblaster_kb": 1, "schema_version": 999})");
  ASSERT_FALSE(future.ok());
  EXPECT_NE(future.error().message.find("schema_version"), std::string::npos);
  Status missing = import_json(s, "{\"kblaster_kb\": 1, \"schema_version\": " +
                                      std::to_string(latest_schema_version()) + "}");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().message.find("missing"), std::string::npos);
}

}  // namespace
}  // namespace kblaster
