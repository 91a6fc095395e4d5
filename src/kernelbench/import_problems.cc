#include "kernelbench/import_problems.h"

#include <algorithm>

#include "core/file_replace.h"
#include "kernelbench/spec_text.h"

namespace kblaster {

namespace fs = std::filesystem;

Result<ImportReport> import_kernelbench(const fs::path& dir, const DescribeOptions& options,
                                        SpecFile spec_file,
                                        const std::optional<ImportTolerance>& tolerance,
                                        std::ostream& progress) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec))
    return Error::usage("`" + dir.string() + "` is not a directory of KernelBench problems");
  ImportReport report;
  report.spec = dir / "kblaster.toml";
  if (fs::exists(fs::symlink_status(report.spec, ec)) && spec_file == SpecFile::keep)
    return Error::usage(report.spec.string() + " exists already; pass --force to replace it");
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.is_regular_file() && e.path().extension() == ".py") files.push_back(e.path());
  if (ec) return Error::environment("cannot list " + dir.string() + ": " + ec.message());
  std::sort(files.begin(), files.end());
  for (std::size_t i = 0; i < files.size(); ++i) {
    auto problem = describe_problem(files[i], options);
    progress << "[" << i + 1 << "/" << files.size() << "] " << files[i].filename().string() << " ";
    if (!problem && problem.error().kind != ErrorKind::config) {
      progress << "not described\n";
      return problem.error();
    }
    if (!problem) {
      progress << "skipped: " << problem.error().message << "\n";
      report.skipped.emplace_back(files[i].filename().string(), problem.error().message);
      continue;
    }
    progress << "-> kernel " << problem->kernel << " (" << problem->inputs.size() << " in, ";
    if (!problem->state.empty()) progress << problem->state.size() << " of the module's own, ";
    progress << problem->outputs.size() << " out)\n";
    report.imported.push_back(std::move(*problem));
  }
  if (report.imported.empty()) {
    std::string why = "no problem in " + dir.string() + " could be imported";
    for (const auto& [file, reason] : report.skipped) why += "; " + file + ": " + reason;
    return Error::config(dir.string(), why);
  }
  for (const auto& p : report.imported) {
    const fs::path cu = dir / (p.kernel + ".cu");
    if (fs::exists(fs::symlink_status(cu, ec))) continue;  // a solution (or a link) is kept
    KB_TRY(replace_file(cu, launcher_skeleton(p)));        // a link planted there is replaced
    report.skeletons.push_back(cu.filename().string());
  }
  KB_TRY(replace_file(report.spec, kernels_toml(report.imported, tolerance)));
  return report;
}

}  // namespace kblaster
