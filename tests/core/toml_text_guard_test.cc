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

// "a.a.a…" with `parts` parts.
std::string dotted(std::size_t parts) {
  std::string key = "a";
  for (std::size_t i = 1; i < parts; ++i) key += ".a";
  return key;
}

TEST(TomlTextGuard, FindsADottedKeyDeeperThanTheLimitInHeadersAndKeys) {
  auto header = find_deep_toml_key("[project]\n[" + dotted(65) + "]\n");
  ASSERT_TRUE(header);
  EXPECT_EQ(header->line, 2);
  EXPECT_EQ(header->column, 2);
  EXPECT_EQ(header->parts, 65u);
  EXPECT_TRUE(find_deep_toml_key(dotted(65) + " = 1\n"));
  EXPECT_TRUE(find_deep_toml_key("x = { " + dotted(65) + " = 1 }\n"));
  // Quoted parts and spaces around the dots still count.
  EXPECT_TRUE(find_deep_toml_key("[a" + std::string(70, ' ') + dotted(32) + " . \"q.r\" . '" +
                                 "s' ." + dotted(31) + "]\n"));
}

TEST(TomlTextGuard, LeavesRealConfigsFloatsStringsAndCommentsAlone) {
  EXPECT_FALSE(find_deep_toml_key(dotted(64) + " = 1\n"));
  EXPECT_FALSE(find_deep_toml_key(
      "[check]\nmin_effect = 0.015\nsizes = [1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5, 8.5]\n"));
  EXPECT_FALSE(find_deep_toml_key("s = \"" + dotted(200) + "\"\n# " + dotted(200) + "\n"));
  EXPECT_FALSE(find_deep_toml_key("s = \"\"\"\n" + dotted(200) + "\n\"\"\"\n"));
  EXPECT_FALSE(find_deep_toml_key("s =  + dotted(200) + \n"));
  EXPECT_FALSE(find_deep_toml_key("s = \"a\\\"" + dotted(200) + "\"\n"));  // an escaped quote
}

TEST(TomlTextGuard, AConfigWithAHugeDottedKeyIsAConfigErrorNotACrash) {
  testing::TempDir dir;
  dir.write("kblaster.toml", "[project]\n[" + dotted(50000) + "]\n");
  auto config = load_config(DirectoryTree(dir.path()));
  ASSERT_FALSE(config.ok());
  EXPECT_EQ(config.error().kind, ErrorKind::config);
  EXPECT_EQ(config.error().where, "kblaster.toml:2:2");
  EXPECT_THAT(config.error().message, HasSubstr("a dotted key of 65+ parts; at most 64"));
}

}  // namespace
}  // namespace kblaster
