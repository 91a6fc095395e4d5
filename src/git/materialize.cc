#include "git/materialize.h"

#include <unistd.h>

#include "core/file_write.h"

namespace kblaster {
namespace {

// Writes `text` to `path`, creating its directory: write_failure's errors (exit 3
// for a full disk or a read-only place).
Status write_tree_file(const std::filesystem::path& path, const std::string& text) {
  KB_TRY(make_directories(path.parent_path()));
  return write_file(path, text);
}

}  // namespace

Result<std::filesystem::path> materialize_tree(const SourceTree& tree, const CommitId& commit,
                                               const std::filesystem::path& trees_dir) {
  if (auto unsafe = tree.unsafe_entry())
    return Error::usage("revision " + commit.short_hex() + " has a tree entry git refuses to " +
                        "check out, `" + *unsafe + "` (a name such as `..` or `.git` would " +
                        "write outside the tree): kblaster will not materialise it");
  const auto dir = trees_dir / commit.hex;
  const auto marker = trees_dir / (commit.hex + ".complete");
  std::error_code ec;
  // A marker or tree that is a link was not written here: it is not reused, and is replaced.
  if (std::filesystem::symlink_status(marker, ec).type() == std::filesystem::file_type::regular &&
      std::filesystem::symlink_status(dir, ec).type() == std::filesystem::file_type::directory)
    return dir;
  const auto temp = trees_dir / (commit.hex + ".tmp-" + std::to_string(::getpid()));
  std::filesystem::remove_all(temp, ec);
  for (const auto& file : tree.list_files()) {
    if (normalize_relative(file) != file)
      return Error::usage("revision " + commit.short_hex() + " lists `" + file +
                          "`, a path that leaves the tree: kblaster will not materialise it");
    auto text = tree.read(file);
    if (!text)
      return Error::io("cannot read `" + file + "` at " + commit.short_hex() + " (" +
                       tree.describe() + ")");
    if (auto s = write_tree_file(temp / file, *text); !s) {
      std::filesystem::remove_all(temp, ec);
      return s.error();
    }
  }
  std::filesystem::create_directories(temp, ec);  // an empty tree is still a tree
  // A directory without its marker is a leftover of an interrupted run.
  std::filesystem::remove_all(dir, ec);
  std::filesystem::rename(temp, dir, ec);
  if (ec) {
    Error failed = write_failure(dir, "move the tree of " + commit.short_hex() + " to", ec);
    std::filesystem::remove_all(temp, ec);
    return failed;
  }
  std::filesystem::remove(marker, ec);  // a link is removed, not written through
  KB_TRY(write_new_file(marker, commit.hex + "\n"));
  return dir;
}

}  // namespace kblaster
