#include "support/webhook_payloads.h"

namespace kblaster::testing {

namespace {

using nlohmann::json;

const std::string kNoCommit(40, '0');

json person(const Account& account) {
  return {{"name", account.login},
          {"email", account.login + "@users.noreply.github.com"},
          {"username", account.login}};
}

json commit_json(const GitHubSite& site, const PushFacts& push, const PushedCommit& c) {
  return {{"id", c.id},
          {"tree_id", c.tree_id},
          {"distinct", true},
          {"message", c.message},
          {"timestamp", github_time(c.time)},
          {"url", site.web_url + "/" + push.repo.full_name() + "/commit/" + c.id},
          {"author", person(push.pusher)},
          {"committer", person(push.pusher)},
          {"added", c.added},
          {"removed", c.removed},
          {"modified", c.modified}};
}

}  // namespace

std::string webhook_name(PullRequestAction action) {
  return action == PullRequestAction::opened ? "pull-request-opened" : "pull-request-synchronize";
}

json pull_request_event(const GitHubSite& site, const PullFacts& pull, PullRequestAction action,
                        const std::string& before) {
  json event = {{"action", action == PullRequestAction::opened ? "opened" : "synchronize"},
                {"number", pull.number},
                {"pull_request", pull_request_json(site, pull)},
                {"repository", repository_json(site, pull.base_repo)},
                {"sender", user_json(site, pull.author)}};
  if (action == PullRequestAction::synchronize) {
    event["before"] = before;
    event["after"] = pull.head_sha;
  }
  return event;
}

json push_event(const GitHubSite& site, const PushFacts& push) {
  json commits = json::array();
  for (const PushedCommit& c : push.commits) commits.push_back(commit_json(site, push, c));
  json repository = repository_json(site, push.repo);
  repository["created_at"] = 1767607200;  // the push event writes these two as epoch seconds
  repository["pushed_at"] = push.commits.empty() ? 1796198400 : push.commits.back().time;
  const std::string short_before = push.before.substr(0, 12);
  const std::string short_after = push.after.substr(0, 12);
  return {
      {"ref", push.ref},
      {"before", push.before},
      {"after", push.after},
      {"created", push.before == kNoCommit},
      {"deleted", push.after == kNoCommit},
      {"forced", push.forced},
      {"base_ref", nullptr},
      {"compare",
       site.web_url + "/" + push.repo.full_name() +
           (push.before == kNoCommit ? "/commit/" + short_after
                                     : "/compare/" + short_before + "..." + short_after)},
      {"commits", commits},
      {"head_commit", commits.empty() ? json() : commits.back()},
      {"repository", repository},
      {"pusher",
       {{"name", push.pusher.login}, {"email", push.pusher.login + "@users.noreply.github.com"}}},
      {"sender", user_json(site, push.pusher)}};
}

}  // namespace kblaster::testing
