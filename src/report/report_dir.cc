#include "report/report_dir.h"

#include "core/file_replace.h"
#include "core/file_write.h"
#include "report/report_render.h"
#include "report/result_reader.h"

namespace kblaster {

Status write_report_dir(std::span<const nlohmann::json> results, const std::filesystem::path& dir) {
  std::vector<ResultView> views;
  for (const auto& result : results) {
    auto view = read_result(result, "this run's result");
    if (!view) return Error::internal("the report of this run: " + view.error().message);
    views.push_back(std::move(*view));
  }
  KB_TRY(make_directories(dir));
  for (ReportFormat format : {ReportFormat::markdown, ReportFormat::html, ReportFormat::json})
    KB_TRY(replace_file(dir / ("report." + std::string(report_format_name(format))),
                        render_report(views, format)));
  return Ok{};
}

}  // namespace kblaster
