// The nvcc flags a kernel repository's config may ask for. A pull request's
// kblaster.toml is untrusted: a flag such as -ccbin, --keep-dir, -Xlinker or
// -Xcompiler -fplugin=… would run a program or write files of its choosing, so
// only flags that change what is compiled, never how or where, pass
// (docs/security.md lists them). The flags kblaster adds itself are not checked.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace kblaster {

// The flags of one config field, split by what they do.
struct AllowedNvccFlags {
  std::vector<std::string> flags;         // passed to nvcc as written, except -I
  std::vector<std::string> include_dirs;  // -I DIR values: normalised, repository-relative,
                                          // not yet checked to exist
};

// Why one entry of the list was refused: its index and a message naming the flag.
struct FlagRefusal {
  std::size_t index = 0;
  std::string message;
};

// Either the allowed flags or the first refusal.
struct NvccFlagCheck {
  AllowedNvccFlags allowed;
  std::optional<FlagRefusal> refusal;
};

// Checks each entry of `flags` (one flag per entry; a value may be attached,
// after '=', or the next entry) against the allow-list.
NvccFlagCheck check_nvcc_flags(const std::vector<std::string>& flags);

// The allowed flags' spellings, comma-separated, for messages and docs.
std::string allowed_nvcc_flag_names();

}  // namespace kblaster
