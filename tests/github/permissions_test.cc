#include "github/permissions.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace kblaster {
namespace {

TEST(Permissions, EachCallKblasterMakesNamesItsPermission) {
  EXPECT_EQ(required_permission("POST", "/repos/o/r/check-runs"), "checks: write");
  EXPECT_EQ(required_permission("PATCH", "https://ghe.example/api/v3/repos/o/r/check-runs/5"),
            "checks: write");
  EXPECT_EQ(required_permission("GET", "/repos/o/r/commits/abc/check-runs"), "checks: read");
  EXPECT_EQ(required_permission("POST", "/repos/o/r/issues/7/comments"), "issues: write");
  EXPECT_EQ(required_permission("PATCH", "/repos/o/r/issues/comments/99"), "issues: write");
  EXPECT_EQ(required_permission("GET", "/repos/o/r/issues/7/comments?per_page=100&page=2"),
            "issues: read");
  EXPECT_EQ(required_permission("POST", "/repos/o/r/pulls"), "pull-requests: write");
  EXPECT_EQ(required_permission("POST", "/repos/o/r/pulls/7/reviews"), "pull-requests: write");
  EXPECT_EQ(required_permission("POST", "/repos/o/r/git/blobs"), "contents: write");
  EXPECT_EQ(required_permission("PATCH", "/repos/o/r/git/refs/heads/kblaster/softmax"),
            "contents: write");
  EXPECT_EQ(required_permission("GET", "/repos/o/r"), "contents: read");
  EXPECT_EQ(required_permission("GET", "/user"), "");
}

TEST(Permissions, TheAdviceSaysWhatToAddAndWhyForksCannot) {
  const std::string advice =
      permission_advice("POST", "https://api.github.com/repos/o/r/check-runs");
  EXPECT_THAT(advice, ::testing::HasSubstr("GitHub refused POST /repos/o/r/check-runs"));
  EXPECT_THAT(advice, ::testing::HasSubstr("`permissions:` with `checks: write`"));
  EXPECT_THAT(advice, ::testing::HasSubstr("from a fork always gets a read-only GITHUB_TOKEN"));
}

}  // namespace
}  // namespace kblaster
