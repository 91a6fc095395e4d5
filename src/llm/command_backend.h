// The `command` backend: any local program as the model. The request goes to its stdin as
// JSON and the answer comes from its stdout (llm/command_protocol.h, docs/llm.md).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "gpu/sandbox.h"
#include "llm/llm_backend.h"

namespace kblaster {

struct CommandOptions {
  std::vector<std::string> argv;      // no shell; argv[0] is looked up on PATH without a '/'
  std::string model;                  // passed in the request; "" when the config names none
  double timeout_s = 300;             // its whole run; then its process group is killed
  std::string key_variable;           // "" = no key; else the one secret it is given
  std::string key;                    // that variable's value; never in a message
  std::filesystem::path working_dir;  // "" = kblaster's
};

// The sandbox a command runs in: the allow-listed environment (no GITHUB_TOKEN, no *_KEY, no
// *_TOKEN; gpu/sandbox.h), rlimits, no new privileges, no capabilities, but the host's network
// and files, since a command may itself call a hosted model.
SandboxPolicy command_sandbox(double timeout_s);

// Runs the program once per request, in command_sandbox plus the key variable alone. Errors,
// each naming the program with the key redacted: it cannot be started (Error::environment);
// it outlived timeout_s (or the request's time_limit_s, when shorter), wrote more than
// kMaxCommandAnswerBytes, exited non-zero (with its stderr's tail), or answered nothing usable
// (Error::remote). Thread-safe: each call is its own process.
class CommandBackend final : public LlmBackend {
 public:
  explicit CommandBackend(CommandOptions options) : options_(std::move(options)) {}

  Result<LlmAnswer> complete(const LlmRequest& request) override;
  std::string_view name() const override { return "command"; }

 private:
  CommandOptions options_;
};

}  // namespace kblaster
