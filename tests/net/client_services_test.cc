// The real retry services: the wall clock, a real (short) sleep and the jitter's range.
#include "net/client_services.h"

#include <gtest/gtest.h>

#include <ctime>

namespace kblaster {
namespace {

TEST(RealClientServices, TellUnixTimeSleepAndDrawJitterInRange) {
  SteadyClock clock;
  std::string logged;
  HttpClientServices services =
      real_client_services(clock, 42, [&](const std::string& line) { logged = line; });
  EXPECT_NEAR(services.unix_seconds(), static_cast<double>(std::time(nullptr)), 2);
  const double before = clock.now_seconds();
  services.sleep(0.02);
  EXPECT_GE(clock.now_seconds() - before, 0.02);
  for (int i = 0; i < 1000; ++i) {
    const double j = services.jitter();
    ASSERT_GE(j, 0);
    ASSERT_LT(j, 1);
  }
  services.log("line");
  EXPECT_EQ(logged, "line");
}

}  // namespace
}  // namespace kblaster
