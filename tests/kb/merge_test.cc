#include "kb/merge.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <set>

#include "kb/kb_json.h"
#include "test_paths.h"

namespace kblaster {
namespace {

// What one random KB is built from, in the order it is recorded.
struct KbSpec {
  std::vector<Trajectory> trajectories;
  std::vector<Lesson> lessons;
  std::vector<BestKernel> offers;
  std::vector<TechniqueRow> techniques;
  std::vector<StateRow> states;
};

// The trajectories and lessons KBs draw from: a shared id always names one content.
struct Universe {
  std::vector<Trajectory> trajectories;
  std::vector<Lesson> lessons;
};

// prefix + n, built by append: GCC 12 warns falsely (-Wrestrict) on "t" + std::to_string(n).
std::string numbered(const char* prefix, std::uint64_t n) {
  std::string s(prefix);
  s += std::to_string(n);
  return s;
}

Universe make_universe(std::mt19937_64& rng) {
  const char* states[] = {"memory.dram", "compute.fma", "latency.sync"};
  const char* actions[] = {"vectorize", "tile", "unroll"};
  std::uniform_int_distribution<int> three(0, 2), outcome(0, 4), steps(0, 4);
  std::normal_distribution<double> reward(0.0, 0.4);
  Universe u;
  for (int i = 0; i < 12; ++i) {
    Trajectory t{numbered("t", i),
                 numbered("task", three(rng)),
                 three(rng) ? "sm_90" : "sm_80",
                 static_cast<std::int64_t>(rng() % 1000),
                 {}};
    for (int k = 0, n = steps(rng); k < n; ++k)
      t.steps.push_back({k, states[three(rng)], actions[three(rng)],
                         static_cast<StepOutcome>(outcome(rng)), reward(rng),
                         static_cast<std::int64_t>(rng() % 900)});
    u.trajectories.push_back(std::move(t));
  }
  for (int i = 0; i < 8; ++i)  // half with explicit ids, half content-derived
    u.lessons.push_back({i % 2 ? numbered("lesson", i) : "", states[three(rng)],
                         actions[three(rng)], "text " + std::to_string(rng() % 4),
                         static_cast<std::int64_t>(rng() % 10)});
  return u;
}

KbSpec make_spec(const Universe& u, std::mt19937_64& rng) {
  KbSpec s;
  for (const Trajectory& t : u.trajectories)
    if (rng() % 2) s.trajectories.push_back(t);
  std::shuffle(s.trajectories.begin(), s.trajectories.end(), rng);  // any recording order
  for (const Lesson& l : u.lessons)
    if (rng() % 2) s.lessons.push_back(l);
  const double speedups[] = {1.0, 1.5, 2.0};
  const char* texts[] = {"a", "b"};
  for (int i = 0, n = static_cast<int>(rng() % 5); i < n; ++i)
    s.offers.push_back(
        {numbered("task", rng() % 3), texts[rng() % 2], texts[rng() % 2], speedups[rng() % 3]});
  for (const char* id : {"tile", "vectorize"})
    if (rng() % 2) s.techniques.push_back({id, "memory", texts[rng() % 2], texts[rng() % 2]});
  for (const char* key : {"compute.fma", "memory.dram"})
    if (rng() % 2) s.states.push_back({key, texts[rng() % 2], texts[rng() % 2]});
  return s;
}

class KbMergeTest : public ::testing::Test {
 protected:
  // A fresh store built from `spec` (synchronous=OFF only to keep the tests fast).
  Store build(const KbSpec& spec) {
    Result<Store> s = Store::open(dir_.path() / (numbered("kb", next_++) + ".sqlite"));
    EXPECT_TRUE(s.ok()) << s.error().describe();
    EXPECT_TRUE(s->database().exec("PRAGMA synchronous=OFF").ok());
    for (const Trajectory& t : spec.trajectories) EXPECT_TRUE(s->record_trajectory(t).ok());
    for (const Lesson& l : spec.lessons) EXPECT_TRUE(s->add_lesson(l).ok());
    for (const BestKernel& k : spec.offers) EXPECT_TRUE(s->offer_best_kernel(k).ok());
    for (const TechniqueRow& t : spec.techniques) {
      Result<Statement> st = s->database().prepare("INSERT INTO techniques VALUES (?, ?, ?, ?)");
      EXPECT_TRUE(st.ok() && st->bind({t.id, t.category, t.description, t.applier}).ok() &&
                  st->run().ok());
    }
    for (const StateRow& r : spec.states) {
      Result<Statement> st = s->database().prepare("INSERT INTO states VALUES (?, ?, ?)");
      EXPECT_TRUE(st.ok() && st->bind({r.key, r.bottleneck, r.description}).ok() && st->run().ok());
    }
    return std::move(*s);
  }
  static void merge(Store& target, const Store& source) {
    Status st = merge_into(target, source);
    ASSERT_TRUE(st.ok()) << st.error().describe();
  }
  static std::string json(const Store& s) {
    Result<std::string> text = export_json(s);
    EXPECT_TRUE(text.ok()) << text.error().describe();
    return text.ok() ? *text : "";
  }
  static KbContents contents(const Store& s) {
    Result<KbContents> kb = read_kb(s.database());
    EXPECT_TRUE(kb.ok()) << kb.error().describe();
    return kb.ok() ? *kb : KbContents{};
  }
  testing::TempDir dir_;
  int next_ = 0;
};

// True when `x` is at least as good a best kernel as `y` by the merge rule.
bool not_worse(const BestKernel& x, const BestKernel& y) {
  if (x.speedup != y.speedup) return x.speedup > y.speedup;
  return std::tie(x.source, x.result_json) <= std::tie(y.source, y.result_json);
}

constexpr int kCases = 30;

TEST_F(KbMergeTest, RandomKbsMergeCommutativelyAssociativelyIdempotentlyLosslessly) {
  for (int seed = 1; seed <= kCases; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937_64 rng(seed);
    const Universe u = make_universe(rng);
    const KbSpec a = make_spec(u, rng), b = make_spec(u, rng), c = make_spec(u, rng);

    Store ab = build(a), ba = build(b);
    const Store sa = build(a), sb = build(b), sc = build(c);
    merge(ab, sb);
    merge(ba, sa);
    const std::string merged = json(ab);
    EXPECT_EQ(merged, json(ba)) << "commutative";

    Store ab_c = build(a), bc = build(b);
    merge(ab_c, sb);
    merge(ab_c, sc);
    merge(bc, sc);
    Store a_bc = build(a);
    merge(a_bc, bc);
    EXPECT_EQ(json(ab_c), json(a_bc)) << "associative";

    Store aa = build(a), canon_a = build({});
    merge(aa, sa);
    merge(canon_a, sa);
    EXPECT_EQ(json(aa), json(canon_a)) << "A merged with A is A, stats in canonical order";
    EXPECT_EQ(json(aa), json(sa)) << "A merged with A is byte for byte A: the store keeps its "
                                     "statistics in the canonical order as it records";
    merge(aa, aa);
    EXPECT_EQ(json(aa), json(canon_a)) << "merging a store into itself changes nothing";
    merge(ab, sb);
    merge(ab, sa);
    EXPECT_EQ(json(ab), merged) << "merging again changes nothing";

    // Lossless: every trajectory, lesson and best kernel of A and B survives.
    const KbContents m = contents(ab), ka = contents(sa), kb = contents(sb);
    for (const KbContents* in : {&ka, &kb}) {
      for (const Trajectory& t : in->trajectories) {
        auto it = std::find_if(m.trajectories.begin(), m.trajectories.end(),
                               [&](const Trajectory& x) { return x.id == t.id; });
        ASSERT_NE(it, m.trajectories.end()) << t.id;
        ASSERT_EQ(it->steps.size(), t.steps.size());
        for (size_t i = 0; i < t.steps.size(); ++i)
          EXPECT_EQ(it->steps[i].reward, t.steps[i].reward);
      }
      for (const Lesson& l : in->lessons)
        EXPECT_TRUE(std::any_of(m.lessons.begin(), m.lessons.end(), [&](const Lesson& x) {
          return x.id == l.id && x.text == l.text;
        })) << l.id;
      for (const BestKernel& k : in->best_kernels) {
        auto it = std::find_if(m.best_kernels.begin(), m.best_kernels.end(),
                               [&](const BestKernel& x) { return x.task == k.task; });
        ASSERT_NE(it, m.best_kernels.end()) << k.task;
        EXPECT_TRUE(not_worse(*it, k)) << k.task;
      }
    }
    EXPECT_EQ(m.trajectories.size(), [&] {
      std::set<std::string> ids;
      for (const KbContents* in : {&ka, &kb})
        for (const Trajectory& t : in->trajectories) ids.insert(t.id);
      return ids.size();
    }());

    // Stats: exactly a from-scratch recording of the union, in any order.
    KbSpec union_spec;
    union_spec.trajectories = m.trajectories;
    Store scratch = build(union_spec);
    const KbContents fresh = contents(scratch);
    ASSERT_EQ(fresh.stats.size(), m.stats.size());
    for (size_t i = 0; i < m.stats.size(); ++i) {
      const TechniqueStats &x = m.stats[i].stats, &y = fresh.stats[i].stats;
      EXPECT_EQ(m.stats[i].state + m.stats[i].technique + m.stats[i].arch,
                fresh.stats[i].state + fresh.stats[i].technique + fresh.stats[i].arch);
      EXPECT_EQ(std::tie(x.attempts, x.compile_failures, x.verify_failures, x.slower, x.faster,
                         x.measured, x.last_seen, x.sum_log_speedup, x.sum_sq_log_speedup),
                std::tie(y.attempts, y.compile_failures, y.verify_failures, y.slower, y.faster,
                         y.measured, y.last_seen, y.sum_log_speedup, y.sum_sq_log_speedup));
    }
    EXPECT_EQ(json(sa), json(canon_a)) << "recorded in any order, the statistics are canonical";
  }
}

TEST_F(KbMergeTest, ConflictingDescriptionsKeepTheSmallerRow) {
  KbSpec a, b;
  a.techniques = {{"tile", "memory", "zeta", "llm"}};
  b.techniques = {{"tile", "memory", "alpha", "llm"}};
  a.states = {{"memory.dram", "memory", "b"}};
  b.states = {{"memory.dram", "memory", "a"}};
  Store target = build(a);
  const Store source = build(b);
  merge(target, source);
  const KbContents m = contents(target);
  ASSERT_EQ(m.techniques.size(), 1u);
  EXPECT_EQ(m.techniques[0].description, "alpha");
  ASSERT_EQ(m.states.size(), 1u);
  EXPECT_EQ(m.states[0].description, "a");
}

TEST_F(KbMergeTest, BestKernelTieBreaksOnSourceThenResult) {
  KbSpec a, b;
  a.offers = {{"gemm", "same", "{\"r\": 2}", 2.0}, {"conv", "zz", "{}", 3.0}};
  b.offers = {{"gemm", "same", "{\"r\": 1}", 2.0}, {"conv", "aa", "{}", 3.0}};
  Store ab = build(a), ba = build(b);
  const Store sa = build(a), sb = build(b);
  merge(ab, sb);
  merge(ba, sa);
  EXPECT_EQ(json(ab), json(ba));
  Result<std::optional<BestKernel>> gemm = ab.best_kernel("gemm"), conv = ab.best_kernel("conv");
  ASSERT_TRUE(gemm.ok() && gemm->has_value() && conv.ok() && conv->has_value());
  EXPECT_EQ((*gemm)->result_json, "{\"r\": 1}");
  EXPECT_EQ((*conv)->source, "aa");
}

TEST_F(KbMergeTest, SameIdWithDifferentContentIsAnErrorAndChangesNothing) {
  KbSpec a, b;
  a.trajectories = {{"t1", "softmax", "sm_90", 5, {{0, "s", "tile", StepOutcome::faster, 0.5, 1}}}};
  b.trajectories = {
      {"t1", "softmax", "sm_90", 5, {{0, "s", "tile", StepOutcome::faster, 0.25, 1}}}};
  b.lessons = {{"l1", "s", "tile", "new", 1}};
  Store target = build(a);
  const Store source = build(b);
  const std::string before = json(target);
  Status st = merge_into(target, source);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.error().message.find("trajectory t1 differs"), std::string::npos)
      << st.error().message;
  EXPECT_EQ(json(target), before);
}

}  // namespace
}  // namespace kblaster
