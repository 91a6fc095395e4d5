// Where the revisions a command compares come from: --base/--head, or the
// GitHub Actions event (--event: $GITHUB_EVENT_PATH and $GITHUB_EVENT_NAME).
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "cli/command.h"
#include "core/environment.h"
#include "core/status.h"
#include "github/event_payload.h"

namespace kblaster {

struct RevisionFlags {
  std::string base;
  std::string head;
  bool merge_base = false;  // compare against the merge base of base and head
  bool from_event = false;  // read base and head from the GitHub event
};
void add_revision_flags(CLI::App& app, RevisionFlags& flags);

// The revisions asked for. `base` is nullopt for a push that created its branch.
struct RequestedRange {
  std::optional<std::string> base;
  std::string head;
  std::string source;  // for messages: "--base/--head", "pull_request event (/path/event.json)"
  std::optional<EventRevisions> event;  // set when the range came from a GitHub event
};

using FileReader = std::function<std::optional<std::string>(const std::string& path)>;

// nullopt when no range was asked for (plain `kblaster plan`). Usage errors for
// half a range, --event without $GITHUB_EVENT_PATH, or an unreadable payload.
Result<std::optional<RequestedRange>> requested_range(const RevisionFlags& flags,
                                                      const EnvironmentLookup& env,
                                                      const FileReader& read);
// The same, with this process's environment and files.
Result<std::optional<RequestedRange>> requested_range(const RevisionFlags& flags);

}  // namespace kblaster
