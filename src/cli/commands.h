// The setup function of each subcommand; command_table.cc lists them.
#pragma once

#include "cli/command.h"

namespace kblaster {

CommandAction setup_plan(CLI::App& app);
CommandAction setup_build(CLI::App& app);
CommandAction setup_run(CLI::App& app);
CommandAction setup_verify(CLI::App& app);
CommandAction setup_bench(CLI::App& app);
CommandAction setup_compare(CLI::App& app);
CommandAction setup_kb(CLI::App& app);
CommandAction setup_check(CLI::App& app);
CommandAction setup_profile(CLI::App& app);
CommandAction setup_classify(CLI::App& app);
CommandAction setup_import(CLI::App& app);
CommandAction setup_optimize(CLI::App& app);
CommandAction setup_sweep(CLI::App& app);
CommandAction setup_report(CLI::App& app);
CommandAction setup_publish(CLI::App& app);

}  // namespace kblaster
