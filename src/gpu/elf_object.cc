#include "gpu/elf_object.h"

#include <elf.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <functional>
#include <vector>

#include "gpu/file_descriptor.h"

namespace kblaster {
namespace {

#if defined(__x86_64__)
constexpr unsigned kHostMachine = EM_X86_64;
#elif defined(__aarch64__)
constexpr unsigned kHostMachine = EM_AARCH64;
#else
#error "kblaster loads candidate objects on x86-64 and aarch64 hosts only"
#endif

// No real .dynsym or .dynstr comes near this; a header that claims more is not believed.
constexpr std::uint64_t kMaxTableBytes = 64ull << 20;

// Copies `size` bytes at `offset` into `into`; false if they are not all in the file.
using ReadAt = std::function<bool(std::uint64_t offset, std::size_t size, void* into)>;

// True when [offset, offset + size) lies inside a file of `file_size` bytes.
bool within(std::uint64_t file_size, std::uint64_t offset, std::uint64_t size) {
  return offset <= file_size && size <= file_size - offset;
}

ObjectCheck defect(ObjectDefect d, std::string detail) { return {d, std::move(detail)}; }

// A table of `count` records of type T at `offset`, read only if it lies in the file.
template <class T>
bool read_table(std::uint64_t file_size, const ReadAt& read, std::uint64_t offset,
                std::uint64_t bytes, std::vector<T>& out) {
  if (bytes > kMaxTableBytes || bytes % sizeof(T) != 0 || !within(file_size, offset, bytes))
    return false;
  out.resize(bytes / sizeof(T));
  return bytes == 0 || read(offset, bytes, out.data());
}

ObjectCheck check_header(std::uint64_t file_size, const ReadAt& read, Elf64_Ehdr& header) {
  if (file_size == 0) return defect(ObjectDefect::empty, "the file is empty");
  unsigned char magic[SELFMAG] = {};
  if (file_size < SELFMAG || !read(0, SELFMAG, magic) || std::memcmp(magic, ELFMAG, SELFMAG) != 0)
    return defect(ObjectDefect::not_elf, "it does not start with the ELF magic bytes");
  if (file_size < sizeof header || !read(0, sizeof header, &header))
    return defect(ObjectDefect::malformed,
                  "its " + std::to_string(file_size) + " bytes are shorter than an ELF header");
  if (header.e_ident[EI_CLASS] != ELFCLASS64)
    return defect(ObjectDefect::wrong_format, "it is not a 64-bit ELF object");
  if (header.e_ident[EI_DATA] != ELFDATA2LSB)
    return defect(ObjectDefect::wrong_format, "it is not a little-endian ELF object");
  if (header.e_type != ET_DYN)
    return defect(ObjectDefect::wrong_format,
                  "ELF type " + std::to_string(header.e_type) + ", not a shared object (ET_DYN)");
  if (header.e_machine != kHostMachine)
    return defect(ObjectDefect::wrong_format, "ELF machine " + std::to_string(header.e_machine) +
                                                  ", not this host's (" +
                                                  std::to_string(kHostMachine) + ")");
  return {};
}

ObjectCheck check(std::uint64_t file_size, const ReadAt& read, std::string_view symbol) {
  Elf64_Ehdr header{};
  if (ObjectCheck c = check_header(file_size, read, header); !c.ok()) return c;
  std::vector<Elf64_Shdr> sections;
  if (header.e_shentsize != sizeof(Elf64_Shdr) || header.e_shnum == 0 ||
      !read_table(file_size, read, header.e_shoff,
                  std::uint64_t{header.e_shnum} * sizeof(Elf64_Shdr), sections))
    return defect(ObjectDefect::malformed, "its section header table lies outside the file");
  const Elf64_Shdr* dynsym = nullptr;
  for (const Elf64_Shdr& s : sections)
    if (s.sh_type == SHT_DYNSYM) dynsym = &s;
  if (!dynsym)
    return defect(ObjectDefect::symbol_missing,
                  "it has no dynamic symbols, so no `" + std::string(symbol) + "`");
  if (dynsym->sh_link >= sections.size() || sections[dynsym->sh_link].sh_type != SHT_STRTAB)
    return defect(ObjectDefect::malformed, "its .dynsym links to no string table");
  const Elf64_Shdr& strtab = sections[dynsym->sh_link];
  std::vector<char> names;
  std::vector<Elf64_Sym> symbols;
  if (!read_table(file_size, read, strtab.sh_offset, strtab.sh_size, names) ||
      !read_table(file_size, read, dynsym->sh_offset, dynsym->sh_size, symbols))
    return defect(ObjectDefect::malformed, "its .dynsym or .dynstr lies outside the file");
  for (const Elf64_Sym& s : symbols) {
    if (s.st_name >= names.size()) continue;  // a name outside the table names nothing
    const char* name = names.data() + s.st_name;
    const std::size_t room = names.size() - s.st_name;
    const std::size_t length = strnlen(name, room);
    if (length == room || std::string_view(name, length) != symbol) continue;
    const unsigned bind = ELF64_ST_BIND(s.st_info), visibility = ELF64_ST_VISIBILITY(s.st_other);
    if (s.st_shndx != SHN_UNDEF && ELF64_ST_TYPE(s.st_info) == STT_FUNC &&
        (bind == STB_GLOBAL || bind == STB_WEAK) &&
        (visibility == STV_DEFAULT || visibility == STV_PROTECTED))
      return {};
  }
  return defect(ObjectDefect::symbol_missing,
                "it does not export the function `" + std::string(symbol) + "`");
}

}  // namespace

const char* object_defect_name(ObjectDefect d) {
  switch (d) {
    case ObjectDefect::none:
      return "none";
    case ObjectDefect::missing:
      return "missing";
    case ObjectDefect::unreadable:
      return "unreadable";
    case ObjectDefect::empty:
      return "empty";
    case ObjectDefect::not_elf:
      return "not_elf";
    case ObjectDefect::wrong_format:
      return "wrong_format";
    case ObjectDefect::malformed:
      return "malformed";
    case ObjectDefect::symbol_missing:
      return "symbol_missing";
  }
  return "unknown";
}

ObjectCheck check_shared_object(const std::filesystem::path& path, std::string_view symbol) {
  FileDescriptor fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK));
  if (fd.get() < 0)
    return errno == ENOENT ? defect(ObjectDefect::missing, "there is no file")
                           : defect(ObjectDefect::unreadable, std::strerror(errno));
  struct stat info {};
  if (::fstat(fd.get(), &info) != 0) return defect(ObjectDefect::unreadable, std::strerror(errno));
  if (!S_ISREG(info.st_mode)) return defect(ObjectDefect::not_elf, "it is not a regular file");
  const ReadAt read = [&fd](std::uint64_t offset, std::size_t size, void* into) {
    auto* at = static_cast<char*>(into);
    while (size > 0) {
      const ssize_t got = ::pread(fd.get(), at, size, static_cast<off_t>(offset));
      if (got < 0 && errno == EINTR) continue;
      if (got <= 0) return false;
      at += got, offset += static_cast<std::uint64_t>(got), size -= static_cast<std::size_t>(got);
    }
    return true;
  };
  return check(static_cast<std::uint64_t>(info.st_size), read, symbol);
}

ObjectCheck check_shared_object_image(std::string_view image, std::string_view symbol) {
  const ReadAt read = [image](std::uint64_t offset, std::size_t size, void* into) {
    if (!within(image.size(), offset, size)) return false;
    std::memcpy(into, image.data() + offset, size);
    return true;
  };
  return check(image.size(), read, symbol);
}

}  // namespace kblaster
