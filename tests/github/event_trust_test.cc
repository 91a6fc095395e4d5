#include "github/event_trust.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace kblaster {
namespace {

using ::testing::HasSubstr;

EventRevisions event(std::string name, bool from_fork) {
  EventRevisions e;
  e.event = std::move(name);
  e.base = std::string(40, 'a');
  e.head = std::string(40, 'b');
  e.from_fork = from_fork;
  return e;
}

TEST(EventTrust, APullRequestFromTheSameRepositoryAndAPushMayRun) {
  EXPECT_TRUE(check_event_trust(event("pull_request", false), UntrustedCode::refuse).ok());
  EXPECT_TRUE(check_event_trust(event("push", false), UntrustedCode::refuse).ok());
}

TEST(EventTrust, AForkPullRequestIsRefusedWithTheReasonAndTheOptIn) {
  const Status s = check_event_trust(event("pull_request", true), UntrustedCode::refuse);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().kind, ErrorKind::usage);
  EXPECT_THAT(s.error().message, HasSubstr("comes from a fork"));
  EXPECT_THAT(s.error().message, HasSubstr("--allow-untrusted"));
  EXPECT_THAT(s.error().message, HasSubstr("workflow_run"));
  EXPECT_TRUE(check_event_trust(event("pull_request", true), UntrustedCode::allow).ok());
}

TEST(EventTrust, PullRequestTargetIsRefusedEvenFromTheSameRepository) {
  const Status s = check_event_trust(event("pull_request_target", false), UntrustedCode::refuse);
  ASSERT_FALSE(s.ok());
  EXPECT_THAT(s.error().message, HasSubstr("pull_request_target"));
  EXPECT_THAT(s.error().message, HasSubstr("secrets"));
  EXPECT_TRUE(check_event_trust(event("pull_request_target", false), UntrustedCode::allow).ok());
}

}  // namespace
}  // namespace kblaster
