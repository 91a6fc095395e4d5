// A check run on a pull request's head commit through the REST API: started in
// progress before measuring, completed with its conclusion, summary and annotations.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"
#include "github/check_run_output.h"
#include "github/github_api.h"

namespace kblaster {

// The check run's default name, which branch protection requires; stable across runs and
// versions. --check-name gives another (check_run_name_error says which are taken).
inline constexpr std::string_view kCheckRunName = "kblaster / check";

// Why `name` cannot name a check run ("" when it can): empty, longer than 100 characters, or
// holding a control character.
std::string check_run_name_error(std::string_view name);

// GitHub takes at most this many characters in a check run's output summary or text.
inline constexpr std::size_t kMaxCheckOutputChars = 65535;

// What a finished check run says.
struct CheckRunReport {
  std::string conclusion;  // "success", "failure", "neutral", …
  std::string title;       // one line: the report's headline
  std::string summary;     // Markdown: the report
  std::vector<Annotation> annotations;
};

// Creates the check run `name` on `head_sha` (the pull request's head, not the merge
// commit) with status in_progress; returns its id. Errors: the call's.
Result<std::int64_t> start_check_run(GitHubApi& api, std::string_view name,
                                     std::string_view head_sha);

// Completes check run `id` with `report`: its annotations go kAnnotationsPerRequest per
// request (GitHub adds each request's to the run); the last request sets status
// completed and the conclusion. Summary is cut to GitHub's limit, saying so. Errors:
// the calls'; a failure after some requests leaves the run in progress with the
// annotations sent so far, which the error names.
Status finish_check_run(GitHubApi& api, std::int64_t id, const CheckRunReport& report);

// Completes check run `id` as failed because kblaster itself could not finish: title
// "kblaster failed", `reason` as its summary (cut to GitHub's limit). Errors: the call's.
Status fail_check_run(GitHubApi& api, std::int64_t id, std::string_view reason);

}  // namespace kblaster
