// Base64 as GitHub's git data API sends and takes a blob: RFC 4648's test vectors, every
// byte value through and back, GitHub's 60-column line breaks, and what is refused.
#include "core/base64.h"

#include <gtest/gtest.h>

namespace kblaster {
namespace {

TEST(Base64, EncodesRfc4648sVectors) {
  EXPECT_EQ(base64_encode(""), "");
  EXPECT_EQ(base64_encode("f"), "Zg==");
  EXPECT_EQ(base64_encode("fo"), "Zm8=");
  EXPECT_EQ(base64_encode("foo"), "Zm9v");
  EXPECT_EQ(base64_encode("foob"), "Zm9vYg==");
  EXPECT_EQ(base64_encode("fooba"), "Zm9vYmE=");
  EXPECT_EQ(base64_encode("foobar"), "Zm9vYmFy");
}

TEST(Base64, EveryByteValueGoesThroughAndBack) {
  std::string bytes;
  for (int i = 0; i < 256; ++i) bytes += static_cast<char>(i);
  bytes += bytes.substr(0, 7);  // a length that needs padding
  const auto back = base64_decode(base64_encode(bytes));
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(*back, bytes);
}

TEST(Base64, DecodingSkipsGitHubsLineBreaks) {
  EXPECT_EQ(base64_decode("Zm9v\nYmFy\n"), "foobar");
  EXPECT_EQ(base64_decode("Zm9vYg==\n"), "foob");
}

TEST(Base64, RefusesCharactersOutsideTheAlphabetAndDataAfterPadding) {
  EXPECT_FALSE(base64_decode("Zm9v!").has_value());
  EXPECT_FALSE(base64_decode("Zg==Zg==").has_value());
}

}  // namespace
}  // namespace kblaster
