#include "kb/seed.h"

namespace kblaster {
namespace {

// Runs one statement with `values`; statements are prepared per row, as in store.cc.
Status run_row(const Database& db, const char* sql, std::initializer_list<SqlValue> values) {
  auto st = db.prepare(sql);
  if (!st) return st.error();
  KB_TRY(st->bind(values));
  return st->run();
}

}  // namespace

Status seed_catalogue(Store& store, const Catalogue& catalogue) {
  const Database& db = store.database();
  auto tx = Transaction::begin(db);
  if (!tx) return tx.error();
  for (const auto& t : catalogue.techniques)
    KB_TRY(run_row(
        db,
        "INSERT INTO techniques (id, category, description, applier) VALUES (?1, ?2, ?3, ?4) "
        "ON CONFLICT(id) DO UPDATE SET category = ?2, description = ?3, applier = ?4",
        {t.id, category_name(t.category), t.description, applier_name(t.applier)}));
  for (const auto& s : catalogue.states)
    KB_TRY(run_row(db,
                   "INSERT INTO states (key, class, description) VALUES (?1, ?2, ?3) "
                   "ON CONFLICT(key) DO UPDATE SET class = ?2, description = ?3",
                   {s.key, s.bottleneck, s.description}));
  return tx->commit();
}

}  // namespace kblaster
