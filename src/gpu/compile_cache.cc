#include "gpu/compile_cache.h"

#include <unistd.h>

#include <atomic>

#include "core/file_write.h"
#include "gpu/content_hash.h"
#include "gpu/elf_object.h"

namespace kblaster {
namespace {

namespace fs = std::filesystem;

// Bumped whenever the key's layout or the way objects are built changes.
constexpr const char* kKeyVersion = "kblaster-compile-cache-v1";

void add_list(Sha256& hasher, const char* name, const std::vector<std::string>& items) {
  hasher.add_field(name);
  hasher.add_field(std::to_string(items.size()));
  for (const auto& item : items) hasher.add_field(item);
}

// A name no other writer uses: pid plus a per-process counter.
std::string unique_suffix() {
  static std::atomic<unsigned> counter{0};
  return std::to_string(::getpid()) + "." + std::to_string(counter++);
}

}  // namespace

Result<std::string> compute_cache_key(const CacheKeyInputs& in) {
  Sha256 hasher;
  hasher.add_field(kKeyVersion);
  hasher.add_field("shim");
  hasher.add_field(in.shim_text);
  hasher.add_field("files");
  hasher.add_field(std::to_string(in.files.size()));
  for (const auto& [path, content] : in.files) {
    hasher.add_field(path);
    hasher.add_field(content);
  }
  add_list(hasher, "include_dirs", in.include_dirs);
  add_list(hasher, "flags", in.flags);
  add_list(hasher, "defines", in.defines);
  hasher.add_field("arch");
  hasher.add_field(in.arch);
  hasher.add_field("compiler");
  hasher.add_field(in.compiler_version);
  return hasher.finish();
}

fs::path CompileCache::object_path(const std::string& key) const {
  return dir_ / "objects" / (key + ".so");
}

CacheLookup CompileCache::lookup(const std::string& key, std::string_view entry_symbol) const {
  const fs::path path = object_path(key);
  const ObjectCheck check = check_shared_object(path, entry_symbol);
  if (check.ok()) return {CacheStatus::hit, path, {}};
  // Missing, or unreadable by this user (whose build will store its own): nothing to remove.
  if (check.defect == ObjectDefect::missing || check.defect == ObjectDefect::unreadable)
    return {CacheStatus::miss, {}, {}};
  std::error_code ec;
  fs::remove(path, ec);  // a damaged object would fail every later build that loads it
  return {CacheStatus::miss,
          {},
          "the cached object " + path.string() + " was damaged (" + check.detail + ")" +
              (ec ? " and could not be removed: " + ec.message() : "; removed it")};
}

Result<fs::path> CompileCache::store(const std::string& key, const fs::path& built,
                                     std::string_view entry_symbol) {
  if (const ObjectCheck check = check_shared_object(built, entry_symbol); !check.ok())
    return Error::internal("refusing to cache " + built.string() + ": " + check.detail);
  const fs::path target = object_path(key);
  const fs::path temp = target.parent_path() / ("." + key + ".tmp." + unique_suffix());
  KB_TRY(make_directories(target.parent_path()));
  std::error_code ec;
  fs::copy_file(built, temp, fs::copy_options::overwrite_existing, ec);
  if (ec) {
    std::error_code ignored;
    fs::remove(temp, ignored);
    return write_failure(temp, "copy " + built.string() + " to", ec);
  }
  fs::rename(temp, target, ec);  // atomic: readers see the whole object or none
  if (ec) {
    std::error_code ignored;
    fs::remove(temp, ignored);
    return write_failure(target, "store the object as", ec);
  }
  return target;
}

}  // namespace kblaster
