#include "llm/command_backend.h"

#include <cstdio>

#include "gpu/filter_process.h"
#include "gpu/piped_child.h"
#include "llm/command_protocol.h"
#include "llm/llm_limits.h"
#include "net/redact.h"

namespace kblaster {
namespace {

std::string seconds_text(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", seconds);
  return text;
}

// What went wrong with a run that ended, or nullopt when it answered.
std::optional<std::string> run_failure(const FilterResult& run, double timeout_s) {
  if (run.timed_out)
    return "gave no answer within " + seconds_text(timeout_s) + " s; its process group was killed";
  if (run.output_overflow)
    return "wrote more than " + std::to_string(kMaxCommandAnswerBytes) +
           " bytes on its stdout; it was killed";
  if (run.exit_code != 0) return describe_exit(run.exit_code);
  return std::nullopt;
}

}  // namespace

SandboxPolicy command_sandbox(double timeout_s) {
  SandboxPolicy policy;
  policy.wall_timeout_s = timeout_s;
  policy.network = NetworkIsolation::off;
  policy.filesystem = FilesystemIsolation::off;
  return policy;
}

Result<LlmAnswer> CommandBackend::complete(const LlmRequest& request) {
  const std::string program = options_.argv.empty() ? std::string() : options_.argv[0];
  const std::vector<std::string> secrets = {options_.key};
  const double timeout_s = call_time_limit(options_.timeout_s, request);
  FilterOptions filter{.sandbox = command_sandbox(timeout_s),
                       .extra_env = {},
                       .working_dir = options_.working_dir,
                       .timeout_s = timeout_s,
                       .max_output_bytes = kMaxCommandAnswerBytes,
                       .stderr_tail_bytes = 2048};
  if (!options_.key_variable.empty())
    filter.extra_env.push_back(options_.key_variable + "=" + options_.key);
  auto run = run_filter(options_.argv, command_request_json(request, options_.model), filter);
  if (!run) {
    Error error = run.error();
    error.message = redact("LLM command `" + program + "`: " + error.message, secrets);
    return error;
  }
  if (const auto failure = run_failure(*run, timeout_s)) {
    std::string message = "LLM command `" + program + "` " + *failure;
    if (!run->stderr_tail.empty()) message += "; its stderr ends with: " + run->stderr_tail;
    return Error::remote(redact(message, secrets));
  }
  auto answer = read_command_answer(run->output, program);
  if (!answer) return Error::remote(redact(answer.error().message, secrets));
  if (answer->model.empty()) answer->model = options_.model;
  answer->seconds = run->seconds;
  return answer;
}

}  // namespace kblaster
