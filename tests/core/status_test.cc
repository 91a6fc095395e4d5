// The exit code each kind of Error ends the process with (README, "Exit codes").
#include "core/status.h"

#include <gtest/gtest.h>

namespace kblaster {
namespace {

TEST(ExitCodeFor, UnexpectedFailuresExitFourNotThree) {
  EXPECT_EQ(exit_code_for(ErrorKind::usage), ExitCode::bad_config);
  EXPECT_EQ(exit_code_for(ErrorKind::config), ExitCode::bad_config);
  EXPECT_EQ(exit_code_for(ErrorKind::environment), ExitCode::missing_environment);
  EXPECT_EQ(exit_code_for(ErrorKind::io), ExitCode::internal_error)
      << "an unexpected failure (a harness breaking protocol, say) must not read as a missing "
         "GPU, which CI may take for a skip";
  EXPECT_EQ(exit_code_for(ErrorKind::internal), ExitCode::internal_error);
}

TEST(ExitCodeFor, ARemoteServiceFailingExitsFiveNotAsABug) {
  EXPECT_EQ(exit_code_for(ErrorKind::remote), ExitCode::remote_failure);
  EXPECT_EQ(to_int(ExitCode::remote_failure), 5)
      << "GitHub or an LLM API failing is neither kblaster's bug (4) nor a missing GPU (3)";
}

}  // namespace
}  // namespace kblaster
