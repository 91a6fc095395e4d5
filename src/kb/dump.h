// Every row of a KB file as plain values, in primary-key order: what export and merge
// work on. Reading and writing are separate from the JSON form and the merge rules.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/status.h"
#include "kb/records.h"
#include "kb/sqlite.h"

namespace kblaster {

// A row of the `techniques` table (the catalogue's columns the KB keeps).
struct TechniqueRow {
  std::string id;
  std::string category;
  std::string description;
  std::string applier;
};

// A row of the `states` table.
struct StateRow {
  std::string key;
  std::string bottleneck;  // the `class` column
  std::string description;
};

// A row of the `stats` table.
struct StatsRow {
  std::string state;
  std::string technique;
  std::string arch;
  TechniqueStats stats;
};

// The whole KB. Each vector is sorted by its table's primary key (byte order, as
// SQLite's BINARY collation); trajectory steps by step.
struct KbContents {
  std::vector<TechniqueRow> techniques;
  std::vector<StateRow> states;
  std::vector<StatsRow> stats;
  std::vector<Trajectory> trajectories;
  std::vector<Lesson> lessons;
  std::vector<BestKernel> best_kernels;
  std::vector<KernelCost> kernel_costs;
};

// Reads every table of `db`. Run it inside a transaction for a consistent view.
Result<KbContents> read_kb(const Database& db);

// True when every table of `db` is empty.
Result<bool> kb_is_empty(const Database& db);

// Inserts every row of `kb` into `db` as it is (stats too: nothing is derived).
// Does not begin a transaction; a duplicate key is an Error naming table and row.
Status write_kb(const Database& db, const KbContents& kb);

// Deletes every row of every KB table. Does not begin a transaction.
Status clear_kb(const Database& db);

}  // namespace kblaster
