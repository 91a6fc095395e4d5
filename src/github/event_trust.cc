#include "github/event_trust.h"

namespace kblaster {

Status check_event_trust(const EventRevisions& event, UntrustedCode policy) {
  if (policy == UntrustedCode::allow) return Ok{};
  std::string why;
  if (event.event == "pull_request_target")
    why =
        "a pull_request_target event runs with the base repository's secrets and a write "
        "token, while the code to build comes from the pull request's author";
  else if (event.from_fork)
    why =
        "this pull request comes from a fork, so its kernels, headers and kblaster.toml come "
        "from someone outside the repository";
  if (why.empty()) return Ok{};
  return Error::usage(
      "refusing to build or run this event's code: " + why +
      ". On a self-hosted runner that code would run beside the runner's secrets and "
      "later jobs. Run kblaster on `pull_request` from the same repository, or build fork PRs "
      "in a `pull_request` job without secrets and publish from a `workflow_run` job "
      "(docs/security.md). To run it anyway on a runner you can afford to lose, pass "
      "--allow-untrusted.");
}

}  // namespace kblaster
