#include "kb/kb_snapshot.h"

#include <array>
#include <fstream>

#include "kb/sqlite.h"

namespace kblaster {

Status check_kb_file(const std::filesystem::path& path, const std::string& flag) {
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  const std::string named = path.string() + " (" + flag + ")";
  if (status.type() == std::filesystem::file_type::not_found)
    return Error::usage("no KB at " + named + "; `kblaster kb init` creates one");
  if (ec) return Error::environment("cannot look at " + named + ": " + ec.message());
  if (std::filesystem::is_directory(status))
    return Error::usage(named + " is a directory, not a KB file");
  if (!std::filesystem::is_regular_file(status))  // a FIFO would block the read below
    return Error::usage(named + " is not a regular file, so not a KB");
  constexpr std::array<char, 16> kHeader = {'S', 'Q', 'L', 'i', 't', 'e', ' ', 'f',
                                            'o', 'r', 'm', 'a', 't', ' ', '3', '\0'};
  std::array<char, 16> header{};
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error::environment("cannot read " + named);
  in.read(header.data(), header.size());
  if (in.gcount() != static_cast<std::streamsize>(header.size()) || header != kHeader)
    return Error::usage(named + " is not a KB: it is not an SQLite database" +
                        (in.gcount() == 0 ? " (the file is empty)" : ""));
  return Ok{};
}

// Copies the KB at `from` to `to` (a new file) as one consistent snapshot,
// without changing `from`'s data (a -wal file a writer left may be folded into
// it). The message of a failure, or "".
std::string copy_kb(const std::filesystem::path& from, const std::filesystem::path& to) {
  auto source = Database::open_existing(from);
  if (!source) return source.error().message;
  auto copy = Database::open(to);
  if (!copy) return copy.error().message;
  if (auto copied = source->backup_to(*copy); !copied) return copied.error().message;
  return {};
}

Result<KbSnapshot> KbSnapshot::take(const std::filesystem::path& path, const std::string& flag) {
  KB_TRY(check_kb_file(path, flag));
  const std::string named = path.string() + " (" + flag + ")";
  auto folder = std::make_unique<ScratchFolder>("kblaster-kb");
  if (folder->path().empty())
    return Error::environment("cannot make a temporary folder to read " + named + ": " +
                              folder->why());
  const auto copy = folder->path() / "kb.sqlite";
  if (const std::string failure = copy_kb(path, copy); !failure.empty())
    return Error::environment(named + ": " + failure);
  auto store = Store::open(copy);
  if (!store) {  // the copy is damaged or from a newer kblaster: name the user's file
    std::string message = store.error().message;
    for (auto at = message.find(copy.string()); at != std::string::npos;
         at = message.find(copy.string(), at + path.string().size()))
      message.replace(at, copy.string().size(), path.string());
    return Error::environment(message + " (" + flag + ")");
  }
  return KbSnapshot(std::move(folder), std::move(*store));
}

KbSnapshot::KbSnapshot(std::unique_ptr<ScratchFolder> folder, Store store)
    : folder_(std::move(folder)), store_(std::move(store)) {}
KbSnapshot::KbSnapshot(KbSnapshot&&) noexcept = default;
KbSnapshot::~KbSnapshot() = default;

}  // namespace kblaster
