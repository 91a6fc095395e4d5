// `kblaster kb init|stats|show|export|import|merge [REPO]`: the Knowledge Base
// file of a kernel repository (DESIGN.md, "Knowledge Base and MAIC-RL").
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/flag_checks.h"
#include "cli/kb_location.h"
#include "cli/kb_report.h"
#include "core/bounded_read.h"
#include "core/file_replace.h"
#include "core/input_limits.h"
#include "eval/provenance.h"
#include "kb/kb_json.h"
#include "kb/kb_snapshot.h"
#include "kb/kb_write.h"
#include "kb/merge.h"
#include "kb/prediction.h"
#include "kb/seed.h"
#include "kb/staged_kb.h"
#include "kb/store.h"

namespace kblaster {
namespace {

struct KbOptions {
  CommonOptions common;
  KbFlags kb;
  CLI::App* init = nullptr;
  CLI::App* stats = nullptr;
  CLI::App* show = nullptr;
  ShowQuery query;  // show: which states, which arch, how many techniques
  CLI::App* export_ = nullptr;
  CLI::App* import_ = nullptr;
  CLI::App* merge = nullptr;
  std::string file;  // import: the JSON to read; export: where to write ("" = stdout)
  std::vector<std::string> others;  // merge: the KB files to merge in
};

// kb export: sorted JSON to stdout, or to --out replaced whole.
Result<ExitCode> export_kb(const Store& store, const std::filesystem::path& path,
                           const KbOptions& options, Session& session) {
  auto text = export_json(store);
  if (!text) return text.error();
  if (options.file.empty()) {
    session.out << *text;
    return ExitCode::ok;
  }
  if (auto written = replace_file(options.file, *text); !written) {
    Error failed = written.error();  // usage for a device or FIFO there, else the machine's
    if (failed.kind == ErrorKind::io) failed.kind = ErrorKind::environment;
    failed.message = "--out " + options.file + ": " + failed.message;
    return failed;
  }
  session.progress << "exported " << path.string() << " to " << options.file << "\n";
  return ExitCode::ok;
}

// The JSON named by --from, read and checked to parse before the KB is opened,
// so a missing or broken file leaves no KB behind.
Result<std::string> read_import(const std::string& file) {
  auto text = read_bounded(file, kMaxJsonBytes, "--from");
  if (!text) return text.error();
  try {
    [[maybe_unused]] const auto parsed = nlohmann::json::parse(*text);
  } catch (const nlohmann::json::parse_error& e) {
    return Error::usage("--from " + file + ": not JSON: " + e.what());
  }
  return text;
}

// Where the KB is, as the user named it: for error messages.
std::string kb_flag(const KbOptions& options) {
  return options.kb.kb.empty() ? "the default KB of REPO " + options.common.repo : "--kb";
}

// Checks what the command names before anything is opened, so a mistyped path
// fails without creating a KB or changing an input.
Status check_arguments(const KbOptions& options, const std::filesystem::path& path) {
  if (!options.common.kernels.empty())
    return Error::usage("--kernel: the kb commands work on the whole KB, not on single kernels");
  if (options.kb.kb.empty() && !std::filesystem::is_directory(options.common.repo))
    return Error::usage("REPO " + options.common.repo +
                        " is not a directory; give a kernel repository, or --kb FILE");
  const bool writes =
      options.init->parsed() || options.import_->parsed() || options.merge->parsed();
  // What is read (this KB, or --from) is checked by KbSnapshot::take before it is opened.
  if (writes && !absent_or_empty(path)) KB_TRY(check_kb_file(path, kb_flag(options)));
  return Ok{};
}

// kb init, import and merge: they write the KB at `path`. Every input is read
// first. An existing KB is changed in one transaction per step (a merge, one per
// input file); a new one is filled beside `path` and renamed into place
// (StagedKb), so a kill leaves no KB there rather than one with empty tables.
Result<ExitCode> write_kb(const KbOptions& options, const std::filesystem::path& path,
                          Session& session) {
  std::optional<Catalogue> catalogue;
  if (options.init->parsed()) {
    auto read = read_catalogue(options.kb);
    if (!read) return read.error();
    catalogue = std::move(*read);
  }
  std::optional<std::string> import;
  if (options.import_->parsed()) {
    auto read = read_import(options.file);
    if (!read) return read.error();
    import = std::move(*read);
  }
  std::vector<KbSnapshot> sources;
  for (const auto& other : options.others) {
    auto source = KbSnapshot::take(other, "--from");
    if (!source) return source.error();
    sources.push_back(std::move(*source));
  }
  KbWrites writes{std::move(catalogue), std::move(import), options.file, {}};
  for (auto& source : sources) writes.merge.push_back(&source.store());
  auto written = write_kb_file(path, writes);
  if (!written) return written.error();
  if (writes.json)
    session.progress << "imported " << options.file << " into " << path.string() << "\n";
  for (const auto& other : options.others)
    session.progress << "merged " << other << " into " << path.string() << "\n";
  return stats_kb(*written, path, options.common.json,
                  command_provenance(session, options.common.repo), session);
}

Result<ExitCode> run_kb(const KbOptions& options, Session& session) {
  const auto path = kb_path(options.common.repo, options.kb);
  KB_TRY(check_arguments(options, path));
  if (options.init->parsed() || options.import_->parsed() || options.merge->parsed())
    return write_kb(options, path, session);
  auto snapshot = KbSnapshot::take(path, kb_flag(options));
  if (!snapshot) return snapshot.error();
  if (options.export_->parsed()) return export_kb(snapshot->store(), path, options, session);
  if (options.show->parsed()) {
    auto catalogue = read_catalogue(options.kb);
    if (!catalogue) return catalogue.error();
    return show_kb(snapshot->store(), *catalogue, options.query, path, options.common.json,
                   command_provenance(session, options.common.repo), session);
  }
  return stats_kb(snapshot->store(), path, options.common.json,
                  command_provenance(session, options.common.repo), session);
}

}  // namespace

CommandAction setup_kb(CLI::App& app) {
  auto options = std::make_shared<KbOptions>();
  options->init =
      app.add_subcommand("init", "Create the KB (if absent) and load the seed catalogue into it");
  options->stats =
      app.add_subcommand("stats", "What the KB holds: techniques, states, trajectories, lessons");
  options->show = app.add_subcommand(
      "show",
      "Per state: the techniques the KB expects most of, with their evidence, and recent lessons");
  options->show->add_option("--state", options->query.state,
                            "Only this state (e.g. memory.dram_saturated)");
  options->show
      ->add_option("--arch", options->query.arch,
                   "GPU architecture the statistics are for (default sm_90)")
      ->check(arch_validator());
  options->show->add_option("--top", options->query.top, "Techniques per state (default 5)")
      ->check(positive_validator());
  options->export_ =
      app.add_subcommand("export", "Write the KB as stable, sorted JSON (stdout, or --out FILE)");
  options->export_->add_option("--out", options->file, "File to write instead of stdout");
  options->import_ = app.add_subcommand("import", "Read a JSON export into an empty KB");
  options->import_->add_option("--from", options->file, "The JSON file to import")->required();
  options->merge =
      app.add_subcommand("merge", "Merge other KB files into this one (lossless, order-free)");
  // One file per --from, so the repository that may follow is not taken for a third.
  options->merge->add_option("--from", options->others, "KB files to merge in (repeatable)")
      ->required()
      ->allow_extra_args(false);
  for (CLI::App* sub : {options->init, options->stats, options->show, options->export_,
                        options->import_, options->merge}) {
    add_common_options(*sub, options->common);
    add_kb_flags(*sub, options->kb);
  }
  app.require_subcommand(1);
  return [options](Session& session) { return run_kb(*options, session); };
}

}  // namespace kblaster
