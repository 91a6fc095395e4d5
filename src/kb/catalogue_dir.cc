#include "kb/catalogue_dir.h"

#include <cstdlib>

#include "core/bounded_read.h"
#include "core/input_limits.h"

#ifndef KBLASTER_CATALOGUE_DIR
#define KBLASTER_CATALOGUE_DIR "kb/catalogue"
#endif

namespace kblaster {

Result<Catalogue> read_catalogue(const std::filesystem::path& given) {
  std::filesystem::path dir = given;
  if (dir.empty()) {
    const char* env = std::getenv("KBLASTER_CATALOGUE");
    dir = env && *env ? env : KBLASTER_CATALOGUE_DIR;
  }
  const char* named = given.empty() ? "the seed catalogue" : "--catalogue";
  const auto techniques = read_bounded(dir / "techniques.json", kMaxJsonBytes, named);
  const auto states = read_bounded(dir / "states.json", kMaxJsonBytes, named);
  std::error_code ec;
  const bool present = std::filesystem::exists(dir / "techniques.json", ec) &&
                       std::filesystem::exists(dir / "states.json", ec);
  if (!present && !given.empty())
    return Error::usage("--catalogue " + given.string() +
                        ": not a seed catalogue (it needs techniques.json and states.json)");
  if (!present)
    return Error::environment(
        "the seed catalogue is not in " + dir.string() +
        " (techniques.json, states.json); give --catalogue or set KBLASTER_CATALOGUE");
  if (!techniques) return techniques.error();
  if (!states) return states.error();
  auto catalogue = load_catalogue(*techniques, *states);
  if (!catalogue)
    return Error{catalogue.error().kind,
                 "the seed catalogue in " + dir.string() + ": " + catalogue.error().message,
                 catalogue.error().where};
  return catalogue;
}

}  // namespace kblaster
