// Reading a KB file without changing its data. Store::open sets WAL mode and
// migrates the schema, so opening a user's file in place would change it; the
// commands that only read (kb stats, show, export, and the inputs of kb merge)
// open a private copy instead.
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "core/scratch_folder.h"
#include "core/status.h"
#include "kb/store.h"

namespace kblaster {

// Error::usage naming `flag` unless `path` is a regular, non-empty file that
// starts with SQLite's header: "no KB at PATH", "PATH is a directory", "PATH is
// not a KB"; Error::environment when it cannot be looked at or read.
Status check_kb_file(const std::filesystem::path& path, const std::string& flag);

// A consistent copy of a KB file (Database::backup_to, from a source opened by
// Database::open_existing) in a fresh temporary folder, opened as a Store. The folder is
// removed with the snapshot.
class KbSnapshot {
 public:
  // check_kb_file's errors, then Error::environment naming the file that could
  // not be copied or opened (damaged, or written by a newer kblaster).
  static Result<KbSnapshot> take(const std::filesystem::path& path, const std::string& flag);
  KbSnapshot(KbSnapshot&&) noexcept;
  KbSnapshot& operator=(KbSnapshot&&) = delete;
  ~KbSnapshot();

  Store& store() { return *store_; }

 private:
  KbSnapshot(std::unique_ptr<ScratchFolder> folder, Store store);
  // The copy's folder, declared first, so the store closes before it is removed.
  std::unique_ptr<ScratchFolder> folder_;
  std::optional<Store> store_;
};

}  // namespace kblaster
