// What publishing reads from a pull_request event beyond its revisions: the PR's
// number, and whether its head is someone else's.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "github/event_payload.h"

namespace kblaster {
namespace {

nlohmann::json pull_request_event(const nlohmann::json& head_repo) {
  return {{"action", "synchronize"},
          {"number", 42},
          {"pull_request",
           {{"number", 42},
            {"base", {{"sha", std::string(40, 'a')}, {"repo", {{"full_name", "acme/kernels"}}}}},
            {"head", {{"sha", std::string(40, 'b')}, {"repo", head_repo}}}}}};
}

TEST(EventPullNumber, APullRequestEventNamesItsNumber) {
  auto e = parse_event("pull_request", pull_request_event({{"full_name", "acme/kernels"}}).dump(),
                       "event.json");
  ASSERT_TRUE(e.ok()) << e.error().message;
  EXPECT_EQ(e->number, 42);
  EXPECT_FALSE(e->from_fork);
  auto push = parse_event(
      "push",
      nlohmann::json{{"before", std::string(40, 'a')}, {"after", std::string(40, 'b')}}.dump(),
      "event.json");
  ASSERT_TRUE(push.ok());
  EXPECT_FALSE(push->number);
}

TEST(EventPullNumber, AHeadFromADeletedForkIsStillSomeoneElses) {
  auto e = parse_event("pull_request", pull_request_event(nullptr).dump(), "event.json");
  ASSERT_TRUE(e.ok()) << e.error().message;
  EXPECT_TRUE(e->from_fork) << "GitHub sends head.repo null once the fork is deleted";
}

}  // namespace
}  // namespace kblaster
