// The head every result shares: what kind it is, the version of its schema
// (reports/schema/<kind>.schema.json), and where it came from.
#pragma once

#include <nlohmann/json.hpp>
#include <string_view>

#include "core/provenance.h"

namespace kblaster {

// {"kind": kind, "schema_version": version, "provenance": …}; a command adds its
// own fields to it. `kind` names its schema file, so keep it a stable identifier.
nlohmann::json result_envelope(std::string_view kind, int schema_version,
                               const Provenance& provenance);

}  // namespace kblaster
