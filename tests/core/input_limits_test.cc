#include "core/input_limits.h"

#include <gtest/gtest.h>

#include "test_paths.h"

namespace kblaster {
namespace {

TEST(InputLimits, QuotedKeepsShortTextAndCutsLongTextOnACharacterBoundary) {
  EXPECT_EQ(quote_input("short"), "`short`");
  EXPECT_EQ(quote_input(std::string(100, 'a')), "`" + std::string(61, 'a') + "...`");
  const std::string accents = "a" + std::string(59, 'b') + "\xC3\xA9\xC3\xA9\xC3\xA9" + "tail";
  EXPECT_EQ(quote_input(accents), "`a" + std::string(59, 'b') + "...`")
      << "the cut backs up to the start of the two-byte character";
}

// docs/config.md lists every limit with its value; a changed constant must change the page.
TEST(InputLimits, TheConfigReferenceListsEachLimitWithItsValue) {
  const std::string page = testing::read_text(testing::source_dir() / "docs/config.md");
  ASSERT_FALSE(page.empty());
  auto row = [](const char* name, std::uintmax_t value, const char* unit) {
    return "| `" + std::string(name) + "` | " + std::to_string(value) + " " + unit + " |";
  };
  for (const std::string& expected :
       {row("kMaxNameLength", kMaxNameLength, "characters"),
        row("kMaxKernelNameLength", kMaxKernelNameLength, "characters"),
        row("kMaxExpressionLength", kMaxExpressionLength, "characters"),
        row("kMaxExpressionDepth", kMaxExpressionDepth, "levels"),
        row("kMaxGlobLength", kMaxGlobLength, "characters"),
        row("kMaxCsvBytes", kMaxCsvBytes / kMiB, "MiB"),
        row("kMaxSourceBytes", kMaxSourceBytes / kMiB, "MiB"),
        row("kMaxEventBytes", kMaxEventBytes / kMiB, "MiB"),
        row("kMaxJsonBytes", kMaxJsonBytes / kMiB, "MiB")})
    EXPECT_NE(page.find(expected), std::string::npos) << "docs/config.md lacks " << expected;
}

}  // namespace
}  // namespace kblaster
