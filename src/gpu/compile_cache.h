// Built candidate objects, kept on disk under the hash of everything that went
// into them, so an unchanged kernel is never compiled twice (DESIGN.md).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/status.h"

namespace kblaster {

// Everything a built object depends on. Paths are repository-relative, so the
// same kernel in two checkouts gets the same key.
struct CacheKeyInputs {
  std::string shim_text;  // the shim as generated for the repository-relative source path
  std::vector<std::pair<std::string, std::string>>
      files;  // (path, content): source, then its includes
  std::vector<std::string> include_dirs;
  std::vector<std::string> flags;
  std::vector<std::string> defines;
  std::string arch;
  std::string compiler_version;
};

// The SHA-256 of all inputs, field by field, as hex. Fails only if OpenSSL does.
Result<std::string> compute_cache_key(const CacheKeyInputs& inputs);

enum class CacheStatus { hit, miss };

struct CacheLookup {
  CacheStatus status = CacheStatus::miss;
  std::filesystem::path object;  // the stored object on a hit; empty on a miss
  std::string removed;           // on a miss: why a damaged stored object was removed, or ""
};

// A directory of objects, <dir>/objects/<key>.so. Safe to share between
// processes: an object appears under its name only once completely written.
// It holds only objects that passed check_shared_object (elf_object.h).
class CompileCache {
 public:
  explicit CompileCache(std::filesystem::path dir) : dir_(std::move(dir)) {}

  // Whether a sound object for `key` exporting `entry_symbol` is stored. A stored
  // file that fails check_shared_object (damaged, or written by a broken compiler
  // before kblaster checked) is removed, and the miss says why in `removed`; one
  // this user cannot read is a plain miss.
  CacheLookup lookup(const std::string& key, std::string_view entry_symbol) const;
  // Copies `built`, which must pass check_shared_object for `entry_symbol`, into
  // the cache under `key` (temp file + rename) and returns the stored path.
  // Error::internal for an unchecked object; write_failure's Error if the copy or
  // rename fails (exit 3 for a full disk); `built` is left as is.
  Result<std::filesystem::path> store(const std::string& key, const std::filesystem::path& built,
                                      std::string_view entry_symbol);
  // Where the object for `key` lives (whether or not it exists yet).
  std::filesystem::path object_path(const std::string& key) const;
  const std::filesystem::path& dir() const { return dir_; }

 private:
  std::filesystem::path dir_;
};

}  // namespace kblaster
