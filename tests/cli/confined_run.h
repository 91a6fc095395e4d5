// Runs the built kblaster where one directory is a full disk or read-only, in a
// mount namespace of its own (a user namespace too when not root), so the test
// needs no privileges and root cannot write past a read-only mount either.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "cli_run.h"

namespace kblaster::testing {

// What becomes of the directory while kblaster runs.
enum class Confinement {
  full_disk,  // a small tmpfs mounted over it and filled to the last byte
  read_only,  // the directory itself, bind-mounted read-only
};

// Runs build/kblaster with `args` from the repository root while `dir` (which must
// exist) is confined as `how`. nullopt, with the reason in `why_not`, when this
// machine allows no mount namespace: the caller skips.
std::optional<CliResult> run_kblaster_confined(const std::vector<std::string>& args,
                                               const std::filesystem::path& dir, Confinement how,
                                               std::string& why_not);

}  // namespace kblaster::testing
