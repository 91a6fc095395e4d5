#include "report/job_summary.h"

#include <system_error>

#include "core/file_write.h"
#include "report/report_render.h"
#include "report/result_reader.h"

namespace kblaster {

Status append_job_summary(std::span<const nlohmann::json> results,
                          const std::filesystem::path& file) {
  std::vector<ResultView> views;
  for (const auto& result : results) {
    auto view = read_result(result, "this run's result");
    if (!view) return Error::internal("the job summary of this run: " + view.error().message);
    views.push_back(std::move(*view));
  }
  std::string markdown = render_report(views, ReportFormat::markdown) + "\n";
  std::error_code ec;
  const std::uintmax_t existing = std::filesystem::file_size(file, ec);
  if (!ec && existing + markdown.size() > kJobSummaryLimit)
    markdown =
        "kblaster: this step's summary is full (GitHub shows 1 MiB per step); the report "
        "is in the run's --report files and --json output.\n";
  return append_file(file, markdown);
}

}  // namespace kblaster
