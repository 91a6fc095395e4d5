// The verification flags every GPU command shares: --seed, --seeds, --timeout.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "cli/step_flags.h"
#include "eval/verify_step.h"

namespace kblaster {
namespace {

using ::testing::HasSubstr;

TEST(VerifyFlags, TheTimeoutFloorIsAppliedAndStatedInHelp) {
  CLI::App app;
  VerifyFlags flags;
  add_verify_flags(app, flags, 60.0);
  app.parse(std::vector<std::string>{"10", "--timeout"});  // CLI11 parses a reversed argv
  EXPECT_DOUBLE_EQ(flags.timeout_s, 10.0);
  EXPECT_DOUBLE_EQ(request_timeout(flags), 60.0) << "timing needs at least the floor";
  EXPECT_THAT(app.help(), HasSubstr("this command waits at least 60"));

  CLI::App plain;
  VerifyFlags verify_only;
  add_verify_flags(plain, verify_only);
  plain.parse(std::vector<std::string>{"10", "--timeout"});
  EXPECT_DOUBLE_EQ(request_timeout(verify_only), 10.0) << "no floor: --timeout as given";
  EXPECT_THAT(plain.help(), ::testing::Not(HasSubstr("waits at least")));
}

TEST(VerifyFlags, ATimeoutThatIsNotPositiveIsRejected) {
  for (const char* bad : {"0", "-1", "soon"}) {
    CLI::App app;
    VerifyFlags flags;
    add_verify_flags(app, flags);
    EXPECT_THROW(app.parse(std::vector<std::string>{bad, "--timeout"}), CLI::ValidationError)
        << bad;
  }
}

TEST(VerifyFlags, VerificationSeedsFollowSeedOrTheCommandsDefault) {
  VerifyFlags flags;
  flags.seeds = 3;
  EXPECT_EQ(verification_seeds(flags, 1007), (std::vector<std::uint64_t>{1007, 1008, 1009}))
      << "without --seed, from the command's default (optimize's: search seed 7 + 1000)";
  flags.seed_base = 42;
  flags.seeds = 4;
  EXPECT_EQ(verification_seeds(flags, 1007), (std::vector<std::uint64_t>{42, 43, 44, 45}))
      << "--seed sets the first verification seed";
}

}  // namespace
}  // namespace kblaster
