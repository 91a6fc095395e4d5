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

// A full object id: 40 hex digits (SHA-1) or 64 (SHA-256), as GitHub writes them.
bool is_object_id(const std::string& text) {
  return (text.size() == 40 || text.size() == 64) &&
         text.find_first_not_of("0123456789abcdefABCDEF") == std::string::npos;
}

// The object id at `path`: a revision expression (`HEAD@{1}`, `:/text`, a branch)
// is refused, so the payload can only name commits, never ask git to search.
Result<std::string> object_id_at(const json& root, std::initializer_list<const char*> path,
                                 const std::string& source) {
  auto text = string_at(root, path, source);
  if (!text || is_object_id(*text)) return text;
  std::string dotted;
  for (const char* key : path) dotted.append(dotted.empty() ? "" : ".").append(key);
  constexpr std::size_t kShown = 80;  // a long value is cut in the message
  const std::string shown = text->size() > kShown ? text->substr(0, kShown) + "…" : *text;
  return Error::usage(source + ": `" + dotted + "` is `" + shown +
                      "`, not an object id (40 or 64 hex digits); the event payload must name "
                      "commits by their full SHA");
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
    auto base = object_id_at(root, {"pull_request", "base", "sha"}, source);
    if (!base) return base.error();
    auto head = object_id_at(root, {"pull_request", "head", "sha"}, source);
    if (!head) return head.error();
    r.base = *base;
    r.head = *head;
    auto head_repo = string_at(root, {"pull_request", "head", "repo", "full_name"}, source);
    auto base_repo = string_at(root, {"pull_request", "base", "repo", "full_name"}, source);
    // A head repository that is missing (a fork deleted since) counts as another's.
    r.from_fork = !head_repo || !base_repo || *head_repo != *base_repo;
    const json& pull = root["pull_request"];
    if (pull.contains("number") && pull["number"].is_number_integer() &&
        pull["number"].get<std::int64_t>() > 0)
      r.number = pull["number"].get<std::int64_t>();
    return r;
  }
  if (event_name == "push") {
    auto before = object_id_at(root, {"before"}, source);
    if (!before) return before.error();
    auto after = object_id_at(root, {"after"}, source);
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
