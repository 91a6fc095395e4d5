// A KB file that does not exist yet, built at a temporary path beside its target
// and renamed into place only once complete. A kill or a failure while it is
// filled (kb init, import, or merge into a new KB) leaves no KB at the target,
// never one with empty tables: the state before, or the one after.
#pragma once

#include <filesystem>
#include <optional>

#include "core/status.h"
#include "kb/store.h"

namespace kblaster {

// Owns the temporary KB until publish(). Copy deleted: one owner removes the temporary.
class StagedKb {
 public:
  // Creates an empty KB (schema, WAL) at temporary_beside(target), in target's
  // directory (created if absent), so the final rename is atomic. Errors name the
  // temporary file; a full disk or read-only directory is Error::environment.
  static Result<StagedKb> create(const std::filesystem::path& target);
  StagedKb(StagedKb&& other) noexcept;
  StagedKb& operator=(StagedKb&&) = delete;
  StagedKb(const StagedKb&) = delete;
  StagedKb& operator=(const StagedKb&) = delete;
  // Removes the temporary file (and its -wal and -shm) unless published.
  ~StagedKb();

  // The KB to fill. Valid until publish().
  Store& store() { return *store_; }
  const std::filesystem::path& temporary() const { return temporary_; }

  // Closes the store, which folds its WAL into the file and syncs it, removes a
  // -wal or -shm left beside the target (one would be replayed into the new file),
  // renames the file over `target` (replacing an empty file there), and opens it
  // there. On failure the target is left as it was.
  Result<Store> publish();

 private:
  StagedKb(std::filesystem::path target, std::filesystem::path temporary, Store store);
  std::filesystem::path target_;
  std::filesystem::path temporary_;  // empty once published or moved from
  std::optional<Store> store_;
};

}  // namespace kblaster
