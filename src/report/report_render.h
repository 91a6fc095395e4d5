// A report in one of its formats, from result views or from saved result files.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "core/status.h"
#include "report/result_view.h"

namespace kblaster {

// The formats of `kblaster report --format` and of --report DIR's files.
enum class ReportFormat { markdown, html, json };

// "md", "html", "json": the --format spelling and the file extension.
std::string_view report_format_name(ReportFormat format);

// The format spelled `name`; any other spelling is Error::usage naming the choices.
Result<ReportFormat> report_format_from_name(std::string_view name);

// The report of `results` in `format`: render_markdown, render_html, or report_json
// as indented text (invalid UTF-8 replaced, never thrown on).
std::string render_report(std::span<const ResultView> results, ReportFormat format);

// The report of the results saved in `files`, in order, the run results of one sweep's shards
// read as one (merge_sweep_shards); the first that does not read (load_result) is the error.
Result<std::string> render_files(std::span<const std::string> files, ReportFormat format);

}  // namespace kblaster
