// `kblaster kb init|stats [REPO]`: the Knowledge Base file of a kernel
// repository (DESIGN.md, "Knowledge Base and MAIC-RL").
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/kb_location.h"
#include "kb/seed.h"
#include "kb/store.h"

namespace kblaster {
namespace {

struct KbOptions {
  CommonOptions common;
  KbFlags kb;
  CLI::App* init = nullptr;
  CLI::App* stats = nullptr;
};

// One number from a query that returns one row of one column.
Result<std::int64_t> count(const Store& store, const char* sql) {
  auto st = store.database().prepare(sql);
  if (!st) return st.error();
  auto row = st->step();
  if (!row) return row.error();
  return *row ? st->int64(0) : 0;
}

Result<nlohmann::json> summary(const Store& store) {
  nlohmann::json j = {{"kb", store.path().string()}};
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

Result<ExitCode> run_kb(const KbOptions& options, Session& session) {
  const auto path = kb_path(options.common.repo, options.kb);
  auto store = Store::open(path);
  if (!store) return store.error();
  if (options.init->parsed()) {
    auto catalogue = read_catalogue(options.kb);
    if (!catalogue) return catalogue.error();
    KB_TRY(seed_catalogue(*store, *catalogue));
  }
  auto j = summary(*store);
  if (!j) return j.error();
  if (options.common.json) {
    session.out << j->dump(2) << "\n";
    return ExitCode::ok;
  }
  session.out << "KB " << path.string() << " (schema v" << (*j)["schema_version"] << "): "
              << (*j)["techniques"] << " techniques, " << (*j)["states"] << " states, "
              << (*j)["trajectories"] << " trajectories (" << (*j)["steps"] << " steps, "
              << (*j)["measured_steps"] << " measured), " << (*j)["lessons"] << " lessons, "
              << (*j)["best_kernels"] << " best kernels\n";
  return ExitCode::ok;
}

}  // namespace

CommandAction setup_kb(CLI::App& app) {
  auto options = std::make_shared<KbOptions>();
  options->init = app.add_subcommand("init", "Create the KB (if absent) and load the seed catalogue into it");
  options->stats = app.add_subcommand("stats", "What the KB holds: techniques, states, trajectories, lessons");
  for (CLI::App* sub : {options->init, options->stats}) {
    add_common_options(*sub, options->common);
    add_kb_flags(*sub, options->kb);
  }
  app.require_subcommand(1);
  return [options](Session& session) { return run_kb(*options, session); };
}

}  // namespace kblaster
