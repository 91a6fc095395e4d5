// Whether kblaster may run a GitHub event's code on this runner. A pull request
// from a fork, and any pull_request_target event (which runs with the base
// repository's secrets and write token), bring code from whoever opened the PR;
// on a self-hosted runner that code would run next to the runner's secrets.
// They are refused unless the user opts in by name (docs/security.md).
#pragma once

#include "core/status.h"
#include "github/event_payload.h"

namespace kblaster {

// The user's answer to "run code from people outside this repository?".
enum class UntrustedCode {
  refuse,  // the default
  allow,   // --allow-untrusted: the user accepts the risk for this runner
};

// Ok when `event` may run here under `policy`; otherwise Error::usage saying
// why the event is refused and how to run it safely, naming --allow-untrusted.
Status check_event_trust(const EventRevisions& event, UntrustedCode policy);

}  // namespace kblaster
