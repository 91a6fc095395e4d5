#include "report/report_render.h"

#include "report/html_report.h"
#include "report/json_report.h"
#include "report/markdown_report.h"
#include "report/result_reader.h"
#include "report/sweep_shards.h"

namespace kblaster {

std::string_view report_format_name(ReportFormat format) {
  switch (format) {
    case ReportFormat::markdown:
      return "md";
    case ReportFormat::html:
      return "html";
    case ReportFormat::json:
      return "json";
  }
  return "";
}

Result<ReportFormat> report_format_from_name(std::string_view name) {
  for (ReportFormat f : {ReportFormat::markdown, ReportFormat::html, ReportFormat::json})
    if (report_format_name(f) == name) return f;
  return Error::usage("--format " + std::string(name) + ": not a report format (md, html, json)");
}

std::string render_report(std::span<const ResultView> results, ReportFormat format) {
  switch (format) {
    case ReportFormat::markdown:
      return render_markdown(results);
    case ReportFormat::html:
      return render_html(results);
    case ReportFormat::json:
      return report_json(results).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) +
             "\n";
  }
  return "";
}

Result<std::string> render_files(std::span<const std::string> files, ReportFormat format) {
  std::vector<SavedResult> saved;
  for (const auto& file : files) {
    auto value = load_result_json(file);
    if (!value) return value.error();
    saved.push_back({std::move(*value), file});
  }
  std::vector<ResultView> views;
  for (auto& r : merge_sweep_shards(std::move(saved))) {
    auto view = read_result(r.value, r.origin);
    if (!view) return view.error();
    views.push_back(std::move(*view));
  }
  return render_report(views, format);
}

}  // namespace kblaster
