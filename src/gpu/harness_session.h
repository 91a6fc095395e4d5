// Talking to kblaster-harness (docs/harness-protocol.md): the HarnessRunner
// interface, and HarnessSession, which runs the real harness as a sandboxed child.
#pragma once

#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>

#include "core/scratch_folder.h"
#include "core/status.h"
#include "gpu/child_process.h"
#include "gpu/sandbox.h"

namespace kblaster {

// Why a call returned an Error; each is a reason a report can count.
enum class HarnessFailure {
  none,         // the last call succeeded
  refused,      // the harness answered "ok": false; it keeps serving
  base_failed,  // refused: the candidate used as the reference (check's base) failed; its CUDA
                // context may be lost
  reference_suspect,  // refused: the reference failed after a candidate ran in that CUDA context,
                      // so only a fresh context can say whose failure it is
  bad_response,  // the answer was not one JSON object with a boolean "ok"; the harness was killed
  timeout,       // no answer in time; the harness's process group was killed
  crashed,       // the harness exited (a fault, an abort) before answering
  unavailable,   // the harness could not be started (missing program, sandbox failure)
};
// A stable snake_case name for reports and JSON: "none", "refused", "timeout", ...
const char* harness_failure_name(HarnessFailure failure);

// Sends protocol requests to a harness. After a timeout, crash or bad response
// the next call starts a fresh harness: generation() changes, and the caller
// must send hello/load/setup again before it relies on earlier state.
class HarnessRunner {
 public:
  virtual ~HarnessRunner() = default;
  // Sends `request` and returns the response object (with "ok": true). A
  // failure is an Error whose reason last_failure() gives.
  virtual Result<nlohmann::json> call(const nlohmann::json& request, double timeout_s) = 0;
  // Why the last call failed; none after a success.
  virtual HarnessFailure last_failure() const = 0;
  // Which harness process the last call reached: 1 for the first, one more
  // for every restart; 0 before any. A change means its state was lost.
  virtual std::uint64_t generation() const = 0;
  // Ends the current harness (after a sticky CUDA error, say); the next call starts a fresh one.
  virtual void restart() = 0;
  // What the last harness started got from its sandbox, for progress output;
  // nullopt before any started, or where the runner has no sandbox to report.
  virtual std::optional<SandboxReport> sandbox() const { return std::nullopt; }
};

// The real harness: `harness` started lazily under `sandbox`. Errors are
// Error::environment when it cannot be started and Error::io for every other
// failure. Not thread-safe.
class HarnessSession final : public HarnessRunner {
 public:
  // `reference_outputs`: the folder the command's harness sessions share their reference outputs
  // in (see make_scratch); empty, one of this session's own.
  explicit HarnessSession(std::filesystem::path harness, SandboxPolicy sandbox = {},
                          std::filesystem::path reference_outputs = {});
  // The harness run through a wrapper (ncu in profile mode): `argv` is the whole
  // command line, ending with the harness.
  HarnessSession(std::vector<std::string> argv, SandboxPolicy sandbox);
  // Ends the harness, and removes its scratch directory (its TMPDIR: a PyTorch reference's
  // worker files, which a killed harness could not remove itself). A harness run through a
  // wrapper (ncu) keeps the system's TMPDIR.
  ~HarnessSession() override;
  HarnessSession(const HarnessSession&) = delete;
  HarnessSession& operator=(const HarnessSession&) = delete;

  Result<nlohmann::json> call(const nlohmann::json& request, double timeout_s) override;
  HarnessFailure last_failure() const override { return last_failure_; }
  std::uint64_t generation() const override { return generation_; }
  void restart() override { child_.reset(); }
  // Ends the harness gracefully: closes its input and waits up to timeout_s for
  // it (and a wrapper) to exit. Its exit code; an Error if it had to be killed
  // or was not running.
  Result<int> finish(double timeout_s);

  // What the last harness started got from its sandbox, even after it ended (so
  // a failure can be explained); nullopt before any started.
  std::optional<SandboxReport> sandbox() const override;
  // The running harness's process id (also its process group); -1 while none runs.
  pid_t pid() const { return child_ ? child_->pid() : -1; }

 private:
  Result<nlohmann::json> fail(HarnessFailure failure, Error error);
  // A private directory every harness of this session gets as its TMPDIR, and where reference
  // outputs go ($KBLASTER_REFERENCE_OUTPUTS): `reference_outputs`, else reference-outputs/ in
  // it. Without it the harness uses the system's TMPDIR and keeps reference outputs in memory.
  void make_scratch(std::filesystem::path reference_outputs);
  std::optional<ScratchFolder> scratch_;
  ChildSpec spec_;
  std::optional<ChildProcess> child_;
  std::uint64_t generation_ = 0;
  std::optional<SandboxReport> last_sandbox_;
  HarnessFailure last_failure_ = HarnessFailure::none;
};

}  // namespace kblaster
