#include "github/event_payload.h"

#include <nlohmann/json.hpp>

namespace kblaster {
namespace {

using nlohmann::json;

// The string at `path` (e.g. {"pull_request", "base", "sha"}), or an Error naming it.
Result<std::string> string_at(const json& root, std::initializer_list<const char*> path,
                              const std::string& source) {
  const json* node = &root;
  std::string dotted;
  for (const char* key : path) {
    dotted.append(dotted.empty() ? "" : ".").append(key);
    if (!node->is_object() || !node->contains(key))
      return Error::usage(source + ": the event payload has no `" + dotted + "`");
    node = &(*node)[key];
  }
  if (!node->is_string()) return Error::usage(source + ": `" + dotted + "` is not a string");
  return node->get<std::string>();
}

bool is_zero_sha(const std::string& sha) {
  return !sha.empty() && sha.find_first_not_of('0') == std::string::npos;
}

}  // namespace

Result<EventRevisions> parse_event(const std::string& event_name, const std::string& payload,
                                   const std::string& source) {
  const json root = json::parse(payload, nullptr, /*allow_exceptions=*/false);
  if (root.is_discarded()) return Error::usage(source + ": the event payload is not valid JSON");
  EventRevisions r;
  r.event = event_name;
  if (event_name == "pull_request" || event_name == "pull_request_target") {
    auto base = string_at(root, {"pull_request", "base", "sha"}, source);
    if (!base) return base.error();
    auto head = string_at(root, {"pull_request", "head", "sha"}, source);
    if (!head) return head.error();
    r.base = *base;
    r.head = *head;
    auto head_repo = string_at(root, {"pull_request", "head", "repo", "full_name"}, source);
    auto base_repo = string_at(root, {"pull_request", "base", "repo", "full_name"}, source);
    r.from_fork = head_repo && base_repo && *head_repo != *base_repo;
    return r;
  }
  if (event_name == "push") {
    auto before = string_at(root, {"before"}, source);
    if (!before) return before.error();
    auto after = string_at(root, {"after"}, source);
    if (!after) return after.error();
    if (!is_zero_sha(*before)) r.base = *before;
    r.head = *after;
    return r;
  }
  return Error::usage("event `" + event_name +
                      "` has no revisions to compare; kblaster reads pull_request, "
                      "pull_request_target and push events (or give --base and --head)");
}

}  // namespace kblaster
