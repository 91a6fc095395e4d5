// The revisions a GitHub Actions event asks kblaster to compare, read from the
// event payload (the JSON file at $GITHUB_EVENT_PATH) and the event name
// ($GITHUB_EVENT_NAME).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "core/status.h"

namespace kblaster {

struct EventRevisions {
  std::string event;                // "pull_request", "pull_request_target" or "push"
  std::optional<std::string> base;  // nullopt: a push that created the branch (no before)
  std::string head;
  // A pull request whose head lives in another repository, or in none any more.
  bool from_fork = false;
  std::optional<std::int64_t> number;  // the pull request's number; nullopt for a push
};

// For pull_request(_target): base.sha and head.sha of the pull request (not the
// merge commit GitHub checks out); for push: before and after. `source` names
// the payload in messages. Fails with Error::usage for other events, for a
// payload without the fields the event must have, and for a sha field that is
// not a full object id (40 or 64 hex digits), so no revision expression gets through.
Result<EventRevisions> parse_event(const std::string& event_name, const std::string& payload,
                                   const std::string& source);

}  // namespace kblaster
