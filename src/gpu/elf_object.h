// Checks that a file the compiler wrote is a loadable shared object exporting the
// entry point kblaster calls, before the compile cache keeps it: a compiler that
// exits 0 after writing nothing, an empty file or random bytes must not poison the
// cache. A small reader of ELF64 headers, section headers, .dynsym and its string
// table; every offset and size is checked against the file before it is read.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

namespace kblaster {

// What is wrong with a file that should be a shared object.
enum class ObjectDefect {
  none,            // an ELF64 shared object for this machine that exports the symbol
  missing,         // no file at the path
  unreadable,      // the file exists but cannot be opened or read
  empty,           // zero bytes
  not_elf,         // no ELF magic at its start (or not a regular file)
  wrong_format,    // ELF, but not 64-bit little-endian, not ET_DYN, or another machine's
  malformed,       // a header, table or name lies outside the file
  symbol_missing,  // a well-formed shared object that does not export the symbol
};

// A stable snake_case name: "none", "missing", "empty", "not_elf", ...
const char* object_defect_name(ObjectDefect defect);

struct ObjectCheck {
  ObjectDefect defect = ObjectDefect::none;
  std::string detail;  // what was found, for messages ("ELF type 1, not a shared object")
  bool ok() const { return defect == ObjectDefect::none; }
};

// Checks the file at `path`: an ELF64, little-endian, ET_DYN object for the host's
// machine whose .dynsym defines `symbol` as a global or weak, visible function.
// Reads only the headers and the two tables; never fails otherwise.
ObjectCheck check_shared_object(const std::filesystem::path& path, std::string_view symbol);

// The same check on a file's bytes held in memory.
ObjectCheck check_shared_object_image(std::string_view image, std::string_view symbol);

}  // namespace kblaster
