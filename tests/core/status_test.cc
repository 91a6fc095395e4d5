// The exit code each kind of Error ends the process with (README, "Exit codes").
#include "core/status.h"

#include <gtest/gtest.h>

namespace kblaster {
namespace {

TEST(ExitCodeFor, OnlyABugInKblasterExitsFour) {
  EXPECT_EQ(exit_code_for(ErrorKind::usage), ExitCode::bad_config);
  EXPECT_EQ(exit_code_for(ErrorKind::config), ExitCode::bad_config);
  EXPECT_EQ(exit_code_for(ErrorKind::environment), ExitCode::missing_environment);
  EXPECT_EQ(exit_code_for(ErrorKind::io), ExitCode::missing_environment)
      << "an unreadable or unwritable file is the machine's problem, not a bug";
  EXPECT_EQ(exit_code_for(ErrorKind::internal), ExitCode::internal_error);
}

}  // namespace
}  // namespace kblaster
