// Nsight Compute's CSV output (`ncu --csv`), read into one record per profiled
// kernel launch. Two layouts: the default details page (one row per metric:
// "ID","Kernel Name",…,"Section Name","Metric Name","Metric Unit","Metric Value")
// and `--page raw` (one row per kernel, a column per metric, then a units row).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"

namespace kblaster {

// One value as ncu printed it. `number` holds the value with thousands
// separators removed ("231,840" -> 231840); it is unset for "n/a" and text.
struct NcuValue {
  std::optional<double> number;
  std::string unit;  // as printed: "%", "byte", "Kbyte", "usecond", "cycle", …
  std::string text;  // the raw cell
};

// One profiled kernel launch, in the order ncu printed them.
struct NcuKernel {
  std::string id;          // ncu's "ID" column
  std::string name;        // "Kernel Name"
  std::string block_size;  // "(256, 1, 1)" as printed, when the page has it
  std::string grid_size;
  // By metric: raw pages key by metric name ("dram__bytes_read.sum"); details
  // pages key by "Section Name: Metric Name" ("GPU Speed Of Light Throughput:
  // DRAM Throughput") and by the metric name alone when the section is the
  // command line's metrics.
  std::map<std::string, NcuValue> metrics;
};

// Parses `csv`; `origin` names the file in errors. Lines before the header
// (ncu's "==PROF==" banners, program output) are skipped. A file with no
// recognisable header, or a row with the wrong number of cells, is a config
// error naming origin:line. Details rows may stop short of the trailing rule
// columns ("Rule Name", …), as ncu 2025 prints them; "n/a" is a missing value.
// A metric whose value reads as NaN, infinite or negative is a config error
// naming origin:line and the metric.
Result<std::vector<NcuKernel>> parse_ncu_csv(std::string_view csv, const std::string& origin);

}  // namespace kblaster
