#include "cli/kb_snapshot.h"

#include <stdlib.h>

#include <array>
#include <cstring>
#include <fstream>

namespace kblaster {

struct KbSnapshot::Folder {
  std::filesystem::path path;
  ~Folder() {
    std::error_code ignored;  // a leftover temporary folder is not worth failing the command for
    std::filesystem::remove_all(path, ignored);
  }
};

Status check_kb_file(const std::filesystem::path& path, const std::string& flag) {
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  const std::string named = path.string() + " (" + flag + ")";
  if (!std::filesystem::exists(status))
    return Error::usage("no KB at " + named + "; `kblaster kb init` creates one");
  if (std::filesystem::is_directory(status))
    return Error::usage(named + " is a directory, not a KB file");
  constexpr std::array<char, 16> kHeader = {'S', 'Q', 'L', 'i', 't', 'e', ' ', 'f',
                                            'o', 'r', 'm', 'a', 't', ' ', '3', '\0'};
  std::array<char, 16> header{};
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error::usage("cannot read " + named + ": " + std::strerror(errno));
  in.read(header.data(), header.size());
  if (in.gcount() != static_cast<std::streamsize>(header.size()) || header != kHeader)
    return Error::usage(named + " is not a KB: it is not an SQLite database" +
                        (in.gcount() == 0 ? " (the file is empty)" : ""));
  return Ok{};
}

Result<KbSnapshot> KbSnapshot::take(const std::filesystem::path& path, const std::string& flag) {
  KB_TRY(check_kb_file(path, flag));
  std::string pattern = (std::filesystem::temp_directory_path() / "kblaster-kb-XXXXXX").string();
  if (!::mkdtemp(pattern.data()))
    return Error::io("cannot make a temporary folder for a copy of " + path.string() + ": " +
                     std::strerror(errno));
  auto folder = std::make_unique<Folder>();  // no temporary Folder: it would remove the folder
  folder->path = pattern;
  const auto copy = folder->path / "kb.sqlite";
  for (const std::string suffix : {"", "-wal"}) {
    const std::filesystem::path from = path.string() + suffix;
    if (!suffix.empty() && !std::filesystem::exists(from)) continue;
    std::error_code ec;
    std::filesystem::copy_file(from, copy.string() + suffix, ec);
    if (ec) return Error::io("cannot copy " + from.string() + " to read it: " + ec.message());
  }
  auto store = Store::open(copy);
  if (!store) {  // name the user's file, not the copy
    std::string message = store.error().message;
    for (auto at = message.find(copy.string()); at != std::string::npos;
         at = message.find(copy.string(), at + path.string().size()))
      message.replace(at, copy.string().size(), path.string());
    return Error{store.error().kind, message + " (" + flag + ")", store.error().where};
  }
  return KbSnapshot(std::move(folder), std::move(*store));
}

KbSnapshot::KbSnapshot(std::unique_ptr<Folder> folder, Store store)
    : folder_(std::move(folder)), store_(std::move(store)) {}
KbSnapshot::KbSnapshot(KbSnapshot&&) noexcept = default;
KbSnapshot::~KbSnapshot() = default;

}  // namespace kblaster
