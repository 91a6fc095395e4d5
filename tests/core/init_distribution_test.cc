#include "core/init_distribution.h"

#include <gtest/gtest.h>

namespace kblaster {
namespace {

TEST(InitDistribution, ReadsEachFormWithSpacesAnywhereBetweenTokens) {
  auto normal = parse_init("normal");
  ASSERT_TRUE(normal.ok());
  EXPECT_EQ(normal->kind, InitDist::Kind::normal);
  auto spaced = parse_init("  uniform ( -1.5 ,\t2e1 )  ");
  ASSERT_TRUE(spaced.ok()) << spaced.error().message;
  EXPECT_EQ(spaced->kind, InitDist::Kind::uniform);
  EXPECT_DOUBLE_EQ(spaced->a, -1.5);
  EXPECT_DOUBLE_EQ(spaced->b, 20.0);
  auto randint = parse_init("randint(0,10)");
  ASSERT_TRUE(randint.ok());
  EXPECT_EQ(randint->kind, InitDist::Kind::randint);
  EXPECT_DOUBLE_EQ(randint->b, 10.0);
}

TEST(InitDistribution, OtherShapesAreNotDistributions) {
  for (const char* bad : {"", "gaussian", "normalx", "normal2", "uniform(1)", "uniform(1,2",
                          "uniform(1,2)x", "uniform(,2)", "randint(0;1)"}) {
    auto d = parse_init(bad);
    ASSERT_FALSE(d.ok()) << bad;
    const std::string text = bad;
    EXPECT_EQ(d.error().message, "`" + text +
                                     "` is not a distribution; use normal, normal(mean,std), "
                                     "uniform(lo,hi), randint(lo,hi), generator(function) or "
                                     "state(name)");
  }
  auto prefix = parse_init("uniform(1-2,3)");
  ASSERT_FALSE(prefix.ok()) << "a bound is one whole number, not a number and a tail";
  EXPECT_EQ(prefix.error().message, "`uniform(1-2,3)` has a malformed number");
}

// The regex this replaced recursed per character: 50,000 spaces or digits overflowed the stack.
TEST(InitDistribution, FiftyThousandCharactersAreScannedWithoutRecursion) {
  const std::string spaces(50'000, ' ');
  EXPECT_TRUE(parse_init(spaces + "normal" + spaces).ok());
  auto zeros = parse_init("uniform(0," + std::string(50'000, '0') + "1)");
  ASSERT_TRUE(zeros.ok()) << zeros.error().message;
  EXPECT_DOUBLE_EQ(zeros->b, 1.0);
  auto huge = parse_init("uniform(0," + std::string(50'000, '1') + ")");
  ASSERT_FALSE(huge.ok()) << "a bound beyond a double";
  EXPECT_LT(huge.error().message.size(), 200u) << "the message quotes an excerpt";
  auto long_name = parse_init(std::string(50'000, 'n'));
  ASSERT_FALSE(long_name.ok());
  EXPECT_EQ(long_name.error().message.substr(0, 5), "`nnnn");
  EXPECT_LT(long_name.error().message.size(), 200u) << "the message quotes an excerpt";
}

// Issue 22, point 6: inputs with a structure of their own come from a function in the
// reference's file.
TEST(InitDistribution, AGeneratorNamesAFunctionInTheReferencesFile) {
  auto g = parse_init("generator(fill_softmax_input)");
  ASSERT_TRUE(g.ok()) << g.error().message;
  EXPECT_EQ(g->kind, InitDist::Kind::generator);
  EXPECT_EQ(g->generator, "fill_softmax_input");
  auto inf = parse_init("normal(inf,1)");
  ASSERT_FALSE(inf.ok()) << "a bound is a decimal number or a constant's name";
  EXPECT_EQ(inf.error().message,
            "`normal(inf,1)` uses `inf`, which is not one of the kernel's constants");
  auto bad = parse_init("generator(fill inputs)");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().message,
            "`generator(fill inputs)`: a generator is a function name, as in "
            "generator(fill_inputs)");
}

// A PyTorch Model's own tensor, by its state_dict name: identifiers and indices joined by dots.
TEST(InitDistribution, AStateNamesATensorOfTheModelsStateDict) {
  for (const char* name : {"conv.weight", "layers.0.bias", "scale", "bn.running_mean"}) {
    auto s = parse_init(std::string("state(") + name + ")");
    ASSERT_TRUE(s.ok()) << name << ": " << s.error().message;
    EXPECT_EQ(s->kind, InitDist::Kind::state);
    EXPECT_EQ(s->state, name);
  }
  for (const char* bad : {"state()", "state(conv..weight)", "state(.w)", "state(w.)",
                          "state(conv weight)", "state(a/b)"}) {
    auto s = parse_init(bad);
    ASSERT_FALSE(s.ok()) << bad;
    EXPECT_EQ(s.error().message, "`" + std::string(bad) +
                                     "`: a state is a name in the PyTorch Model's state_dict, "
                                     "as in state(conv.weight)");
  }
}

}  // namespace
}  // namespace kblaster
