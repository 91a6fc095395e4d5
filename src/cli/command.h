// The subcommand table's entry type and what every command is handed: the
// options all commands share and the side-effecting services they may use.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include "core/exit_code.h"
#include "core/status.h"

namespace kblaster {

class Clock;
class DeviceProbe;
class HarnessRunner;

// Options every command takes: `kblaster CMD [REPO] [--kernel NAME]... [--json]`.
struct CommonOptions {
  std::string repo = ".";
  std::vector<std::string> kernels;  // empty = all
  bool json = false;
};

// The outside world a command touches, passed in so tests can substitute it.
struct Session {
  std::ostream& out;       // results: tables, or JSON with --json
  std::ostream& progress;  // per-kernel progress and reasons; never JSON
  DeviceProbe& device;     // which GPU, if any, runs the candidates
  Clock& clock;            // wall time, for time limits
  // Starts a connection to kblaster-harness (the process itself starts on the
  // first request); Error::environment when the harness program is missing.
  std::function<Result<std::unique_ptr<HarnessRunner>>()> harness;
};

using CommandAction = std::function<Result<ExitCode>(Session&)>;

struct Command {
  const char* name;
  const char* summary;
  // Declares the command's flags on `app` (CommonOptions included) and returns
  // what to run once the command line has been parsed into them.
  CommandAction (*setup)(CLI::App& app);
};

// Every command, in the order `kblaster help` lists them.
const std::vector<Command>& command_table();

// Adds REPO, --kernel and --json to `app`, bound to `options`.
void add_common_options(CLI::App& app, CommonOptions& options);

}  // namespace kblaster
