#include "shared_reference_outputs.h"

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <system_error>

namespace kblaster::harness {
namespace {

constexpr char kMagic[] = "kblaster-reference-outputs 1\n";

std::uint64_t fnv1a(const std::string& text) {
  std::uint64_t h = 1469598103934665603ull;
  for (unsigned char c : text) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

// Reads exactly `size` bytes from `fd`; false on a short read or an error.
bool read_exact(int fd, void* data, std::size_t size) {
  auto* p = static_cast<char*>(data);
  while (size > 0) {
    const ssize_t n = ::read(fd, p, size);
    if (n <= 0) return false;
    p += n;
    size -= static_cast<std::size_t>(n);
  }
  return true;
}

bool read_u64(int fd, std::uint64_t& value) { return read_exact(fd, &value, sizeof value); }

void put_u64(std::string& out, std::uint64_t value) {
  out.append(reinterpret_cast<const char*>(&value), sizeof value);
}

// Bytes of the outputs already kept in `dir` (a temporary a killed harness left is not one).
std::size_t kept_bytes(const std::string& dir) {
  std::size_t total = 0;
  std::error_code ec;
  for (auto it = std::filesystem::directory_iterator(dir, ec);
       !ec && it != std::filesystem::directory_iterator(); it.increment(ec)) {
    std::error_code size_ec;
    if (it->path().extension() != ".out" || !it->is_regular_file(size_ec)) continue;
    const auto size = it->file_size(size_ec);
    if (!size_ec) total += size;
  }
  return total;
}

// Half the space free to an unprivileged writer in `dir`'s filesystem (a tmpfs is memory).
std::size_t spare_bytes(const std::string& dir) {
  struct statvfs fs {};
  if (::statvfs(dir.c_str(), &fs) != 0) return 0;
  return static_cast<std::size_t>(fs.f_bavail) * fs.f_frsize / 2;
}

// Writes all of `data` to `fd`; false on any failure (a full disk, the file-size limit).
bool write_all(int fd, const char* data, std::size_t size) {
  while (size > 0) {
    const ssize_t n = ::write(fd, data, size);
    if (n <= 0) return false;
    data += n;
    size -= static_cast<std::size_t>(n);
  }
  return true;
}

// The file size this process may write (RLIMIT_FSIZE: a larger write would raise SIGXFSZ).
std::size_t file_size_limit() {
  rlimit limit{};
  if (::getrlimit(RLIMIT_FSIZE, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY)
    return static_cast<std::size_t>(-1);
  return static_cast<std::size_t>(limit.rlim_cur);
}

// The bytes a file keeping `key` with outputs of `sizes` holds.
std::size_t file_bytes(const std::string& key, const std::vector<std::size_t>& sizes) {
  std::size_t total = sizeof kMagic - 1 + 2 * sizeof(std::uint64_t) + key.size();
  for (std::size_t s : sizes) total += sizeof(std::uint64_t) + s;
  return total;
}

// Closes a descriptor when it goes out of scope.
struct Fd {
  int fd;
  explicit Fd(int f) : fd(f) {}
  Fd(const Fd&) = delete;  // closes exactly once
  Fd& operator=(const Fd&) = delete;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

}  // namespace

SharedReferenceOutputs SharedReferenceOutputs::from_environment() {
  const char* dir = std::getenv("KBLASTER_REFERENCE_OUTPUTS");
  if (!dir || !*dir) return {};
  return SharedReferenceOutputs(dir, reference_memo_budget());
}

std::string SharedReferenceOutputs::path_of(const std::string& key) const {
  char name[32];
  std::snprintf(name, sizeof name, "%016llx.out", static_cast<unsigned long long>(fnv1a(key)));
  return dir_ + "/" + name;
}

std::optional<MemoOutputs> SharedReferenceOutputs::read(
    const std::string& key, const std::vector<std::size_t>& sizes) const {
  if (!on()) return std::nullopt;
  // O_NOFOLLOW and a regular file of exactly the size these outputs take: the file a harness
  // wrote here, not a link, a pipe (O_NONBLOCK: opening one must not wait for a writer) or a
  // file still growing.
  const Fd in(::open(path_of(key).c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC));
  struct stat st {};
  if (in.fd < 0 || ::fstat(in.fd, &st) != 0 || !S_ISREG(st.st_mode) ||
      static_cast<std::size_t>(st.st_size) != file_bytes(key, sizes))
    return std::nullopt;
  std::string magic(sizeof kMagic - 1, '\0'), stored(key.size(), '\0');
  std::uint64_t key_size = 0, count = 0;
  if (!read_exact(in.fd, magic.data(), magic.size()) || magic != kMagic ||
      !read_u64(in.fd, key_size) || key_size != key.size() ||
      !read_exact(in.fd, stored.data(), stored.size()) || stored != key ||
      !read_u64(in.fd, count) || count != sizes.size())
    return std::nullopt;
  MemoOutputs outputs;
  for (std::size_t want : sizes) {
    std::uint64_t size = 0;
    std::vector<unsigned char> bytes(want);
    if (!read_u64(in.fd, size) || size != want || !read_exact(in.fd, bytes.data(), want))
      return std::nullopt;
    outputs.push_back(std::move(bytes));
  }
  return outputs;
}

void SharedReferenceOutputs::write(const std::string& key, const MemoOutputs& outputs) const {
  if (!on()) return;
  std::string header(kMagic);
  put_u64(header, key.size());
  header += key;
  put_u64(header, outputs.size());
  std::vector<std::size_t> sizes;
  for (const auto& o : outputs) sizes.push_back(o.size());
  const std::size_t size = file_bytes(key, sizes);
  if (size > file_size_limit() || size > spare_bytes(dir_) || kept_bytes(dir_) + size > budget_)
    return;
  std::string temp = path_of(key) + ".XXXXXX";
  const int fd = ::mkstemp(temp.data());
  if (fd < 0) return;
  bool ok = write_all(fd, header.data(), header.size());
  for (const auto& o : outputs) {
    std::string prefix;
    put_u64(prefix, o.size());
    ok = ok && write_all(fd, prefix.data(), prefix.size()) &&
         write_all(fd, reinterpret_cast<const char*>(o.data()), o.size());
  }
  ok = ::close(fd) == 0 && ok;
  if (!ok || std::rename(temp.c_str(), path_of(key).c_str()) != 0) ::unlink(temp.c_str());
}

}  // namespace kblaster::harness
