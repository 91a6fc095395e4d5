#include "git/materialize.h"

#include <unistd.h>

#include <fstream>

namespace kblaster {
namespace {

Status write_file(const std::filesystem::path& path, const std::string& text) {
  std::error_code ec;
  std::filesystem::create_directories(path.parent_path(), ec);
  if (ec) return Error::io("cannot create `" + path.parent_path().string() + "`: " + ec.message());
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out) return Error::io("cannot write `" + path.string() + "`");
  return Ok{};
}

}  // namespace

Result<std::filesystem::path> materialize_tree(const SourceTree& tree, const CommitId& commit,
                                               const std::filesystem::path& trees_dir) {
  const auto dir = trees_dir / commit.hex;
  const auto marker = trees_dir / (commit.hex + ".complete");
  std::error_code ec;
  if (std::filesystem::is_regular_file(marker, ec) && std::filesystem::is_directory(dir, ec))
    return dir;
  const auto temp = trees_dir / (commit.hex + ".tmp-" + std::to_string(::getpid()));
  std::filesystem::remove_all(temp, ec);
  for (const auto& file : tree.list_files()) {
    auto text = tree.read(file);
    if (!text)
      return Error::io("cannot read `" + file + "` at " + commit.short_hex() + " (" +
                       tree.describe() + ")");
    if (auto s = write_file(temp / file, *text); !s) {
      std::filesystem::remove_all(temp, ec);
      return s.error();
    }
  }
  std::filesystem::create_directories(temp, ec);  // an empty tree is still a tree
  // A directory without its marker is a leftover of an interrupted run.
  std::filesystem::remove_all(dir, ec);
  std::filesystem::rename(temp, dir, ec);
  if (ec) {
    std::filesystem::remove_all(temp, ec);
    return Error::io("cannot move the tree of " + commit.short_hex() + " into `" + dir.string() +
                     "`: " + ec.message());
  }
  KB_TRY(write_file(marker, commit.hex + "\n"));
  return dir;
}

}  // namespace kblaster
