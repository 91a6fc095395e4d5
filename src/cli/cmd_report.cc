// `kblaster report RESULT.json… [--format md|html|json] [--out FILE]`: one report of
// saved results (a PR's check and the optimize results for its head, say), rendered
// without a GPU; nothing is measured again.
#include "cli/commands.h"
#include "core/file_replace.h"
#include "report/report_render.h"

namespace kblaster {
namespace {

struct ReportOptions {
  std::vector<std::string> files;
  std::string format = "md";
  std::string out;  // "": stdout
};

Result<ExitCode> run_report(const ReportOptions& o, Session& session) {
  auto format = report_format_from_name(o.format);
  if (!format) return format.error();
  auto text = render_files(o.files, *format);
  if (!text) return text.error();
  if (!o.out.empty()) KB_TRY(replace_file(o.out, *text));
  if (o.out.empty()) session.out << *text;
  return ExitCode::ok;
}

}  // namespace

CommandAction setup_report(CLI::App& app) {
  auto o = std::make_shared<ReportOptions>();
  app.add_option("results", o->files, "Saved results: the --json output of check or optimize")
      ->required();
  app.add_option("--format", o->format, "md (default), html or json");
  app.add_option("--out", o->out, "Write the report to FILE (default: standard output)");
  return [o](Session& session) { return run_report(*o, session); };
}

}  // namespace kblaster
