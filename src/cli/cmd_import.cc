// `kblaster import kernelbench DIR [--force]`: makes a directory of KernelBench-style problems a
// kernel repository (kblaster.toml and a launcher skeleton for each problem without a .cu file).
#include "cli/commands.h"
#include "cli/flag_checks.h"
#include "core/environment.h"
#include "eval/provenance.h"
#include "kernelbench/import_problems.h"

namespace kblaster {
namespace {

struct ImportOptions {
  std::string format, dir;
  bool force = false, json = false;
  double rtol = 0, atol = 0;  // 0: not given
};

// The interpreter and the PYTHONPATH it needs, from kblaster's environment: the sandbox passes
// neither on by itself.
DescribeOptions describe_options(const EnvironmentLookup& env) {
  DescribeOptions d;
  if (auto python = env("KBLASTER_PYTHON"); python && !python->empty()) d.python = *python;
  if (auto path = env("PYTHONPATH"); path && !path->empty())
    d.extra_env.push_back("PYTHONPATH=" + *path);
  return d;
}

nlohmann::json to_json(const ImportReport& r, Provenance provenance) {
  stamp_finished(provenance);
  nlohmann::json kernels = nlohmann::json::array(), skipped = nlohmann::json::array();
  for (const auto& p : r.imported)
    kernels.push_back({{"kernel", p.kernel}, {"file", p.file}, {"launcher", p.launcher}});
  for (const auto& [file, why] : r.skipped) skipped.push_back({{"file", file}, {"reason", why}});
  return {{"kind", "import"},        {"schema_version", 1}, {"provenance", to_json(provenance)},
          {"spec", r.spec.string()}, {"kernels", kernels},  {"skipped", skipped},
          {"skeletons", r.skeletons}};
}

Result<ExitCode> import_command(const ImportOptions& o, Session& session) {
  Provenance provenance = command_provenance(session, o.dir);
  auto report = import_kernelbench(
      o.dir, describe_options(process_environment), o.force ? SpecFile::replace : SpecFile::keep,
      o.rtol > 0 || o.atol > 0 ? std::optional<ImportTolerance>({o.rtol, o.atol}) : std::nullopt,
      session.progress);
  if (!report) return report.error();
  if (o.json) {
    session.out << to_json(*report, std::move(provenance)).dump(2) << "\n";
    return ExitCode::ok;
  }
  session.out << "imported " << report->imported.size() << " problem(s), skipped "
              << report->skipped.size() << "; wrote " << report->spec.string() << "\n";
  for (const auto& s : report->skeletons)
    session.out << "  " << s << ": a launcher skeleton that writes nothing yet (verify fails it "
                << "until its kernel is written)\n";
  session.out << "next: kblaster verify " << o.dir << "\n";
  return ExitCode::ok;
}

}  // namespace

CommandAction setup_import(CLI::App& app) {
  auto o = std::make_shared<ImportOptions>();
  app.add_option("format", o->format, "What to import: kernelbench")
      ->required()
      ->check(CLI::IsMember({"kernelbench"}));
  app.add_option("dir", o->dir,
                 "A directory of KernelBench-style problems (Model, get_inputs, get_init_inputs)")
      ->required();
  app.add_flag("--force", o->force, "Replace an existing kblaster.toml in DIR");
  auto* rtol = app.add_option("--rtol", o->rtol,
                              "Declare every kernel with this relative tolerance (with --atol; "
                              "default: the output type's; KernelBench checks with 1e-2)")
                   ->check(positive_validator());
  auto* atol =
      app.add_option("--atol", o->atol, "Declare every kernel with this absolute tolerance")
          ->check(positive_validator());
  rtol->needs(atol);
  atol->needs(rtol);
  app.add_flag("--json", o->json, "Machine-readable JSON on stdout");
  return [o](Session& session) { return import_command(*o, session); };
}

}  // namespace kblaster
