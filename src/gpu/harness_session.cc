#include "gpu/harness_session.h"

#include <stdlib.h>

#include <utility>

namespace kblaster {
namespace {

using nlohmann::json;

// The request's "op", for messages; "?" when it has none.
std::string op_of(const json& request) {
  if (request.is_object()) {
    const auto op = request.find("op");
    if (op != request.end() && op->is_string()) return op->get<std::string>();
  }
  return "?";
}

}  // namespace

const char* harness_failure_name(HarnessFailure failure) {
  switch (failure) {
    case HarnessFailure::none:
      return "none";
    case HarnessFailure::refused:
      return "refused";
    case HarnessFailure::base_failed:
      return "base_failed";
    case HarnessFailure::reference_suspect:
      return "reference_suspect";
    case HarnessFailure::bad_response:
      return "bad_response";
    case HarnessFailure::timeout:
      return "timeout";
    case HarnessFailure::crashed:
      return "crashed";
    case HarnessFailure::unavailable:
      return "unavailable";
  }
  return "unknown";
}

HarnessSession::HarnessSession(std::filesystem::path harness, SandboxPolicy sandbox,
                               std::filesystem::path reference_outputs) {
  spec_.argv = {harness.string()};
  spec_.sandbox = std::move(sandbox);
  make_scratch(std::move(reference_outputs));
}

HarnessSession::HarnessSession(std::vector<std::string> argv, SandboxPolicy sandbox) {
  // No private TMPDIR under a wrapper: ncu may keep files there that other ncu processes on the
  // machine must see.
  spec_.argv = std::move(argv);
  spec_.sandbox = std::move(sandbox);
}

HarnessSession::~HarnessSession() {
  child_.reset();  // its process group killed first, so nothing writes there any more
  scratch_.reset();
}

void HarnessSession::make_scratch(std::filesystem::path reference_outputs) {
  scratch_.emplace("kblaster-harness");
  const std::filesystem::path& own = scratch_->path();
  if (!own.empty()) spec_.sandbox.env_set.push_back("TMPDIR=" + own.string());
  // The reference outputs (harness/shared_reference_outputs.h): a later harness (the next CUDA
  // context, a restart, another step of the command) reads a seed's expected outputs instead of
  // running the reference again. Without the folder each harness runs its own.
  std::error_code ec;
  if (reference_outputs.empty() && !own.empty() &&
      std::filesystem::create_directory(own / "reference-outputs", ec) && !ec)
    reference_outputs = own / "reference-outputs";
  if (!reference_outputs.empty())
    spec_.sandbox.env_set.push_back("KBLASTER_REFERENCE_OUTPUTS=" + reference_outputs.string());
}

Result<int> HarnessSession::finish(double timeout_s) {
  if (!child_) return Error::io("the harness is not running (it never started, or ended earlier)");
  auto code = child_->finish(timeout_s);
  child_.reset();
  return code;
}

std::optional<SandboxReport> HarnessSession::sandbox() const { return last_sandbox_; }

Result<json> HarnessSession::fail(HarnessFailure failure, Error error) {
  last_failure_ = failure;
  return error;
}

Result<json> HarnessSession::call(const json& request, double timeout_s) {
  if (!child_ || !child_->running()) {
    child_.reset();
    auto started = ChildProcess::start(spec_);
    if (!started) return fail(HarnessFailure::unavailable, started.error());
    child_.emplace(std::move(started).value());
    last_sandbox_ = child_->sandbox();
    ++generation_;
  }
  const std::string op = op_of(request);
  // Compact, so one line; invalid UTF-8 is replaced rather than thrown.
  const std::string line = request.dump(-1, ' ', false, json::error_handler_t::replace);
  ChildReply reply = child_->request(line, timeout_s);
  if (!reply.ok()) {
    child_.reset();
    const ChildFailure why = reply.failure->failure;
    const HarnessFailure failure = why == ChildFailure::timeout  ? HarnessFailure::timeout
                                   : why == ChildFailure::exited ? HarnessFailure::crashed
                                                                 : HarnessFailure::bad_response;
    return fail(failure, Error::io("harness request '" + op + "': " + reply.failure->message));
  }
  json response = json::parse(reply.line, nullptr, /*allow_exceptions=*/false);
  const bool has_ok =
      response.is_object() && response.contains("ok") && response["ok"].is_boolean();
  if (!has_ok) {
    child_.reset();  // the stream can no longer be trusted to pair answers with requests
    return fail(HarnessFailure::bad_response,
                Error::io("harness request '" + op +
                          "': the answer is not a JSON object with a boolean \"ok\": " +
                          reply.line.substr(0, 200)));
  }
  if (!response["ok"].get<bool>()) {
    const auto error = response.find("error");
    const std::string text = error != response.end() && error->is_string()
                                 ? error->get<std::string>()
                                 : "(no error text)";
    // A refusal the harness blames on the reference the spec names, or on what it needs, is the
    // user's to fix (exit 2 or 3), not kblaster's; one blamed on the base revision's kernel is
    // too, where check does not turn it into a verdict.
    const std::string message = "harness refused '" + op + "': " + text;
    const std::string cause = response.value("cause", std::string());
    if (cause == "base") return fail(HarnessFailure::base_failed, Error::config("", message));
    if (cause == "fresh_context")
      return fail(HarnessFailure::reference_suspect, Error::io(message));
    return fail(HarnessFailure::refused, cause == "reference"     ? Error::config("", message)
                                         : cause == "environment" ? Error::environment(message)
                                                                  : Error::io(message));
  }
  last_failure_ = HarnessFailure::none;
  return response;
}

}  // namespace kblaster
