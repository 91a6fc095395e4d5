// The JSON report: the results it was rendered from, as one value of kind
// "report" (reports/schema/report.schema.json).
#pragma once

#include <nlohmann/json.hpp>
#include <span>

#include "report/result_view.h"

namespace kblaster {

// The version of the report's JSON; reports/schema/report.schema.json describes it.
inline constexpr int kReportSchemaVersion = 1;

// {"kind": "report", "schema_version": 1, "headline": …, "results": [each result as
// it was read]}.
nlohmann::json report_json(std::span<const ResultView> results);

}  // namespace kblaster
