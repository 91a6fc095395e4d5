#include "kb/kb_write.h"

#include "kb/kb_json.h"
#include "kb/merge.h"
#include "kb/seed.h"
#include "kb/staged_kb.h"

namespace kblaster {
namespace {

// A KB error met while writing `path`: SQLite's failures there are the file's
// (damaged, read-only, from a newer kblaster), not kblaster's.
Error kb_file_error(const Error& e, const std::filesystem::path& path) {
  if (e.kind != ErrorKind::io) return e;
  return Error::environment(path.string() + ": " + e.message);
}

// An import's error: the JSON's own faults name --from's file; the KB's are kb_file_error's.
Error import_error(const Error& e, const std::string& file, const std::filesystem::path& path) {
  if (e.kind == ErrorKind::config) return Error::config(file, e.message);
  if (e.kind == ErrorKind::usage) return e;
  return kb_file_error(e, path);
}

}  // namespace

bool absent_or_empty(const std::filesystem::path& path) {
  std::error_code ec;
  return !std::filesystem::exists(path, ec) ||
         (std::filesystem::is_regular_file(path, ec) && std::filesystem::file_size(path, ec) == 0);
}

Result<Store> write_kb_file(const std::filesystem::path& path, const KbWrites& writes) {
  std::optional<StagedKb> staged;
  std::optional<Store> written;
  if (absent_or_empty(path)) {
    auto fresh = StagedKb::create(path);
    if (!fresh) return kb_file_error(fresh.error(), path);
    staged.emplace(std::move(*fresh));
  } else {
    auto opened = Store::open(path);
    if (!opened) return kb_file_error(opened.error(), path);
    written.emplace(std::move(*opened));
  }
  Store& store = staged ? staged->store() : *written;
  if (writes.catalogue)
    if (auto s = seed_catalogue(store, *writes.catalogue); !s)
      return kb_file_error(s.error(), path);
  if (writes.json)
    if (auto s = import_json(store, *writes.json); !s)
      return import_error(s.error(), writes.json_file, path);
  for (const Store* other : writes.merge)
    if (auto s = merge_into(store, *other); !s) return kb_file_error(s.error(), path);
  if (!staged) return std::move(*written);
  auto published = staged->publish();
  if (!published) return kb_file_error(published.error(), path);
  return published;
}

}  // namespace kblaster
