#include "gpu/content_hash.h"

#include <gtest/gtest.h>

namespace kblaster {
namespace {

TEST(ContentHash, MatchesKnownSha256Vectors) {
  EXPECT_EQ(sha256_hex("").value(),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(sha256_hex("abc").value(),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST(ContentHash, IncrementalUpdatesEqualOneShot) {
  Sha256 hasher;
  hasher.update("a");
  hasher.update("");
  hasher.update("bc");
  EXPECT_EQ(hasher.finish().value(), sha256_hex("abc").value());
}

TEST(ContentHash, FieldsAreFramedSoBoundariesMatter) {
  Sha256 one, two;
  one.add_field("ab");
  one.add_field("c");
  two.add_field("a");
  two.add_field("bc");
  EXPECT_NE(one.finish().value(), two.finish().value());
}

TEST(ContentHash, FinishingTwiceIsAnError) {
  Sha256 hasher;
  ASSERT_TRUE(hasher.finish().ok());
  auto again = hasher.finish();
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(again.error().kind, ErrorKind::internal);
}

}  // namespace
}  // namespace kblaster
