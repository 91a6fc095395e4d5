// FakeGitHub's check-run routes: create and update (annotations appended, at most 50 a
// request, as on GitHub), read one, list its annotations, list a commit's runs.
#include "support/fake_github_state.h"

namespace kblaster::testing {

namespace {

using nlohmann::json;

const char* kChecksDocs = "https://docs.github.com/rest/checks/runs";
const std::size_t kMaxAnnotations = 50;  // a request; more is GitHub's 422
const std::size_t kMaxOutputText = 65535;

json check_run_json(FakeGitHubState& state, const FakeCheckRun& run) {
  const std::string url = state.api_root() + "/check-runs/" + std::to_string(run.id);
  const auto opt = [](const std::optional<std::string>& s) { return s ? json(*s) : json(); };
  json pulls = json::array();
  for (const PullFacts& p : state.pulls) {
    if (p.head_sha != run.head_sha || p.state != "open") continue;
    const json repo = {{"id", stable_id("repo:" + state.repo.full_name())},
                       {"url", state.api_root()},
                       {"name", state.repo.name}};
    pulls.push_back(
        {{"id", stable_id("pull:" + state.repo.full_name() + "#" + std::to_string(p.number))},
         {"number", p.number},
         {"url", state.api_root() + "/pulls/" + std::to_string(p.number)},
         {"head", {{"ref", p.head_ref}, {"sha", p.head_sha}, {"repo", repo}}},
         {"base", {{"ref", p.base_ref}, {"sha", p.base_sha}, {"repo", repo}}}});
  }
  return {{"id", run.id},
          {"node_id", "CR_kwDO" + std::to_string(run.id)},
          {"head_sha", run.head_sha},
          {"external_id", run.external_id.value_or("")},
          {"url", url},
          {"html_url",
           state.site.web_url + "/" + state.repo.full_name() + "/runs/" + std::to_string(run.id)},
          {"details_url", opt(run.details_url)},
          {"status", run.status},
          {"conclusion", opt(run.conclusion)},
          {"started_at", github_time(run.started_at)},
          {"completed_at", run.completed_at ? json(github_time(*run.completed_at)) : json()},
          {"output",
           {{"title", opt(run.title)},
            {"summary", opt(run.summary)},
            {"text", opt(run.text)},
            {"annotations_count", run.annotations.size()},
            {"annotations_url", url + "/annotations"}}},
          {"name", run.name},
          {"check_suite", {{"id", stable_id("suite:" + run.head_sha)}}},
          {"app", actions_app_json(state.site)},
          {"pull_requests", pulls}};
}

// Applies the fields a create or update may carry; a 422 as GitHub words it, or nothing.
std::optional<Reply> apply(FakeGitHubState& state, FakeCheckRun& run, const json& body) {
  const auto text = [&](const char* field) -> std::optional<std::string> {
    if (!body.contains(field) || !body[field].is_string()) return std::nullopt;
    return body[field].get<std::string>();
  };
  if (auto v = text("name")) run.name = *v;
  if (auto v = text("details_url")) run.details_url = v;
  if (auto v = text("external_id")) run.external_id = v;
  if (auto v = text("status")) run.status = *v;
  if (auto v = text("conclusion")) run.conclusion = v, run.status = "completed";
  if (run.status == "completed" && !run.conclusion)
    return invalid("CheckRun", "conclusion", "missing_field", kChecksDocs);
  if (run.status == "completed" && !run.completed_at) run.completed_at = state.clock;

  if (!body.contains("output")) return std::nullopt;
  const json& output = body["output"];
  if (!output.is_object() || !output.contains("title") || !output["title"].is_string() ||
      !output.contains("summary") || !output["summary"].is_string())
    return invalid("CheckRun", "output", "missing_field", kChecksDocs);
  for (const char* field : {"summary", "text"})
    if (output.contains(field) && output[field].is_string() &&
        output[field].get<std::string>().size() > kMaxOutputText)
      return invalid("CheckRun", std::string("output.") + field, "custom", kChecksDocs,
                     std::string("output.") + field + " is too long (maximum is " +
                         std::to_string(kMaxOutputText) + " characters)");
  const json annotations = output.value("annotations", json::array());
  if (annotations.size() > kMaxAnnotations)
    return invalid(
        "CheckRun", "output.annotations", "too_many", kChecksDocs,
        "Only " + std::to_string(kMaxAnnotations) + " annotations are allowed per request");
  for (const json& a : annotations)
    for (const char* field : {"path", "start_line", "end_line", "annotation_level", "message"})
      if (!a.is_object() || !a.contains(field))
        return invalid("CheckRun", std::string("output.annotations.") + field, "missing_field",
                       kChecksDocs);
  run.title = output["title"].get<std::string>();
  run.summary = output["summary"].get<std::string>();
  if (output.contains("text") && output["text"].is_string()) run.text = output["text"];
  run.annotations.insert(run.annotations.end(), annotations.begin(), annotations.end());
  return std::nullopt;
}

FakeCheckRun* find_run(FakeGitHubState& state, const std::string& id) {
  for (FakeCheckRun& r : state.check_runs)
    if (std::to_string(r.id) == id) return &r;
  return nullptr;
}

Reply create_run(FakeGitHubState& state, const Call& call) {
  for (const char* field : {"name", "head_sha"})
    if (!call.body.is_object() || !call.body.contains(field) || !call.body[field].is_string())
      return invalid("CheckRun", field, "missing_field", kChecksDocs);
  const std::string sha = call.body["head_sha"];
  if (!state.commits.contains(sha))
    return problem(422, "No commit found for SHA: " + sha, kChecksDocs);
  FakeCheckRun run{.id = state.new_id(), .head_sha = sha, .writes = 1, .started_at = state.tick()};
  if (auto error = apply(state, run, call.body)) return *error;
  state.check_runs.push_back(run);
  return {.status = 201, .body = check_run_json(state, state.check_runs.back())};
}

Reply update_run(FakeGitHubState& state, const Call& call) {
  FakeCheckRun* stored = find_run(state, call.params[0]);
  if (!stored) return not_found();
  if (!call.body.is_object()) return invalid("CheckRun", "body", "invalid", kChecksDocs);
  FakeCheckRun run = *stored;  // a rejected update changes nothing
  state.tick();
  if (auto error = apply(state, run, call.body)) return *error;
  ++run.writes;
  *stored = run;
  return {.body = check_run_json(state, *stored)};
}

Reply get_run(FakeGitHubState& state, const Call& call) {
  FakeCheckRun* run = find_run(state, call.params[0]);
  return run ? Reply{.body = check_run_json(state, *run)} : not_found();
}

// `check-annotation` for each stored annotation, in pages.
Reply list_annotations(FakeGitHubState& state, const Call& call) {
  FakeCheckRun* run = find_run(state, call.params[0]);
  if (!run) return not_found();
  json all = json::array();
  for (const json& a : run->annotations)
    all.push_back({{"path", a["path"]},
                   {"blob_href", state.site.web_url + "/" + state.repo.full_name() + "/blob/" +
                                     run->head_sha + "/" + a["path"].get<std::string>()},
                   {"start_line", a["start_line"]},
                   {"end_line", a["end_line"]},
                   {"start_column", a.value("start_column", json())},
                   {"end_column", a.value("end_column", json())},
                   {"annotation_level", a["annotation_level"]},
                   {"title", a.value("title", json())},
                   {"message", a["message"]},
                   {"raw_details", a.value("raw_details", json())}});
  return page_of(state, call, all);
}

// {"total_count", "check_runs"} for a sha or branch, filtered by check_name and status.
Reply list_for_ref(FakeGitHubState& state, const Call& call) {
  const auto sha = resolve_commit(state, call.params[0]);
  if (!sha) return problem(422, "No commit found for SHA: " + call.params[0], kChecksDocs);
  json all = json::array();
  for (const FakeCheckRun& run : state.check_runs)
    if (run.head_sha == *sha && call.query_value("check_name", run.name) == run.name &&
        call.query_value("status", run.status) == run.status)
      all.push_back(check_run_json(state, run));
  Reply page = page_of(state, call, all);
  page.body = {{"total_count", all.size()}, {"check_runs", page.body}};
  return page;
}

}  // namespace

const std::vector<Route>& check_routes() {
  static const std::vector<Route> kRoutes = {
      {"POST", "/check-runs", Access::write, create_run},
      {"PATCH", R"(/check-runs/(\d{1,9}))", Access::write, update_run},
      {"GET", R"(/check-runs/(\d{1,9}))", Access::read, get_run},
      {"GET", R"(/check-runs/(\d{1,9})/annotations)", Access::read, list_annotations},
      {"GET", R"(/commits/(.+)/check-runs)", Access::read, list_for_ref},
  };
  return kRoutes;
}

}  // namespace kblaster::testing
