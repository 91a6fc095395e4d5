// kblaster's entry point: builds the command line from the subcommand table,
// runs the chosen command, and turns its Error (if any) into a message and an
// exit code. The only place exceptions are caught.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <iostream>

#include "cli/command.h"
#include "cli/version.h"
#include "core/checked_output.h"
#include "core/clock.h"
#include "core/scratch_folder.h"
#include "eval/gpu_context.h"
#include "gpu/device_probe.h"

namespace kblaster {
namespace {

int report_error(const Error& error) {
  std::cerr << "kblaster: error: " << error.describe() << "\n";
  if (error.kind == ErrorKind::internal)
    std::cerr
        << "kblaster: this is a bug in kblaster; please report it with the command line above\n";
  return to_int(exit_code_for(error.kind));
}

int run(int argc, char** argv) {
  CLI::App app{
      "kblaster: find the CUDA kernels a change touched, prove they still compute the same "
      "function, and measure whether they got slower.",
      "kblaster"};
  app.footer(
      "Exit codes: 0 done, nothing regressed; 1 found a regression, wrong result or rejected "
      "candidate; 2 bad usage or config; 3 the environment lacks something (GPU, nvcc, ncu, "
      "token, disk space, a writable directory); 4 internal error; 5 a remote service (GitHub, an "
      "LLM API) failed.");
  bool show_version = false;
  app.add_flag("--version", show_version, "Print the version, the nvcc version and the GPU found");
  std::vector<std::pair<CLI::App*, CommandAction>> actions;
  for (const Command& command : command_table()) {
    CLI::App* sub = app.add_subcommand(command.name, command.summary);
    actions.emplace_back(sub, command.setup(*sub));
  }
  CLI::App* help = app.add_subcommand("help", "Show this help");
  app.require_subcommand(0, 1);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return to_int(ExitCode::bad_config);
  }
  if (show_version) {
    CudaDriverProbe probe;
    print_version(std::cout, probe);
    return to_int(ExitCode::ok);
  }
  if (help->parsed()) {
    // app.help() would describe the parsed `help` subcommand; ask for the top level.
    std::cout << app.get_formatter()->make_help(&app, "kblaster", CLI::AppFormatMode::Normal);
    return to_int(ExitCode::ok);
  }
  for (auto& [sub, action] : actions) {
    if (!sub->parsed()) continue;
    CudaDriverProbe device;
    SteadyClock clock;
    // Every harness the command starts (a sweep's run step and each search, say) shares the
    // reference outputs it computed; removed when the command ends. Only this command's
    // candidates can reach them (docs/security.md).
    const ScratchFolder reference_outputs("kblaster-reference-outputs");
    Session session{std::cout,
                    std::cerr,
                    device,
                    clock,
                    [&] { return start_real_harness(reference_outputs.path()); },
                    std::vector<std::string>(argv, argv + argc),
                    kblaster_version()};
    auto result = action(session);
    if (!result) return report_error(result.error());
    return to_int(*result);
  }
  std::cerr << app.help() << "\nkblaster: error: no command given\n";
  return to_int(ExitCode::bad_config);
}

// Runs the command with std::cout on `out`, then flushes it: results that could
// not be written are an environment error (exit 3) whatever the command decided,
// unless it failed itself, whose exit code then stands beside the message.
int run_checked(int argc, char** argv, CheckedOutput& out) {
  int code = 0;
  try {
    code = run(argc, argv);
  } catch (const std::exception& e) {
    code = report_error(Error::internal(std::string("uncaught exception: ") + e.what()));
  }
  std::cout.flush();
  if (out.error() == 0) return code;
  const int failed = report_error(Error::environment(output_failure_message(out.error())));
  const bool command_succeeded =
      code == to_int(ExitCode::ok) || code == to_int(ExitCode::found_problem);
  return command_succeeded ? failed : code;
}

}  // namespace
}  // namespace kblaster

int main(int argc, char** argv) {
  using kblaster::OutputBuffering;
  // A closed pipe (`kblaster plan | head`) ends the process by SIGPIPE, as in git;
  // every other failure to write stdout is reported by run_checked.
  kblaster::CheckedOutput out(
      STDOUT_FILENO, ::isatty(STDOUT_FILENO) ? OutputBuffering::line : OutputBuffering::full);
  std::streambuf* const stdio = std::cout.rdbuf(&out);
  const int code = kblaster::run_checked(argc, argv, out);
  std::cout.rdbuf(stdio);
  return code;
}
