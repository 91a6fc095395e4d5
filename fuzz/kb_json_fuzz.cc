// libFuzzer target: the KB JSON that `kblaster kb import` reads. The input is read
// (kb_from_json), written into an empty KB (write_kb, in memory, rolled back after each
// input) and exported again; the export must read back and export to the same text.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz_check.h"
#include "kb/dump.h"
#include "kb/kb_json.h"
#include "kb/schema.h"
#include "kb/sqlite.h"

namespace kblaster {
namespace {

// One migrated in-memory KB with foreign keys on, as Store::open configures a file.
const Database& empty_kb() {
  static Database db = [] {
    Result<Database> opened = Database::open(":memory:");
    if (!opened) fuzz_bug("cannot open an in-memory KB: " + opened.error().describe());
    if (Status s = opened->exec("PRAGMA foreign_keys=ON"); !s) fuzz_bug(s.error().describe());
    if (Status s = migrate(*opened, ":memory:"); !s) fuzz_bug(s.error().describe());
    return std::move(*opened);
  }();
  return db;
}

void round_trip(const KbContents& kb) {
  const Database& db = empty_kb();
  Result<Transaction> tx = Transaction::begin(db);  // rolls back when it goes out of scope
  if (!tx) fuzz_bug(tx.error().describe());
  if (Status written = write_kb(db, kb); !written) return expect_input_error(written.error());
  Result<KbContents> stored = read_kb(db);
  if (!stored) fuzz_bug("an imported KB cannot be read: " + stored.error().describe());
  Result<std::string> exported = kb_to_json(*stored);
  if (!exported) fuzz_bug("an imported KB cannot be exported: " + exported.error().describe());
  Result<KbContents> again = kb_from_json(*exported);
  if (!again) fuzz_bug("an export does not read back: " + again.error().describe());
  Result<std::string> reexported = kb_to_json(*again);
  if (!reexported || *reexported != *exported) fuzz_bug("export, import, export changed the KB");
}

}  // namespace
}  // namespace kblaster

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace kblaster;
  Result<KbContents> kb = kb_from_json(std::string_view(reinterpret_cast<const char*>(data), size));
  if (!kb) {
    expect_input_error(kb.error());
    return 0;
  }
  round_trip(*kb);
  return 0;
}
