#include "cli/local_reports.h"

#include <cstdlib>

#include "report/job_summary.h"
#include "report/report_dir.h"

namespace kblaster {

Status write_local_reports(std::span<const nlohmann::json> values, const std::string& report_dir,
                           Session& session) {
  if (!report_dir.empty()) {
    KB_TRY(write_report_dir(values, report_dir));
    session.progress << "report: " << report_dir << "/report.{md,html,json}\n";
  }
  const char* summary = std::getenv("GITHUB_STEP_SUMMARY");
  if (!summary || !*summary) return Ok{};
  if (auto written = append_job_summary(values, summary); !written)
    session.progress << "warning: the job summary ($GITHUB_STEP_SUMMARY) was not written: "
                     << written.error().describe() << "\n";
  else
    session.progress << "job summary: appended to $GITHUB_STEP_SUMMARY (" << summary << ")\n";
  return Ok{};
}

}  // namespace kblaster
