#include "core/toml_text_guard.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "core/config_loader.h"
#include "test_paths.h"

namespace kblaster {
namespace {

using ::testing::HasSubstr;

TEST(TomlTextGuard, FindsTheCharactersThatSendToml33ToUndefinedBehaviour) {
  // The fuzzer's input: U+045A then U+0646.
  auto bad = find_unsafe_toml_character("\xd1\x9a\xd9\x86");
  ASSERT_TRUE(bad);
  EXPECT_EQ(bad->code_point, 0x045Au);
  auto later = find_unsafe_toml_character("a = 1\n# caf\xc3\xa9\n");  // U+00E9
  ASSERT_TRUE(later);
  EXPECT_EQ(later->code_point, 0xE9u);
  EXPECT_EQ(later->line, 2);
  EXPECT_EQ(later->column, 6);
  EXPECT_TRUE(find_unsafe_toml_character("\xe2\xbc\x80"));  // U+2F00, in the second range
  EXPECT_TRUE(find_unsafe_toml_character("\xef\xbb\xbd"));  // U+FEFD, the fuzzer's second find
}

TEST(TomlTextGuard, LeavesAsciiAndOtherCharactersAlone) {
  EXPECT_FALSE(find_unsafe_toml_character("name = \"softmax\" # ok\n"));
  EXPECT_FALSE(find_unsafe_toml_character(
      "# \xe2\x86\x92 \xc2\xa0 \xe3\x80\x80\n"));  // U+2192, U+00A0, U+3000
  EXPECT_FALSE(find_unsafe_toml_character("# \xe6\x97\xa5\xe6\x9c\xac\n"));  // U+65E5 U+672C
}

TEST(TomlTextGuard, AConfigHoldingOneIsAConfigErrorAtItsPlace) {
  testing::TempDir dir;
  dir.write("kblaster.toml", "[project]\n# caf\xc3\xa9\n");
  auto config = load_config(DirectoryTree(dir.path()));
  ASSERT_FALSE(config.ok());
  EXPECT_EQ(config.error().kind, ErrorKind::config);
  EXPECT_EQ(config.error().where, "kblaster.toml:2:6");
  EXPECT_THAT(config.error().message, HasSubstr("U+00E9"));
  EXPECT_THAT(config.error().message, HasSubstr("\\u00E9"));
}

}  // namespace
}  // namespace kblaster
