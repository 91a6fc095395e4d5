#include "cli/revision_flags.h"

#include <cstdlib>

#include "core/bounded_read.h"
#include "core/input_limits.h"
#include "github/event_payload.h"

namespace kblaster {

void add_revision_flags(CLI::App& app, RevisionFlags& flags) {
  app.add_option("--base", flags.base, "Base revision: list the kernels that base..head hits");
  app.add_option("--head", flags.head, "Head revision (default HEAD when --base is given)");
  app.add_flag("--merge-base", flags.merge_base,
               "Compare head against the merge base of base and head (what a pull request shows)");
  app.add_flag("--event", flags.from_event,
               "Take base and head from the GitHub event ($GITHUB_EVENT_PATH, $GITHUB_EVENT_NAME)");
}

Result<std::optional<RequestedRange>> requested_range(const RevisionFlags& flags,
                                                      const EnvironmentLookup& env,
                                                      const FileReader& read) {
  if (flags.from_event) {
    if (!flags.base.empty() || !flags.head.empty())
      return Error::usage("give either --event or --base/--head, not both");
    const auto path = env("GITHUB_EVENT_PATH");
    const auto name = env("GITHUB_EVENT_NAME");
    if (!path || path->empty() || !name || name->empty())
      return Error::usage(
          "--event needs $GITHUB_EVENT_PATH and $GITHUB_EVENT_NAME (set by GitHub Actions)");
    const auto payload = read(*path);
    if (!payload) return Error::usage("cannot read the event payload " + *path);
    auto event = parse_event(*name, *payload, *path);
    if (!event) return event.error();
    return std::optional<RequestedRange>(
        RequestedRange{event->base, event->head, *name + " event (" + *path + ")", *event});
  }
  if (flags.base.empty()) {
    if (!flags.head.empty()) return Error::usage("--head needs --base");
    if (flags.merge_base) return Error::usage("--merge-base needs --base (or --event)");
    return std::optional<RequestedRange>();
  }
  return std::optional<RequestedRange>(RequestedRange{
      flags.base, flags.head.empty() ? "HEAD" : flags.head, "--base/--head", std::nullopt});
}

Result<std::optional<RequestedRange>> requested_range(const RevisionFlags& flags) {
  const EnvironmentLookup env = process_environment;
  std::optional<Error> unread;  // why the payload was not read, naming the file and the limit
  const FileReader read = [&unread](const std::string& path) -> std::optional<std::string> {
    auto text = read_bounded(path, kMaxEventBytes, "$GITHUB_EVENT_PATH");
    if (!text) unread = text.error();
    return text ? std::optional<std::string>(std::move(*text)) : std::nullopt;
  };
  auto range = requested_range(flags, env, read);
  if (!range && unread) return *unread;
  return range;
}

}  // namespace kblaster
