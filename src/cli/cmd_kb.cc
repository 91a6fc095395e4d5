// `kblaster kb init|show|stats [REPO]`: the Knowledge Base file of a kernel
// repository (DESIGN.md, "Knowledge Base and MAIC-RL").
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/commands.h"
#include "cli/flag_checks.h"
#include "cli/kb_location.h"
#include "cli/kb_snapshot.h"
#include "core/suggest.h"
#include "kb/kb_json.h"
#include "kb/merge.h"
#include "kb/prediction.h"
#include "kb/seed.h"
#include "kb/store.h"

namespace kblaster {
namespace {

struct KbOptions {
  CommonOptions common;
  KbFlags kb;
  CLI::App* init = nullptr;
  CLI::App* stats = nullptr;
  CLI::App* show = nullptr;
  std::string state;  // show: only this state
  std::string arch = "sm_90";
  int top = 5;
  CLI::App* export_ = nullptr;
  CLI::App* import_ = nullptr;
  CLI::App* merge = nullptr;
  std::string file;  // import: the JSON to read; export: where to write ("" = stdout)
  std::vector<std::string> others;  // merge: the KB files to merge in
};

std::string percent_gain(double log_speedup) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%+.1f%%", (std::exp(log_speedup) - 1.0) * 100.0);
  return buf;
}

// Per state: the techniques the KB expects most of, with the evidence behind
// each guess, and the state's most recent lessons.
Result<ExitCode> show(const Store& store, const KbOptions& options, Session& session) {
  auto catalogue = read_catalogue(options.kb);
  if (!catalogue) return catalogue.error();
  nlohmann::json states = nlohmann::json::array();
  for (const auto& info : catalogue->states) {
    if (!options.state.empty() && info.key != options.state) continue;
    auto predictions = predict(store, *catalogue, info.key, options.arch);
    if (!predictions) return predictions.error();
    nlohmann::json best = nlohmann::json::array();
    if (!options.common.json) session.out << info.key << "  " << info.description << "\n";
    for (int i = 0; i < options.top && i < static_cast<int>(predictions->size()); ++i) {
      const Prediction& p = (*predictions)[static_cast<std::size_t>(i)];
      best.push_back({{"technique", p.technique},
                      {"expected_log_speedup", p.expected_log_speedup},
                      {"uncertainty", p.uncertainty},
                      {"source", prediction_source_name(p.source)},
                      {"evidence", p.evidence},
                      {"attempts", p.attempts},
                      {"attempts_here", p.attempts_here}});
      if (!options.common.json)
        session.out << "  " << p.technique << "  " << percent_gain(p.expected_log_speedup) << " ± "
                    << percent_gain(p.uncertainty).substr(1) << "  from "
                    << prediction_source_name(p.source) << " (" << p.evidence << " measured of "
                    << p.attempts << " attempts, " << p.attempts_here << " in this state on "
                    << options.arch << ")\n";
    }
    nlohmann::json recent = nlohmann::json::array();
    for (const auto& b : best) {
      auto lessons = store.lessons(info.key, b["technique"].get<std::string>());
      if (!lessons) return lessons.error();
      for (const auto& l : *lessons) {
        recent.push_back(
            {{"technique", l.technique}, {"text", l.text}, {"created_at", l.created_at}});
        if (!options.common.json)
          session.out << "    lesson (" << l.technique << "): " << l.text << "\n";
      }
    }
    states.push_back({{"state", info.key}, {"best", best}, {"lessons", recent}});
  }
  if (!options.state.empty() && states.empty()) {
    std::vector<std::string> keys;
    for (const auto& info : catalogue->states) keys.push_back(info.key);
    std::string known;
    for (const auto& key : keys) known += (known.empty() ? "" : ", ") + key;
    return Error::usage("--state " + options.state + ": not a state of the catalogue" +
                        did_you_mean(options.state, keys) + " (the states: " + known + ")");
  }
  if (options.common.json)
    session.out << nlohmann::json{{"arch", options.arch}, {"states", states}}.dump(2) << "\n";
  return ExitCode::ok;
}

// One number from a query that returns one row of one column.
Result<std::int64_t> count(const Store& store, const char* sql) {
  auto st = store.database().prepare(sql);
  if (!st) return st.error();
  auto row = st->step();
  if (!row) return row.error();
  return *row ? st->int64(0) : 0;
}

// Runs `sql`, whose one parameter is a row limit, and makes each row JSON with `to_json_row`.
template <class RowToJson>
Result<nlohmann::json> rows_of(const Store& store, const char* sql, int limit,
                               RowToJson to_json_row) {
  auto st = store.database().prepare(sql);
  if (!st) return st.error();
  KB_TRY(st->bind({std::int64_t{limit}}));
  nlohmann::json rows = nlohmann::json::array();
  for (;;) {
    auto row = st->step();
    if (!row) return row.error();
    if (!*row) return rows;
    rows.push_back(to_json_row(*st));
  }
}

// The (state, technique, arch) rows with the most measured steps: what the KB knows best.
Result<nlohmann::json> most_evidence(const Store& store, int limit = 10) {
  return rows_of(
      store,
      "SELECT state, technique, arch, attempts, measured, faster, slower, sum_log_speedup "
      "FROM stats ORDER BY measured DESC, state, technique, arch LIMIT ?",
      limit, [](const Statement& st) {
        const std::int64_t measured = st.int64(4);
        return nlohmann::json{{"state", st.text(0)},
                              {"technique", st.text(1)},
                              {"arch", st.text(2)},
                              {"attempts", st.int64(3)},
                              {"measured", measured},
                              {"faster", st.int64(5)},
                              {"slower", st.int64(6)},
                              {"mean_log_speedup", measured > 0 ? st.real(7) / measured : 0.0}};
      });
}

// The newest lessons, newest first.
Result<nlohmann::json> recent_lessons(const Store& store, int limit = 5) {
  return rows_of(store,
                 "SELECT state, technique, text, created_at FROM lessons "
                 "ORDER BY created_at DESC, id LIMIT ?",
                 limit, [](const Statement& st) {
                   return nlohmann::json{{"state", st.text(0)},
                                         {"technique", st.text(1)},
                                         {"text", st.text(2)},
                                         {"created_at", st.int64(3)}};
                 });
}

Result<nlohmann::json> summary(const Store& store, const std::filesystem::path& path) {
  nlohmann::json j = {{"kb", path.string()}};
  for (const auto& [key, sql] : std::vector<std::pair<const char*, const char*>>{
           {"techniques", "SELECT count(*) FROM techniques"},
           {"states", "SELECT count(*) FROM states"},
           {"trajectories", "SELECT count(*) FROM trajectories"},
           {"steps", "SELECT count(*) FROM trajectory_steps"},
           {"measured_steps", "SELECT coalesce(sum(measured), 0) FROM stats"},
           {"lessons", "SELECT count(*) FROM lessons"},
           {"best_kernels", "SELECT count(*) FROM best_kernels"},
           {"schema_version", "PRAGMA user_version"}}) {
    auto n = count(store, sql);
    if (!n) return n.error();
    j[key] = *n;
  }
  return j;
}

// kb stats: counts, the best-evidenced statistics and the newest lessons.
Result<ExitCode> stats(const Store& store, const std::filesystem::path& path,
                       const KbOptions& options, Session& session) {
  auto j = summary(store, path);
  if (!j) return j.error();
  auto evidence = most_evidence(store);
  if (!evidence) return evidence.error();
  (*j)["most_evidence"] = *evidence;
  auto recent = recent_lessons(store);
  if (!recent) return recent.error();
  (*j)["recent_lessons"] = *recent;
  if (options.common.json) {
    session.out << j->dump(2) << "\n";
    return ExitCode::ok;
  }
  session.out << "KB " << path.string() << " (schema v" << (*j)["schema_version"]
              << "): " << (*j)["techniques"] << " techniques, " << (*j)["states"] << " states, "
              << (*j)["trajectories"] << " trajectories (" << (*j)["steps"] << " steps, "
              << (*j)["measured_steps"] << " measured), " << (*j)["lessons"] << " lessons, "
              << (*j)["best_kernels"] << " best kernels\n";
  if (!(*j)["most_evidence"].empty())
    session.out << "most evidence (state, technique, arch: measured of attempts, mean speedup):\n";
  for (const auto& r : (*j)["most_evidence"])
    session.out << "  " << r["state"].get<std::string>() << "  "
                << r["technique"].get<std::string>() << "  " << r["arch"].get<std::string>() << ": "
                << r["measured"] << " of " << r["attempts"] << ", "
                << percent_gain(r["mean_log_speedup"].get<double>()) << " (" << r["faster"]
                << " faster, " << r["slower"] << " slower)\n";
  if (!(*j)["recent_lessons"].empty()) session.out << "recent lessons:\n";
  for (const auto& l : (*j)["recent_lessons"])
    session.out << "  " << l["state"].get<std::string>() << " / "
                << l["technique"].get<std::string>() << ": " << l["text"].get<std::string>()
                << "\n";
  return ExitCode::ok;
}

// kb export: sorted JSON to stdout or --out.
Result<ExitCode> export_kb(const Store& store, const std::filesystem::path& path,
                           const KbOptions& options, Session& session) {
  auto text = export_json(store);
  if (!text) return text.error();
  if (options.file.empty()) {
    session.out << *text;
    return ExitCode::ok;
  }
  std::ofstream out(options.file, std::ios::binary | std::ios::trunc);
  out << *text;
  if (!out.flush())
    return Error::environment("--out " + options.file +
                              ": cannot write it: " + std::strerror(errno));
  session.progress << "exported " << path.string() << " to " << options.file << "\n";
  return ExitCode::ok;
}

// The file named by --from, read whole before the KB is opened, so a missing
// file leaves no KB behind.
Result<std::string> read_import(const std::string& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return Error::usage("--from " + file + ": cannot read it: " + std::strerror(errno));
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
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
  // A command that writes creates the KB when there is none, or fills an empty file.
  std::error_code ec;
  const bool absent_or_empty =
      !std::filesystem::exists(path, ec) ||
      (std::filesystem::is_regular_file(path, ec) && std::filesystem::file_size(path, ec) == 0);
  if (!writes || !absent_or_empty) KB_TRY(check_kb_file(path, kb_flag(options)));
  for (const auto& other : options.others) KB_TRY(check_kb_file(other, "--from"));
  return Ok{};
}

// kb init, import and merge: they write the KB at `path`, creating it if absent.
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
  auto store = Store::open(path);
  if (!store) return store.error();
  if (catalogue) KB_TRY(seed_catalogue(*store, *catalogue));
  if (import) {
    if (auto s = import_json(*store, *import); !s)
      return Error{s.error().kind, options.file + ": " + s.error().message, s.error().where};
    session.progress << "imported " << options.file << " into " << path.string() << "\n";
  }
  for (const auto& other : options.others) {
    auto source = KbSnapshot::take(other, "--from");
    if (!source) return source.error();
    KB_TRY(merge_into(*store, source->store()));
    session.progress << "merged " << other << " into " << path.string() << "\n";
  }
  return stats(*store, path, options, session);
}

Result<ExitCode> run_kb(const KbOptions& options, Session& session) {
  const auto path = kb_path(options.common.repo, options.kb);
  KB_TRY(check_arguments(options, path));
  if (options.init->parsed() || options.import_->parsed() || options.merge->parsed())
    return write_kb(options, path, session);
  auto snapshot = KbSnapshot::take(path, kb_flag(options));
  if (!snapshot) return snapshot.error();
  if (options.export_->parsed()) return export_kb(snapshot->store(), path, options, session);
  if (options.show->parsed()) return show(snapshot->store(), options, session);
  return stats(snapshot->store(), path, options, session);
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
  options->show->add_option("--state", options->state,
                            "Only this state (e.g. memory.dram_saturated)");
  options->show
      ->add_option("--arch", options->arch,
                   "GPU architecture the statistics are for (default sm_90)")
      ->check(arch_validator());
  options->show->add_option("--top", options->top, "Techniques per state (default 5)")
      ->check(CLI::PositiveNumber);
  options->export_ =
      app.add_subcommand("export", "Write the KB as stable, sorted JSON (stdout, or --out FILE)");
  options->export_->add_option("--out", options->file, "File to write instead of stdout");
  options->import_ = app.add_subcommand("import", "Read a JSON export into an empty KB");
  options->import_->add_option("--from", options->file, "The JSON file to import")->required();
  options->merge =
      app.add_subcommand("merge", "Merge other KB files into this one (lossless, order-free)");
  options->merge->add_option("--from", options->others, "KB files to merge in (repeatable)")
      ->required();
  for (CLI::App* sub : {options->init, options->stats, options->show, options->export_,
                        options->import_, options->merge}) {
    add_common_options(*sub, options->common);
    add_kb_flags(*sub, options->kb);
  }
  app.require_subcommand(1);
  return [options](Session& session) { return run_kb(*options, session); };
}

}  // namespace kblaster
