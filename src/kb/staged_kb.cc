#include "kb/staged_kb.h"

#include <utility>

#include "core/file_replace.h"
#include "core/file_write.h"

namespace kblaster {
namespace {

namespace fs = std::filesystem;

// `db` with SQLite's suffix ("-wal", "-shm") appended.
fs::path with_suffix(const fs::path& db, const char* suffix) { return db.string() + suffix; }

// Removes an SQLite database file and the files a WAL-mode connection keeps beside it.
void remove_database(const fs::path& db) {
  std::error_code ignored;  // what cannot be removed is a leftover, not a failure
  for (const char* suffix : {"", "-wal", "-shm"}) fs::remove(with_suffix(db, suffix), ignored);
}

}  // namespace

Result<StagedKb> StagedKb::create(const fs::path& target) {
  if (target.has_parent_path()) KB_TRY(make_directories(target.parent_path()));
  fs::path temporary = temporary_beside(target);
  Result<Store> store = Store::open(temporary);
  if (!store) {
    remove_database(temporary);
    return store.error();
  }
  return StagedKb(target, std::move(temporary), std::move(*store));
}

StagedKb::StagedKb(fs::path target, fs::path temporary, Store store)
    : target_(std::move(target)), temporary_(std::move(temporary)), store_(std::move(store)) {}

StagedKb::StagedKb(StagedKb&& other) noexcept
    : target_(std::move(other.target_)),
      temporary_(std::exchange(other.temporary_, {})),
      store_(std::move(other.store_)) {
  other.store_.reset();
}

StagedKb::~StagedKb() {
  store_.reset();  // closed before its files go
  if (!temporary_.empty()) remove_database(temporary_);
}

Result<Store> StagedKb::publish() {
  // Every committed page into the file itself: the rename moves the file, not its WAL.
  KB_TRY(store_->database().exec("PRAGMA wal_checkpoint(TRUNCATE)"));
  store_.reset();
  std::error_code ec;
  if (fs::file_size(with_suffix(temporary_, "-wal"), ec) > 0 && !ec)
    return Error::io(temporary_.string() + ": its WAL was not folded into it when it was closed");
  if (fs::exists(target_, ec) && fs::file_size(target_, ec) > 0)
    return Error::usage(target_.string() +
                        ": another process wrote a KB there meanwhile; this one was not put in "
                        "its place (run the command again to write into that KB)");
  for (const char* suffix : {"-wal", "-shm"}) fs::remove(with_suffix(target_, suffix), ec);
  fs::rename(temporary_, target_, ec);
  if (ec) return write_failure(target_, "move the new KB into place as", ec);
  temporary_.clear();
  return Store::open(target_);
}

}  // namespace kblaster
