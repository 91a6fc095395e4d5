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
#include "eval/session.h"

namespace kblaster {

// Options every command takes: `kblaster CMD [REPO] [--kernel NAME]... [--json]`.
struct CommonOptions {
  std::string repo = ".";
  std::vector<std::string> kernels;  // empty = all
  bool json = false;
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
