#include "report/json_report.h"

#include "report/headline.h"

namespace kblaster {

nlohmann::json report_json(std::span<const ResultView> results) {
  nlohmann::json values = nlohmann::json::array();
  for (const auto& r : results) values.push_back(r.value);
  return {{"kind", "report"},
          {"schema_version", kReportSchemaVersion},
          {"headline", report_headline(results)},
          {"results", std::move(values)}};
}

}  // namespace kblaster
