#include "github/check_run.h"

#include <chrono>

#include "core/provenance.h"
#include "github/body_limit.h"

namespace kblaster {

std::string check_run_name_error(std::string_view name) {
  if (name.empty()) return "a check run needs a name";
  if (name.size() > 100) return "longer than 100 characters";
  for (const char c : name)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) return "holds a control character";
  return "";
}

Result<std::int64_t> start_check_run(GitHubApi& api, std::string_view name,
                                     std::string_view head_sha) {
  const nlohmann::json request = {{"name", name},
                                  {"head_sha", head_sha},
                                  {"status", "in_progress"},
                                  {"started_at", utc_timestamp(std::chrono::system_clock::now())}};
  auto reply = api.call(HttpMethod::post, "check-runs", request);
  if (!reply) return reply.error();
  if (!reply->body.is_object() || !reply->body.contains("id") ||
      !reply->body["id"].is_number_integer())
    return Error::remote("GitHub call POST " + api.url("check-runs") +
                         " answered without the check run's id");
  return reply->body["id"].get<std::int64_t>();
}

Status finish_check_run(GitHubApi& api, std::int64_t id, const CheckRunReport& report) {
  const std::string path = "check-runs/" + std::to_string(id);
  auto batches = annotation_batches(report.annotations);
  if (batches.empty()) batches.emplace_back();
  nlohmann::json output = {{"title", report.title},
                           {"summary", fit_body(report.summary, kMaxCheckOutputChars)}};
  std::size_t sent = 0;
  for (std::size_t i = 0; i < batches.size(); ++i) {
    nlohmann::json request = {{"output", output}};
    request["output"]["annotations"] = nlohmann::json::array();
    for (const Annotation& a : batches[i]) request["output"]["annotations"].push_back(to_json(a));
    if (i + 1 == batches.size()) {
      request["status"] = "completed";
      request["conclusion"] = report.conclusion;
      request["completed_at"] = utc_timestamp(std::chrono::system_clock::now());
    }
    auto reply = api.call(HttpMethod::patch, path, request);
    if (!reply) {
      Error error = reply.error();
      error.message += " (check run " + std::to_string(id) + ": " + std::to_string(sent) + " of " +
                       std::to_string(report.annotations.size()) +
                       " annotations sent, not completed)";
      return error;
    }
    sent += batches[i].size();
  }
  return Ok{};
}

Status fail_check_run(GitHubApi& api, std::int64_t id, std::string_view reason) {
  const nlohmann::json request = {
      {"status", "completed"},
      {"conclusion", "failure"},
      {"completed_at", utc_timestamp(std::chrono::system_clock::now())},
      {"output",
       {{"title", "kblaster failed"},
        {"summary", fit_body("kblaster could not finish this check, so it has no verdicts:\n\n" +
                                 std::string(reason),
                             kMaxCheckOutputChars)}}}};
  auto reply = api.call(HttpMethod::patch, "check-runs/" + std::to_string(id), request);
  if (!reply) return reply.error();
  return Ok{};
}

}  // namespace kblaster
