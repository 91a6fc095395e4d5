// Finding and reading the seed catalogue: techniques.json and states.json in one
// directory.
#pragma once

#include <filesystem>

#include "core/status.h"
#include "kb/catalogue.h"

namespace kblaster {

// Reads and validates the catalogue in `dir` (given with --catalogue), or when it is
// empty in $KBLASTER_CATALOGUE, else in the catalogue installed with kblaster.
// Errors: a --catalogue that is no catalogue is a usage error; a missing default
// one an environment error; a malformed file names the file and the field.
Result<Catalogue> read_catalogue(const std::filesystem::path& dir);

}  // namespace kblaster
