#include "core/result_envelope.h"

namespace kblaster {

nlohmann::json result_envelope(std::string_view kind, int schema_version,
                               const Provenance& provenance) {
  return {{"kind", kind}, {"schema_version", schema_version}, {"provenance", to_json(provenance)}};
}

}  // namespace kblaster
