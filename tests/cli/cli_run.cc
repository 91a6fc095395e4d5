#include "cli_run.h"

#include <fstream>
#include <sstream>

#include "gpu/subprocess.h"
#include "test_paths.h"

namespace kblaster::testing {
namespace {

std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// Runs `args` under /bin/sh with stderr kept apart and `redirect` (e.g. " >/dev/full") added.
CliResult run_redirected(const std::vector<std::string>& args, const std::string& redirect) {
  TempDir scratch;
  const auto err_path = scratch.path() / "stderr";
  std::string command = shell_quote(kblaster_binary().string());
  for (const auto& a : args) {
    command.push_back(' ');
    command.append(shell_quote(a));
  }
  command.append(redirect);
  command.append(" 2>");
  command.append(shell_quote(err_path.string()));
  ProcessOptions options;
  options.working_dir = source_dir();
  auto result = run_process({"/bin/sh", "-c", command}, options);
  CliResult cli;
  if (!result) {
    cli.err = result.error().describe();
    return cli;
  }
  cli.exit_code = result->exit_code;
  cli.out = result->output;
  std::ifstream err(err_path);
  std::ostringstream text;
  text << err.rdbuf();
  cli.err = text.str();
  return cli;
}

}  // namespace

CliResult run_kblaster(const std::vector<std::string>& args) { return run_redirected(args, ""); }

CliResult run_kblaster_to(const std::vector<std::string>& args, const std::string& stdout_path) {
  return run_redirected(args, " >" + shell_quote(stdout_path));
}

}  // namespace kblaster::testing
